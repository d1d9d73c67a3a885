#include "sim/cli/round_robin.hpp"

#include "policies/policy_table.hpp"

namespace odds::cli {

std::vector<Pairing> round_robin(const GameEntry& game, const Settings& settings,
                                 const std::vector<std::string>& entrants) {
    std::vector<bool> fixed_opponent;
    for (const auto& name : entrants)
        fixed_opponent.push_back(
            game.policies[parse_policy(game.name, game.policies, name).index].needs_fixed_opponent);
    const std::string first(game.seats[0]), second(game.seats[1]);
    std::vector<Pairing> pairings;
    for (std::size_t a = 0; a < entrants.size(); ++a)
        for (std::size_t b = 0; b < entrants.size(); ++b) {
            if (a == b || (fixed_opponent[a] && fixed_opponent[b])) continue;
            pairings.push_back(
                {a, b,
                 game.prepare(settings, {first + "=" + entrants[a], second + "=" + entrants[b]})});
        }
    return pairings;
}

}  // namespace odds::cli
