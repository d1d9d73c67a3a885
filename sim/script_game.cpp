#include "sim/script_game.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/line_reader.hpp"
#include "engine/script.hpp"
#include "engine/script_position.hpp"
#include "engine/stop.hpp"
#include "engine/text.hpp"
#include "reports/csv.hpp"

namespace odds {

namespace {

using script::Declared;

// Each worker thread's Lua state of a script: made on its first chunk, kept while the thread
// lives (a run's workers end with the run).
script::Machine& machine_for(const std::shared_ptr<const Declared>& d) {
    thread_local std::map<std::shared_ptr<const Declared>, std::unique_ptr<script::Machine>> mine;
    auto& m = mine[d];
    if (!m) m = std::make_unique<script::Machine>(d);
    return *m;
}

// A metric's value from result(s, o) within its declared range (else UsageError).
void check_range(const Declared& d, const MetricSpec& m, std::int32_t value) {
    if (value < m.lo || value > m.hi)
        throw UsageError(d.path + ": result(s, o) gave metric '" + m.name + "' the value " +
                         std::to_string(value) + ", outside its declared range " +
                         std::to_string(m.lo) + ".." + std::to_string(m.hi));
}

class ScriptRun final : public PreparedRun {
public:
    // start: the state's bytes every game plays on from (a position), or empty: a fresh game.
    ScriptRun(std::shared_ptr<const Declared> d, script::Values values, std::vector<int> seats,
              std::string start = {})
        : d_(std::move(d)),
          values_(std::move(values)),
          seats_(std::move(seats)),
          start_(std::move(start)) {}

    RunResult run(const RunConfig& cfg, const RunControl& ctl) const override {
        const Tally empty(metrics, survivals);
        const auto play_chunk = [&](Dice& dice, std::uint64_t, std::uint64_t n, Tally& tally) {
            script::Machine& m = machine_for(d_);
            std::int32_t values[kMaxMetrics];
            for (std::uint64_t i = 0; i < n; ++i) {
                if (ctl.stop && ctl.stop->load(std::memory_order_relaxed)) [[unlikely]]
                    throw StopRequested{};
                play(m, dice, values);
                tally.add(values);
            }
        };
        return run_chunks(cfg, empty, play_chunk, ctl);
    }

    void play_each(std::uint64_t seed, std::uint64_t first, std::uint64_t n,
                   std::int32_t* out) const override {
        script::Machine& m = machine_for(d_);
        const std::size_t stride = metrics.size();
        std::int32_t values[kMaxMetrics];
        for (std::uint64_t i = 0; i < n; ++i) {
            throw_if_stop_requested();
            Dice dice(stream_seed(seed, first + i));
            play(m, dice, values);
            std::copy(values, values + stride, out + i * stride);
        }
    }

private:
    // One game, its metrics checked against their declared ranges.
    void play(script::Machine& m, Dice& dice, std::int32_t* values) const {
        m.play(values_, dice, seats_, values, start_);
        for (std::size_t k = 0; k < metrics.size(); ++k) check_range(*d_, metrics[k], values[k]);
    }

    std::shared_ptr<const Declared> d_;
    script::Values values_;
    std::vector<int> seats_;
    std::string start_;
};

// The seats' policies from --policy: NAME for every seat, or SEAT=NAME; the first declared
// policy where none is given.
std::vector<int> seated(const Declared& d, const std::vector<std::string>& args,
                        std::string& label) {
    const std::size_t n = d.seats.empty() ? 1 : 2;
    std::vector<int> seats(n, 0);
    std::vector<std::string> names;
    for (const auto& p : d.policies) names.push_back(p.name);
    const auto policy = [&](const std::string& name) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end())
            throw UsageError("unknown policy '" + name + "' for " + d.path +
                             did_you_mean(name, names) + " (valid: " + joined(names, ", ") + ")");
        return static_cast<int>(it - names.begin());
    };
    for (const auto& a : args) {
        const auto eq = a.find('=');
        if (eq == std::string::npos || d.seats.empty()) {
            if (args.size() > 1 && d.seats.empty())
                throw UsageError(d.path + " is a solo game: give one --policy, not " +
                                 std::to_string(args.size()));
            std::fill(seats.begin(), seats.end(), policy(a));
            continue;
        }
        const std::string seat = a.substr(0, eq);
        const auto it = std::find(d.seats.begin(), d.seats.end(), seat);
        if (it == d.seats.end())
            throw UsageError("--policy '" + a + "': no seat '" + seat + "' in " + d.path +
                             " (seats: " + joined(d.seats, ", ") + ")");
        seats[static_cast<std::size_t>(it - d.seats.begin())] = policy(a.substr(eq + 1));
    }
    if (d.seats.empty())
        label = names[static_cast<std::size_t>(seats[0])];
    else
        label = d.seats[0] + "=" + names[static_cast<std::size_t>(seats[0])] + " " + d.seats[1] +
                "=" + names[static_cast<std::size_t>(seats[1])];
    return seats;
}

