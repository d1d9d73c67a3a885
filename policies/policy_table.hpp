// A game's policy table, and the one parser of --policy values.
//
// Each game lists its policies once, in policies.hpp, as rows of name, one line of help, the
// factory that makes the policy, and the parameters its name takes; adding a policy is one row:
//
//   inline constexpr PolicyParam kRolloutParams[] = {{"N", "simulations", 1, 100000, 16}};
//   inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
//       {"random", "uniform over the legal choices", made<Random>},
//       {"rollout", "flat Monte Carlo ...", make_rollout, kRolloutParams},
//   };
//
// The registry shows the rows' PolicyInfo (infos_of). The parser reads NAME[:P1[:P2]] against
// them; the game hands the values to the chosen row's factory:
//
//   const PolicyChoice c = pick_policy("fpb", kPolicyInfos, args);   // "rollout:32"
//   Policy p = kPolicies[c.index].make(options, c.args);              // Rollout{32, options}
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "policies/policy_info.hpp"

namespace odds {

// The most parameters a policy's name takes.
inline constexpr std::size_t kMaxPolicyParams = 5;
// A parameterised name's values in declared order; one not given holds its default.
using PolicyArgs = std::array<std::int64_t, kMaxPolicyParams>;

// The usual factory: a game's policy variant from what it needs of the game's options and the
// parameters' values.
template <class Policy, class Context>
using PolicyFactory = Policy (*)(const Context&, const PolicyArgs&);

// One row of a game's policy table. `Make` is the game's factory type, usually a PolicyFactory.
template <class Make>
struct PolicyRow {
    std::string_view name;
    std::string_view help;
    Make make;
    std::span<const PolicyParam> params = {};
    bool needs_fixed_opponent = false;  // PolicyInfo::needs_fixed_opponent
};

// A factory for a policy that needs nothing: T{}, whatever the factory is given. Converts to any
// `Made (*)(const Context&...)` that can hold a T, so a row reads {"random", "...", made<Random>}.
template <class T, class Made, class... Context>
Made made(const Context&...) {
    return Made(T{});
}

// The rows' PolicyInfo, in table order: what the registry shows and the parser reads.
template <class Make, std::size_t N>
constexpr std::array<PolicyInfo, N> infos_of(const PolicyRow<Make> (&rows)[N]) {
    std::array<PolicyInfo, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = {rows[i].name, rows[i].help, rows[i].params, rows[i].needs_fixed_opponent};
    return out;
}
template <class Make, std::size_t N>
constexpr std::array<PolicyInfo, N> infos_of(const std::array<PolicyRow<Make>, N>& rows) {
    std::array<PolicyInfo, N> out{};
    for (std::size_t i = 0; i < N; ++i)
        out[i] = {rows[i].name, rows[i].help, rows[i].params, rows[i].needs_fixed_opponent};
    return out;
}

// Whether `fits.template operator()<P>()` holds for every alternative P of the std::variant V:
// how a game asserts that every policy its table makes satisfies its kernel's policy concept,
//   static_assert(every_alternative<Policy>([]<class P> { return PolicyFor<P, Dice>; }));
template <class V>
struct Alternatives;
template <class... P>
struct Alternatives<std::variant<P...>> {
    template <class Fits>
    static constexpr bool all(Fits fits) {
        return (fits.template operator()<P>() && ...);
    }
};
template <class V, class Fits>
constexpr bool every_alternative(Fits fits) {
    return Alternatives<V>::all(fits);
}

// A --policy value read against a game's table.
struct PolicyChoice {
    std::size_t index = 0;  // the row
    PolicyArgs args{};      // its parameters' values (the defaults where not given)
    // How runs name it: the row's name, then for a policy with parameters ":VALUE" for the first
    // always and for each later one up to the last that is not its default (rollout:16,
    // rollout:8:2), then ":KEY=CHOICE" for each named one that is not its default
    // (mcts:1000:rollout=walk).
    std::string label;
};

// The row `index` with every parameter at its default.
PolicyChoice default_choice(std::span<const PolicyInfo> policies, std::size_t index = 0);

// Reads NAME[:P1[:P2[:P3]]]: the row named NAME and the values of its declared parameters, each
// a number in its range, then any named ones as KEY=CHOICE (mcts:2000:0.5:rollout=walk). Throws
// UsageError, one line naming the game, `text` and what is valid ("naval: policy 'rollout:0' is not
// valid: N must be a whole number from 1 to 100000 (rollout[:N[:H]]: ...)").
PolicyChoice parse_policy(std::string_view game, std::span<const PolicyInfo> policies,
                          std::string_view text);

// For one-seat games: the policy named in `args` (default: the first row).
PolicyChoice pick_policy(std::string_view game, std::span<const PolicyInfo> policies,
                         const std::vector<std::string>& args);

// For two-seat games: each seat's policy from args "NAME" (both seats) or "SEAT=NAME" (default:
// the first row).
std::array<PolicyChoice, 2> pick_seat_policies(std::string_view game,
                                               std::array<std::string_view, 2> seats,
                                               std::span<const PolicyInfo> policies,
                                               const std::vector<std::string>& args);

// "SEAT=LABEL SEAT=LABEL": how a two-seat run names its policies ("a=rollout:8 b=gunner").
std::string seats_label(std::array<std::string_view, 2> seats,
                        const std::array<PolicyChoice, 2>& chosen);

// A mistake in a policy table, or "" when there is none: a name empty, repeated or holding
// ':' or '=', more than kMaxPolicyParams parameters, or a default outside its range. The
// registry checks every game's table when the program starts.
std::string policy_table_error(std::span<const PolicyInfo> policies);

}  // namespace odds
