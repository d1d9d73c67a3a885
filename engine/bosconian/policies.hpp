// Bosconian-D policies. The game has no player decisions, so there is one policy, the rules as
// written; it still goes through the policy seam, like the games whose policies decide.
#pragma once

#include <variant>

#include "engine/bosconian/bosconian.hpp"
#include "engine/dice.hpp"
#include "policies/policy_table.hpp"

namespace odds::bosconian {

// The rules as written: nothing to choose.
struct RulesAsWritten {};

using Policy = std::variant<RulesAsWritten>;

// The policies, the default first: name, help and factory.
inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
    {"rules", "the rules as written (Bosconian-D has no player decisions)", made<RulesAsWritten>},
};
inline constexpr auto kPolicyInfos = infos_of(kPolicies);

// Every policy the table can make plays the kernel's policy interface.
static_assert(every_alternative<Policy>([]<class P> { return PolicyFor<P, odds::Dice>; }));

}  // namespace odds::bosconian