// odds exact on a script: every roll enumerated (script::Machine::solve), each metric's law
// checked against its declared range.
// start: a position's state bytes, or empty: a fresh game.
ExactReport solve(const std::shared_ptr<const Declared>& d, const std::string& game,
                  const Settings& s, const std::vector<std::string>& p,
                  const std::string& start = {}) {
    const script::Values values = script::parse_values(*d, s);
    ExactReport r;
    const std::vector<int> seats = seated(*d, p, r.policy);
    r.game = game;
    r.scenario = script::scenario(*d, values);
    script::Machine& m = machine_for(d);
    const auto specs = m.metric_specs(values);
    const script::Solution solved =
        m.solve(values, seats, script::kMaxExactStates, script::kMaxExactWork, start);
    for (std::size_t k = 0; k < specs.size(); ++k) {
        Distribution law{
            specs[k], std::vector<double>(static_cast<std::size_t>(specs[k].hi - specs[k].lo) + 1),
            solved.unresolved};
        for (const auto& [value, probability] : solved.laws[k]) {
            check_range(*d, specs[k], value);
            law.mass[static_cast<std::size_t>(value - specs[k].lo)] += probability;
        }
        r.laws.push_back(std::move(law));
    }
    r.notes.push_back(
        "every roll of every step enumerated for these policies: " + std::to_string(solved.states) +
        " states over " + std::to_string(solved.steps) + " steps, " + std::to_string(solved.rolls) +
        " roll outcomes taken");
    if (solved.unresolved > kNegligible)
        r.notes.push_back("games still playing after max_steps = " + std::to_string(d->max_steps) +
                          " steps are unresolved mass (" + format_double(solved.unresolved) +
                          "): the laws are bounds");
    return r;
}

// A script's entry with the text its views point into.
struct ScriptEntry {
    std::shared_ptr<const Declared> d;
    std::string name, rules_version;
    std::vector<OptionInfo> options;
    std::vector<PolicyInfo> policies;
    std::vector<std::string> versus_words;
    std::vector<std::string_view> seats, headline, versus;
    GameEntry entry;
};

OptionInfo option_info(const script::ScriptOption& o) {
    OptionInfo i;
    i.name = o.name;
    i.default_value = o.default_text;
    i.ruling = o.ruling;
    switch (o.type) {
        case script::OptionType::integer:
            i.kind = OptionKind::integer;
            i.min = o.min, i.max = o.max;
            i.values = std::to_string(o.min) + ".." + std::to_string(o.max);
            break;
        case script::OptionType::boolean:
            i.kind = OptionKind::boolean;
            i.values = "true or false";
            break;
        case script::OptionType::dice:
            i.kind = OptionKind::dice;
            i.values = "dice (2d6, 3d6kh2, d6+1...)";
            break;
        case script::OptionType::faces:
            i.kind = OptionKind::faces;
            i.values = faces_takes(o.sides);
            i.comma_list = true;
            break;
        case script::OptionType::choice:
            i.kind = OptionKind::choice;
            i.words = o.words;
            i.values = joined(o.words, " or ");
            break;
    }
    i.help = o.help + " (" + i.values + (o.ruling.empty() ? "" : "; " + o.ruling) + ")";
    return i;
}

