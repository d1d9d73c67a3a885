// Coin Duel policies: safe, bold, random (C2).
#pragma once

#include <variant>

#include "engine/coin_duel/coin_duel.hpp"
#include "engine/dice.hpp"
#include "policies/policy_table.hpp"

namespace odds::coin_duel {

struct Safe {
    template <class Dice>
    Throw choose(const State&, Dice&) const { return Throw::safe; }
};
struct Bold {
    template <class Dice>
    Throw choose(const State&, Dice&) const { return Throw::bold; }
};
struct Random {  // a fair coin from the dice
    template <class Dice>
    Throw choose(const State&, Dice& dice) const { return dice.d6() % 2 ? Throw::safe : Throw::bold; }
};
using Policy = std::variant<Safe, Bold, Random>;

inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
    {"safe", "always throws safe", made<Safe>},
    {"bold", "always throws bold", made<Bold>},
    {"random", "safe or bold on a fair coin", made<Random>},
};
static_assert(every_alternative<Policy>([]<class P> { return PolicyFor<P, odds::Dice>; }));

}  // namespace odds::coin_duel
