// Bosconian-D policies. The game has no player decisions, so there is one policy, the rules as
// written; it still goes through the policy seam, like the games whose policies decide.
#pragma once

#include <array>
#include <variant>

#include "policies/policy_info.hpp"

namespace odds::bosconian {

// The rules as written: nothing to choose.
struct RulesAsWritten {};

using Policy = std::variant<RulesAsWritten>;

inline constexpr std::array<PolicyInfo, 1> kPolicies{{
    {"rules", "the rules as written (Bosconian-D has no player decisions)"},
}};

inline Policy make_policy(std::size_t index) {
    (void)index;
    return RulesAsWritten{};
}

}  // namespace odds::bosconian
