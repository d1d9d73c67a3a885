// odds list: the games, their policies, rule options and metrics.
#include <algorithm>
#include <iomanip>
#include <string>
#include <vector>

#include "reports/check_report.hpp"
#include "reports/csv.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

namespace {

// A metric's range in words: "rate, 0 or 1" for a rate, "0..100 hull points" for a count,
// "0..1 points by 0.5" for a count kept in halves.
std::string range_text(const MetricSpec& m) {
    if (m.kind == MetricKind::rate) return "rate, 0 or 1";
    std::string r = format_double(static_cast<double>(m.lo) / m.scale) + ".." +
                    format_double(static_cast<double>(m.hi) / m.scale) + " " + m.unit;
    if (m.scale != 1) r += " by " + format_double(1.0 / m.scale);
    return r;
}

// Every game in `shown` as one JSON document: everything `odds list` says, for tools.
std::string list_json(const std::vector<const GameEntry*>& shown) {
    std::string j = "{\n  \"odds_version\": " + json_string(ODDS_VERSION) + ",\n  \"games\": [";
    const auto names = [](std::span<const std::string_view> v) {
        std::string a = "[";
        for (std::size_t i = 0; i < v.size(); ++i) a += (i ? ", " : "") + json_string(v[i]);
        return a + "]";
    };
    for (std::size_t gi = 0; gi < shown.size(); ++gi) {
        const GameEntry& g = *shown[gi];
        const auto defaults = g.prepare({}, {});
        j += std::string(gi ? "," : "") + "\n    {\n      \"name\": " + json_string(g.name) +
             ",\n      \"title\": " + json_string(g.title) +
             ",\n      \"summary\": " + json_string(g.summary) +
             ",\n      \"seats\": " + names(g.seats) +
             ",\n      \"rules_version\": " + json_string(g.rules_version) +
             ",\n      \"headline\": " + names(g.headline) +
             ",\n      \"versus\": " + names(g.versus) +
             ",\n      \"default_policy\": " + json_string(defaults->policy) +
             ",\n      \"default_scenario\": " + json_string(defaults->scenario) +
             ",\n      \"default_playouts\": {\"run\": " + std::to_string(g.run_playouts) +
             ", \"each_run\": " + std::to_string(g.each_run_playouts()) +
             ", \"shape\": " + std::to_string(g.shape_games) +
             ", \"skill\": " + std::to_string(g.skill_games) + "}" + ",\n      \"policies\": [";
        for (std::size_t i = 0; i < g.policies.size(); ++i)
            j += std::string(i ? "," : "") +
                 "\n        {\"name\": " + json_string(g.policies[i].name) +
                 ", \"help\": " + json_string(g.policies[i].help) + "}";
        j += "\n      ],\n      \"options\": [";
        for (std::size_t i = 0; i < g.options.size(); ++i) {
            const OptionInfo& o = g.options[i];
            j += std::string(i ? "," : "") + "\n        {\"name\": " + json_string(o.name) +
                 ", \"default\": " + json_string(o.default_value) +
                 ", \"help\": " + json_string(o.help) +
                 ", \"comma_list\": " + (o.comma_list ? "true" : "false") + "}";
        }
        j += "\n      ],\n      \"metrics\": [";
        for (std::size_t i = 0; i < defaults->metrics.size(); ++i) {
            const MetricSpec& m = defaults->metrics[i];
            j += std::string(i ? "," : "") + "\n        {\"name\": " + json_string(m.name) +
                 ", \"kind\": " + json_string(m.kind == MetricKind::rate ? "rate" : "count") +
                 ", \"unit\": " + json_string(m.unit) +
                 ", \"min\": " + json_number(static_cast<double>(m.lo) / m.scale) +
                 ", \"max\": " + json_number(static_cast<double>(m.hi) / m.scale) +
                 ", \"step\": " + json_number(1.0 / m.scale) +
                 ", \"help\": " + json_string(m.help) + "}";
        }
        j += "\n      ],\n      \"survival\": [";
        for (std::size_t i = 0; i < defaults->survivals.size(); ++i) {
            const SurvivalSpec& sv = defaults->survivals[i];
            const auto metric = [&](int k) {
                return k < 0 ? std::string("null") : json_string(defaults->metrics[k].name);
            };
            j += std::string(i ? "," : "") + "\n        {\"subject\": " + json_string(sv.subject) +
                 ", \"step\": " + metric(sv.time) + ", \"event\": " + metric(sv.event) +
                 ", \"event_value\": " +
                 (sv.event < 0 ? std::string("null") : std::to_string(sv.event_value)) +
                 ", \"event_words\": " + json_string(sv.event_words) + "}";
        }
        j += "\n      ],\n      \"exact_solver\": ";
        if (g.exact)
            j += "{\"command\": " + json_string("odds exact " + std::string(g.name)) +
                 ", \"limits\": " + json_string(g.exact_limits) + "}";
        else
            j += "null";
        j += "\n    }";
    }
    return j + "\n  ]\n}\n";
}

}  // namespace

