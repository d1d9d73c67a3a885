// What the CLI shows of a policy: its name (as given to --policy), one line of help, and the
// parameters its name takes (rollout:N:H). A game declares these once, in its policy table
// (policies/policy_table.hpp), whose rows also make the policy.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace odds {

// A whole-number parameter a policy's name takes after a colon: rollout:N declares
// {"N", "simulations", 1, 100000, 16}.
struct PolicyParam {
    std::string_view name;        // as the help writes it: "N"
    std::string_view meaning;     // what it counts, for messages: "simulations"
    std::int64_t lo = 0, hi = 0;  // the valid values, both included
    std::int64_t fallback = 0;    // the value when the name does not give it
};

struct PolicyInfo {
    std::string_view name;
    std::string_view help;
    // The parameters, in order: NAME[:P1[:P2]], each optional from the right.
    std::span<const PolicyParam> params = {};
};

}  // namespace odds
