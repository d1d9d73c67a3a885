// What the CLI shows of a policy: its name (as given to --policy), one line of help, and the
// parameters its name takes (rollout:N:H). A game declares these once, in its policy table
// (policies/policy_table.hpp), whose rows also make the policy.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace odds {

// A parameter a policy's name takes after a colon. Three kinds, all held as whole numbers:
//   rollout:N      {"N", "simulations", 1, 100000, 16}: a whole number, by position
//   mcts:1000:0.7  {"C", "exploration", 0, 1000, 70, 2}: a decimal with up to `decimals`
//                  places, by position, held in hundredths (70); lo, hi and fallback likewise
//   rollout=walk   {"rollout", "policy", 0, 0, 0, 0, kNames}: one of `choices`, given as
//                  NAME=CHOICE after the positional ones, held as the choice's index
struct PolicyParam {
    std::string_view name;        // as the help writes it: "N"
    std::string_view meaning;     // what it counts, for messages: "simulations"
    std::int64_t lo = 0, hi = 0;  // the valid values, both included (a choice: ignored)
    std::int64_t fallback = 0;    // the value when the name does not give it
    int decimals = 0;             // places after the point (0: a whole number)
    std::span<const std::string_view> choices = {};  // non-empty: a named parameter

    constexpr bool named() const noexcept { return !choices.empty(); }
};

struct PolicyInfo {
    std::string_view name;
    std::string_view help;
    // The parameters, in order: NAME[:P1[:P2]], each optional from the right; then the named
    // ones (NAME[:P1[:P2]][:KEY=CHOICE]...), each optional, in any order.
    std::span<const PolicyParam> params = {};
    // A two-seat game's policy that plans against the other seat's (Dimension Duel's
    // best-response): it cannot sit in both seats, and the registry solves it against the other
    // seat's policy (sim/register_game.hpp); a tournament skips its pairing with itself.
    bool needs_fixed_opponent = false;
};

}  // namespace odds
