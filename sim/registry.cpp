#include "sim/registry.hpp"

#include <iterator>
#include <stdexcept>

#include "policies/policy_table.hpp"
#include "sim/script_game.hpp"

namespace odds {

void validate(const GameEntry& g) {
    const std::string name(g.name);
    auto bad = [&](const std::string& what) {
        throw std::logic_error("game '" + name + "' is registered wrongly: " + what);
    };
    if (g.name.empty()) bad("no name");
    if (!g.prepare) bad("no prepare function");
    if (g.policies.empty()) bad("no policy");
    if (const std::string e = policy_table_error(g.policies); !e.empty()) bad(e);
    if (g.rules_version.substr(0, g.name.size() + 1) != name + "/" ||
        g.rules_version.size() == g.name.size() + 1)
        bad("rules version '" + std::string(g.rules_version) + "' is not '" + name + "/N'");
    if (!g.seats.empty() && g.seats.size() != 2)
        bad("seats '" + joined(g.seats, ", ") + "' are not two");
    const auto run = g.prepare({}, {});
    auto is_metric = [&](std::string_view m) {
        for (const auto& spec : run->metrics)
            if (spec.name == m) return true;
        return false;
    };
    for (const auto& m : g.headline)
        if (!is_metric(m))
            bad("headline metric '" + std::string(m) + "' is not one of its metrics");
    if (!g.seats.empty() && g.versus.size() != 3) bad("a two-seat game needs three versus metrics");
    for (const auto& m : g.versus)
        if (!is_metric(m)) bad("versus metric '" + std::string(m) + "' is not one of its metrics");
    if (g.headline.empty()) bad("no headline metric");
    // odds skill's ladder: policies of the game, and a search spelling with {n}.
    for (const auto& rung : g.ladder) try {
            (void)parse_policy(g.name, g.policies, rung);
        } catch (const UsageError& e) {
            bad("ladder rung '" + std::string(rung) + "': " + e.what());
        }
    if (!g.search.empty() && g.search.find("{n}") == std::string_view::npos)
        bad("search '" + std::string(g.search) + "' has no {n}");
}

std::vector<std::reference_wrapper<const GameEntry>> listed_games() {
    std::vector<std::reference_wrapper<const GameEntry>> all(games().begin(), games().end());
    for (const GameEntry* g : scripted_games()) all.emplace_back(*g);
    return all;
}

const GameEntry& find_game(std::string_view name) {
    if (is_script_name(name)) return script_game(name);  // a designer's game: its script's path
    std::string valid;
    std::vector<std::string> names;
    for (const GameEntry& g : listed_games()) {
        if (g.name == name) return g;
        valid += (valid.empty() ? "" : ", ") + std::string(g.name);
        names.emplace_back(g.name);
    }
    throw UsageError("unknown game '" + std::string(name) + "'" + did_you_mean(name, names) +
                     " (valid: " + valid + ")");
}

}  // namespace odds
