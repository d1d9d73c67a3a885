#include "sim/registry.hpp"

#include <iterator>
#include <stdexcept>

namespace odds {

void validate(const GameEntry& g) {
    const std::string name(g.name);
    auto bad = [&](const std::string& what) {
        throw std::logic_error("game '" + name + "' is registered wrongly: " + what);
    };
    if (g.name.empty()) bad("no name");
    if (!g.prepare) bad("no prepare function");
    if (g.policies.empty()) bad("no policy");
    if (g.rules_version.substr(0, g.name.size() + 1) != name + "/" ||
        g.rules_version.size() == g.name.size() + 1)
        bad("rules version '" + std::string(g.rules_version) + "' is not '" + name + "/N'");
    const auto seats = split_names(g.seats);
    if (!g.seats.empty() && seats.size() != 2) bad("seats '" + std::string(g.seats) + "' are not two");
    const auto run = g.prepare({}, {});
    auto is_metric = [&](const std::string& m) {
        for (const auto& spec : run->metrics)
            if (spec.name == m) return true;
        return false;
    };
    for (const auto& m : split_names(g.headline))
        if (!is_metric(m)) bad("headline metric '" + m + "' is not one of its metrics");
    const auto versus = split_names(g.versus);
    if (!g.seats.empty() && versus.size() != 3) bad("a two-seat game needs three versus metrics");
    for (const auto& m : versus)
        if (!is_metric(std::string(m))) bad("versus metric '" + m + "' is not one of its metrics");
    if (g.headline.empty()) bad("no headline metric");
}

const GameEntry& find_game(std::string_view name) {
    std::string valid;
    std::vector<std::string> names;
    for (const auto& g : games()) {
        if (g.name == name) return g;
        valid += (valid.empty() ? "" : ", ") + std::string(g.name);
        names.emplace_back(g.name);
    }
    throw UsageError("unknown game '" + std::string(name) + "'" + did_you_mean(name, names) +
                     " (valid: " + valid + ")");
}

std::vector<std::string> split_names(std::string_view list) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        out.emplace_back(list.substr(0, comma));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return out;
}

namespace {
std::size_t policy_index(std::string_view game, std::span<const PolicyInfo> policies,
                         const std::string& name) {
    std::string valid;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < policies.size(); ++i) {
        if (policies[i].name == name) return i;
        valid += (valid.empty() ? "" : ", ") + std::string(policies[i].name);
        names.emplace_back(policies[i].name);
    }
    throw UsageError(std::string(game) + ": unknown policy '" + name + "'" +
                     did_you_mean(name, names) + " (valid: " + valid + ")");
}
}  // namespace

std::size_t pick_policy(std::string_view game, std::span<const PolicyInfo> policies,
                        const std::vector<std::string>& args) {
    if (args.empty()) return 0;
    if (args.size() > 1)
        throw UsageError(std::string(game) + " has one seat: give --policy once, not " +
                         std::to_string(args.size()) + " times");
    return policy_index(game, policies, args[0]);
}

std::array<std::size_t, 2> pick_seat_policies(std::string_view game,
                                              std::array<std::string_view, 2> seats,
                                              std::span<const PolicyInfo> policies,
                                              const std::vector<std::string>& args) {
    std::array<std::size_t, 2> chosen{0, 0};
    std::array<bool, 2> given{false, false};
    for (const auto& a : args) {
        const auto eq = a.find('=');
        if (eq == std::string::npos) {  // a bare name serves both seats
            chosen[0] = chosen[1] = policy_index(game, policies, a);
            if (given[0] || given[1] || args.size() > 1)
                throw UsageError(std::string(game) + ": --policy '" + a +
                                 "' names both seats; give it alone, or SEAT=NAME per seat");
            given = {true, true};
            continue;
        }
        const std::string seat = a.substr(0, eq);
        int k = -1;
        for (int i = 0; i < 2; ++i)
            if (seats[static_cast<std::size_t>(i)] == seat) k = i;
        if (k < 0)
            throw UsageError(std::string(game) + ": --policy '" + a + "': unknown seat '" + seat +
                             "' (valid: " + std::string(seats[0]) + ", " + std::string(seats[1]) +
                             ")");
        if (given[static_cast<std::size_t>(k)])
            throw UsageError(std::string(game) + ": --policy gives seat '" + seat + "' twice");
        given[static_cast<std::size_t>(k)] = true;
        chosen[static_cast<std::size_t>(k)] = policy_index(game, policies, a.substr(eq + 1));
    }
    return chosen;
}

}  // namespace odds