int cmd_list(const Args& opt, Io io) {
    std::vector<const GameEntry*> shown;
    if (opt.game)
        shown.push_back(&find_game(*opt.game));
    else
        for (const GameEntry& g : listed_games()) shown.push_back(&g);
    if (opt.json) {
        io.out << list_json(shown);
        return 0;
    }
    for (const auto* g : shown) {
        // The metrics as the game declares them, at the default options (ranges follow them).
        const auto defaults = g->prepare({}, {});
        io.out << g->name << " - " << g->title << ": " << g->summary << "\n  policies (--policy "
               << (g->seats.empty()
                       ? "NAME"
                       : "NAME for every seat, or SEAT=NAME; seats: " + joined(g->seats, ", "))
               << "; default " << g->policies.front().name << "):\n";
        // One column for names, as wide as the longest (at least 22), then the help.
        std::size_t wide = 20;
        for (const auto& p : g->policies) wide = std::max(wide, p.name.size());
        for (const auto& o : g->options)
            wide = std::max(wide, o.name.size() + 1 + o.default_value.size());
        for (const auto& m : defaults->metrics) wide = std::max(wide, m.name.size());
        const int w = static_cast<int>(wide) + 2;
        for (const auto& p : g->policies)
            io.out << "    " << std::left << std::setw(w) << p.name << p.help << '\n';
        io.out << "  options (--set NAME=VALUE):\n";
        for (const auto& o : g->options)
            io.out << "    " << std::left << std::setw(w)
                   << (std::string(o.name) + "=" + std::string(o.default_value)) << o.help << '\n';
        io.out << "  metrics (one row each in summary.csv; ranges at the default options):\n";
        std::size_t range_wide = 0;
        for (const auto& m : defaults->metrics)
            range_wide = std::max(range_wide, range_text(m).size());
        for (const auto& m : defaults->metrics)
            io.out << "    " << std::left << std::setw(w) << m.name
                   << std::setw(static_cast<int>(range_wide) + 2) << range_text(m) << m.help
                   << '\n';
        io.out << "  defaults: odds run and baseline " << g->run_playouts << " playouts, compare, "
               << "tournament and sweep " << g->each_run_playouts() << " a run, shape "
               << g->shape_games << " games, skill " << g->skill_games
               << " games a group (about two minutes each on 2 cores)\n";
        io.out << "  exact solver: "
               << (!g->exact                 ? std::string("no")
                   : g->exact_limits.empty() ? std::string("yes (odds exact)")
                                             : "yes (odds exact; " + g->exact_limits + ")")
               << '\n';
    }
    return 0;
}

namespace {
void list_options(po::options_description& d) {
    d.add_options()("json",
                    "print everything as one JSON document, for tools: each game's title, "
                    "summary, seats, rules version, policies, options, metrics and exact "
                    "solver");
}
}  // namespace

const CommandSpec list_spec = {
    "list",
    "the games, their policies, rule options and metrics",
    "odds list [GAME] [--json]",
    "Every game (or one): its policies, its rule options with their defaults, and its metrics "
    "(what each counts, a rate or its range and unit at the default options), each with one "
    "line of help, and its exact solver's limits. With --json, the same (and each game's rules "
    "version, headline metrics and survival tables) as one JSON document, for tools.",
    {"odds list msc", "odds list --json"},
    "game",
    1,
    list_options,
    cmd_list};

}  // namespace odds::cli
