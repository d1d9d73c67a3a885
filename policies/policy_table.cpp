#include "policies/policy_table.hpp"

#include "engine/rule_options.hpp"

namespace odds {

namespace {

// "rollout[:N[:H]]": the forms a row's name takes.
std::string forms(const PolicyInfo& p) {
    std::string s(p.name);
    for (const auto& q : p.params) s += "[:" + std::string(q.name);
    s.append(p.params.size(), ']');
    return s;
}

// "rollout[:N[:H]]: N simulations from 1 to 100000, default 16; H turns from 0 to 60, default 0"
std::string usage(const PolicyInfo& p) {
    std::string s = forms(p) + ":";
    for (std::size_t i = 0; i < p.params.size(); ++i) {
        const PolicyParam& q = p.params[i];
        s += (i ? "; " : " ") + std::string(q.name) + " " + std::string(q.meaning) + " from " +
             std::to_string(q.lo) + " to " + std::to_string(q.hi) + ", default " +
             std::to_string(q.fallback);
    }
    return s;
}

std::string label_of(const PolicyInfo& p, const PolicyArgs& args) {
    std::string s(p.name);
    std::size_t shown = p.params.empty() ? 0 : 1;
    for (std::size_t i = 1; i < p.params.size(); ++i)
        if (args[i] != p.params[i].fallback) shown = i + 1;
    // appended piecewise: GCC 12 warns falsely (-Wrestrict) on ":" + std::to_string(...)
    for (std::size_t i = 0; i < shown; ++i) s.append(":").append(std::to_string(args[i]));
    return s;
}

}  // namespace

PolicyChoice default_choice(std::span<const PolicyInfo> policies, std::size_t index) {
    PolicyChoice c;
    c.index = index;
    const PolicyInfo& p = policies[index];
    for (std::size_t i = 0; i < p.params.size() && i < kMaxPolicyParams; ++i)
        c.args[i] = p.params[i].fallback;
    c.label = label_of(p, c.args);
    return c;
}

PolicyChoice parse_policy(std::string_view game, std::span<const PolicyInfo> policies,
                          std::string_view text) {
    const auto colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    std::size_t index = policies.size();
    for (std::size_t i = 0; i < policies.size(); ++i)
        if (policies[i].name == name) index = i;
    if (index == policies.size()) {
        std::string valid;
        std::vector<std::string> names;
        for (const auto& p : policies) {
            valid += (valid.empty() ? "" : ", ") + std::string(p.name);
            names.emplace_back(p.name);
        }
        throw UsageError(std::string(game) + ": unknown policy '" + std::string(text) + "'" +
                         did_you_mean(name, names) + " (valid: " + valid + ")");
    }
    PolicyChoice c = default_choice(policies, index);
    if (colon == std::string_view::npos) return c;

    const PolicyInfo& p = policies[index];
    const std::string bad =
        std::string(game) + ": policy '" + std::string(text) + "' is not valid: ";
    if (p.params.empty()) {
        std::string which;  // the policies that do take parameters
        for (const auto& q : policies)
            if (!q.params.empty())
                which += (which.empty() ? " (" : "; ") + std::string(q.name) + " does: " + usage(q);
        throw UsageError(bad + std::string(p.name) + " takes no parameters" + which +
                         (which.empty() ? "" : ")"));
    }
    std::string_view rest = text.substr(colon + 1);
    for (std::size_t i = 0;; ++i) {
        const auto next = rest.find(':');
        if (i == p.params.size())
            throw UsageError(bad + std::string(p.name) + " takes at most " +
                             std::to_string(p.params.size()) + " parameter" +
                             (p.params.size() == 1 ? "" : "s") + " (" + usage(p) + ")");
        const PolicyParam& q = p.params[i];
        const auto value = parse_integer(rest.substr(0, next), q.lo, q.hi);
        if (!value)
            throw UsageError(bad + std::string(q.name) + " must be a whole number from " +
                             std::to_string(q.lo) + " to " + std::to_string(q.hi) + " (" +
                             usage(p) + ")");
        c.args[i] = *value;
        if (next == std::string_view::npos) break;
        rest.remove_prefix(next + 1);
    }
    c.label = label_of(p, c.args);
    return c;
}

PolicyChoice pick_policy(std::string_view game, std::span<const PolicyInfo> policies,
                         const std::vector<std::string>& args) {
    if (args.empty()) return default_choice(policies);
    if (args.size() > 1)
        throw UsageError(std::string(game) + " has one seat: give --policy once, not " +
                         std::to_string(args.size()) + " times");
    return parse_policy(game, policies, args[0]);
}

std::array<PolicyChoice, 2> pick_seat_policies(std::string_view game,
                                               std::array<std::string_view, 2> seats,
                                               std::span<const PolicyInfo> policies,
                                               const std::vector<std::string>& args) {
    std::array<PolicyChoice, 2> chosen{default_choice(policies), default_choice(policies)};
    std::array<bool, 2> given{false, false};
    for (const auto& a : args) {
        const auto eq = a.find('=');
        if (eq == std::string::npos) {  // a bare name serves both seats
            chosen[0] = chosen[1] = parse_policy(game, policies, a);
            if (given[0] || given[1] || args.size() > 1)
                throw UsageError(std::string(game) + ": --policy '" + a +
                                 "' names both seats; give it alone, or SEAT=NAME per seat");
            given = {true, true};
            continue;
        }
        const std::string seat = a.substr(0, eq);
        std::size_t k = 2;
        for (std::size_t i = 0; i < 2; ++i)
            if (seats[i] == seat) k = i;
        if (k == 2)
            throw UsageError(std::string(game) + ": --policy '" + a + "': unknown seat '" + seat +
                             "' (valid: " + std::string(seats[0]) + ", " + std::string(seats[1]) +
                             ")");
        if (given[k])
            throw UsageError(std::string(game) + ": --policy gives seat '" + seat + "' twice");
        given[k] = true;
        chosen[k] = parse_policy(game, policies, std::string_view(a).substr(eq + 1));
    }
    return chosen;
}

std::string seats_label(std::array<std::string_view, 2> seats,
                        const std::array<PolicyChoice, 2>& chosen) {
    std::string s;  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "a=" + s
    s.append(seats[0]).append("=").append(chosen[0].label);
    s.append(" ").append(seats[1]).append("=").append(chosen[1].label);
    return s;
}

std::string policy_table_error(std::span<const PolicyInfo> policies) {
    for (std::size_t i = 0; i < policies.size(); ++i) {
        const PolicyInfo& p = policies[i];
        const std::string name(p.name);
        if (p.name.empty()) return "policy " + std::to_string(i) + " has no name";
        if (p.name.find_first_of(":=") != std::string_view::npos)
            return "policy '" + name + "': a name holds no ':' or '='";
        for (std::size_t j = 0; j < i; ++j)
            if (policies[j].name == p.name) return "two policies are called '" + name + "'";
        if (p.params.size() > kMaxPolicyParams)
            return "policy '" + name + "' declares more than " + std::to_string(kMaxPolicyParams) +
                   " parameters";
        for (const auto& q : p.params)
            if (q.name.empty() || q.lo > q.hi || q.fallback < q.lo || q.fallback > q.hi)
                return "policy '" + name + "': parameter '" + std::string(q.name) +
                       "' has no name, or a default outside its range";
    }
    return {};
}

}  // namespace odds
