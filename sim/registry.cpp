#include "sim/registry.hpp"

#include "sim/games/games.hpp"

namespace odds {

std::span<const GameEntry> games() {
    static const GameEntry kGames[] = {bosconian_entry()};
    return kGames;
}

const GameEntry& find_game(std::string_view name) {
    std::string valid;
    for (const auto& g : games()) {
        if (g.name == name) return g;
        valid += (valid.empty() ? "" : ", ") + std::string(g.name);
    }
    throw UsageError("unknown game '" + std::string(name) + "' (valid: " + valid + ")");
}

std::size_t pick_policy(std::string_view game, std::span<const PolicyInfo> policies,
                        const std::vector<std::string>& args) {
    if (args.empty()) return 0;
    if (args.size() > 1)
        throw UsageError(std::string(game) + " has one seat: give --policy once, not " +
                         std::to_string(args.size()) + " times");
    std::string valid;
    for (std::size_t i = 0; i < policies.size(); ++i) {
        if (policies[i].name == args[0]) return i;
        valid += (valid.empty() ? "" : ", ") + std::string(policies[i].name);
    }
    throw UsageError(std::string(game) + ": unknown policy '" + args[0] + "' (valid: " + valid +
                     ")");
}

}  // namespace odds