// The entry of script `d`, named `game` (its path, or for a game of the engine its declared name).
std::unique_ptr<ScriptEntry> make_entry(std::shared_ptr<const Declared> d, std::string game) {
    auto e = std::make_unique<ScriptEntry>();
    e->d = d;
    e->name = std::move(game);
    e->rules_version = e->name + "/" + std::to_string(d->version);
    for (const auto& o : d->options) e->options.push_back(option_info(o));
    for (const auto& p : d->policies) e->policies.push_back({p.name, p.help, {}, false});
    for (const auto& s : d->seats) e->seats.emplace_back(s);
    for (const auto& h : d->headline) e->headline.emplace_back(h);
    e->versus_words = d->versus;
    if (!d->seats.empty() && e->versus_words.empty())
        e->versus_words = {d->seats[0] + "_win", d->seats[1] + "_win", "draw"};
    for (const auto& v : e->versus_words) e->versus.emplace_back(v);
    GameEntry& g = e->entry;
    g.name = e->name;
    g.title = d->title;
    g.summary = d->summary;
    g.options = e->options;
    g.policies = e->policies;
    g.seats = e->seats;
    g.rules_version = e->rules_version;
    g.headline = e->headline;
    g.versus = e->versus;
    const auto prepare = [d, game = e->name](const Settings& s, const std::vector<std::string>& p,
                                             std::string start) {
        script::Values values = script::parse_values(*d, s);
        std::string label;
        std::vector<int> seats = seated(*d, p, label);
        auto run = std::make_unique<ScriptRun>(d, values, std::move(seats), std::move(start));
        run->game = game;
        run->scenario = script::scenario(*d, values);
        run->policy = label;
        run->metrics = machine_for(d).metric_specs(values);
        return std::unique_ptr<PreparedRun>(std::move(run));
    };
    g.prepare = [prepare](const Settings& s, const std::vector<std::string>& p) {
        return prepare(s, p, {});
    };
    // Positions (docs/positions.md): the state as text (engine/script_position.hpp).
    g.opening_position = [d](const Settings& s) {
        return script::position_text(machine_for(d).opening_state(script::parse_values(*d, s)),
                                     d->path);
    };
    g.prepare_from = [prepare](const Settings& s, const std::vector<std::string>& p,
                               std::string_view text, std::string_view file) {
        return prepare(s, p, script::position_bytes(text, file));
    };
    if (d->exact) {
        g.exact = [d, game = e->name](const Settings& s, const std::vector<std::string>& p) {
            return solve(d, game, s, p);
        };
        g.exact_from = [d, game = e->name](const Settings& s, const std::vector<std::string>& p,
                                           std::string_view text, std::string_view file) {
            return solve(d, game, s, p, script::position_bytes(text, file));
        };
        g.exact_limits = "every roll of every step enumerated: at most " +
                         std::to_string(script::kMaxExactStates / 1'000'000) + " million states";
    }
    g.canonical = [d](const Settings& s) {
        const script::Values values = script::parse_values(*d, s);
        Settings out;
        for (const auto& [name, value] : s)
            for (std::size_t i = 0; i < d->options.size(); ++i)
                if (d->options[i].name == name)
                    out.emplace_back(name, script::value_text(*d, values, i));
        std::sort(out.begin(), out.end());
        return out;
    };
    return e;
}

// The engine's scripts as built (scripts/embed-scripts.cmake): path and text.
struct Embedded {
    const char* path;
    const char* source;
};
#define ODDS_SCRIPT(path, source) Embedded{path, source},
constexpr Embedded kEmbedded[] = {
#include "sim/engine_scripts.inc"
};
#undef ODDS_SCRIPT

}  // namespace

std::span<const GameEntry* const> scripted_games() {
    static const auto entries = [] {
        std::vector<std::unique_ptr<ScriptEntry>> kept;
        for (const Embedded& s : kEmbedded) {
            auto d = script::load(s.path, s.source);
            const auto kernels = games();
            if (std::any_of(kernels.begin(), kernels.end(),
                            [&](const GameEntry& g) { return g.name == d->name; }))
                continue;  // a kernel's rules as a script: the kernel is the game
            auto e = make_entry(d, d->name);
            validate(e->entry);
            kept.push_back(std::move(e));
        }
        return kept;
    }();
    static const auto pointers = [] {
        std::vector<const GameEntry*> p;
        for (const auto& e : entries) p.push_back(&e->entry);
        return p;
    }();
    return pointers;
}

bool is_script_name(std::string_view name) {
    return name.size() > 4 && name.substr(name.size() - 4) == ".lua";
}

const GameEntry& script_game(std::string_view path) {
    // Loaded once a text: the same path written again (a designer's next try, a test's next
    // script) is loaded again; entries handed out earlier stay valid.
    static std::mutex mu;
    static std::map<std::pair<std::string, std::string>, std::unique_ptr<ScriptEntry>> loaded;
    std::lock_guard lock(mu);
    const std::string name(path);
    std::string source =
        read_input_file(name, "the game script", script::kMaxScriptFile, script::kMaxScriptLine);
    if (const auto it = loaded.find({name, source}); it != loaded.end()) return it->second->entry;
    auto e = make_entry(script::load(name, source), name);
    try {
        validate(e->entry);
    } catch (const std::logic_error& bad) {  // a registration mistake: the script's, here
        throw UsageError(std::string(path) + ": " + bad.what());
    }
    return loaded.emplace(std::pair{name, std::move(source)}, std::move(e)).first->second->entry;
}

}  // namespace odds
