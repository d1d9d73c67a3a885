#include "policies/policy_table.hpp"

#include <algorithm>
#include <optional>

#include "engine/rule_options.hpp"

namespace odds {

namespace {

std::size_t positional_count(const PolicyInfo& p) {
    std::size_t n = 0;
    for (const auto& q : p.params) n += !q.named();
    return n;
}

// A value as the user writes it: 16, 0.7 (decimals), walk (a choice).
std::string shown(const PolicyParam& q, std::int64_t v) {
    if (q.named())
        return v >= 0 && static_cast<std::size_t>(v) < q.choices.size()
                   ? std::string(q.choices[static_cast<std::size_t>(v)])
                   : "?";
    if (q.decimals == 0) return std::to_string(v);
    std::int64_t scale = 1;
    for (int i = 0; i < q.decimals; ++i) scale *= 10;
    std::string frac = std::to_string(v % scale);
    frac.insert(0, static_cast<std::size_t>(q.decimals) - frac.size(), '0');
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    std::string s = std::to_string(v / scale);
    if (!frac.empty()) s.append(".").append(frac);
    return s;
}

// "16" or "0.7" read as a positional parameter's held value; nullopt when malformed or outside
// its range.
std::optional<std::int64_t> read_value(const PolicyParam& q, std::string_view text) {
    if (q.decimals == 0) return parse_integer(text, q.lo, q.hi);
    const auto dot = text.find('.');
    const std::string_view whole = text.substr(0, dot);
    const std::string_view frac = dot == std::string_view::npos ? "" : text.substr(dot + 1);
    const auto digits = [](std::string_view t) {
        return t.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (whole.empty() || !digits(whole) || !digits(frac) ||
        (dot != std::string_view::npos && frac.empty()) ||
        frac.size() > static_cast<std::size_t>(q.decimals))
        return std::nullopt;
    std::string held(whole);
    held.append(frac).append(static_cast<std::size_t>(q.decimals) - frac.size(), '0');
    return parse_integer(held, q.lo, q.hi);
}

// What a positional parameter must be: "a whole number from 1 to 100".
std::string must_be(const PolicyParam& q) {
    return (q.decimals == 0 ? "a whole number"
                            : "a number with at most " + std::to_string(q.decimals) + " decimals") +
           " from " + shown(q, q.lo) + " to " + shown(q, q.hi);
}

std::string choice_list(const PolicyParam& q) {
    std::string s;
    for (std::size_t i = 0; i < q.choices.size(); ++i) s.append(i ? ", " : "").append(q.choices[i]);
    return s;
}

// "rollout[:N[:H]]", "mcts[:N[:C]][:rollout=NAME]": the forms a row's name takes.
std::string forms(const PolicyInfo& p) {
    std::string s(p.name);
    for (const auto& q : p.params)
        if (!q.named()) s += "[:" + std::string(q.name);
    s.append(positional_count(p), ']');
    for (const auto& q : p.params)
        if (q.named()) s += "[:" + std::string(q.name) + "=NAME]";
    return s;
}

// "rollout[:N[:H]]: N simulations from 1 to 100000, default 16; H turns from 0 to 60, default 0"
std::string usage(const PolicyInfo& p) {
    std::string s = forms(p) + ":";
    for (std::size_t i = 0; i < p.params.size(); ++i) {
        const PolicyParam& q = p.params[i];
        s += (i ? "; " : " ") + std::string(q.name) + " " + std::string(q.meaning) +
             (q.named() ? ": one of " + choice_list(q)
                        : " from " + shown(q, q.lo) + " to " + shown(q, q.hi)) +
             ", default " + shown(q, q.fallback);
    }
    return s;
}

std::string label_of(const PolicyInfo& p, const PolicyArgs& args) {
    std::string s(p.name);
    const std::size_t positional = positional_count(p);
    std::size_t count = positional == 0 ? 0 : 1;
    for (std::size_t i = 1; i < positional; ++i)
        if (args[i] != p.params[i].fallback) count = i + 1;
    // appended piecewise: GCC 12 warns falsely (-Wrestrict) on ":" + std::to_string(...)
    for (std::size_t i = 0; i < count; ++i) s.append(":").append(shown(p.params[i], args[i]));
    for (std::size_t i = positional; i < p.params.size(); ++i)
        if (args[i] != p.params[i].fallback)
            s.append(":").append(p.params[i].name).append("=").append(shown(p.params[i], args[i]));
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
    const std::size_t positional = positional_count(p);
    std::string_view rest = text.substr(colon + 1);
    std::size_t next_positional = 0;
    std::vector<bool> named_given(p.params.size(), false);
    for (;;) {
        const auto next = rest.find(':');
        const std::string_view token = rest.substr(0, next);
        const auto eq = token.find('=');
        if (eq != std::string_view::npos) {  // KEY=CHOICE
            const std::string_view key = token.substr(0, eq), value = token.substr(eq + 1);
            std::size_t k = p.params.size();
            for (std::size_t i = positional; i < p.params.size(); ++i)
                if (p.params[i].name == key) k = i;
            if (k == p.params.size())
                throw UsageError(bad + std::string(p.name) + " has no parameter '" +
                                 std::string(key) + "' (" + usage(p) + ")");
            const PolicyParam& q = p.params[k];
            if (named_given[k])
                throw UsageError(bad + std::string(key) + " is given twice (" + usage(p) + ")");
            named_given[k] = true;
            std::size_t found = q.choices.size();
            for (std::size_t i = 0; i < q.choices.size(); ++i)
                if (q.choices[i] == value) found = i;
            if (found == q.choices.size())
                throw UsageError(bad + std::string(key) + " must be one of " + choice_list(q) +
                                 " (" + usage(p) + ")");
            c.args[k] = static_cast<std::int64_t>(found);
        } else {
            if (next_positional == positional ||
                std::find(named_given.begin(), named_given.end(), true) != named_given.end())
                throw UsageError(bad + std::string(p.name) + " takes at most " +
                                 std::to_string(positional) + " parameter" +
                                 (positional == 1 ? "" : "s") +
                                 (positional < p.params.size() ? ", before any NAME=VALUE" : "") +
                                 " (" + usage(p) + ")");
            const PolicyParam& q = p.params[next_positional];
            const auto value = read_value(q, token);
            if (!value)
                throw UsageError(bad + std::string(q.name) + " must be " + must_be(q) + " (" +
                                 usage(p) + ")");
            c.args[next_positional++] = *value;
        }
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
        // SEAT=NAME: an '=' before any ':' (after one it is the name's own KEY=CHOICE).
        const auto eq = a.find('=');
        if (eq == std::string::npos || a.find(':') < eq) {  // a bare name serves both seats
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
        bool named = false;
        for (const auto& q : p.params) {
            const bool out = q.named() ? q.fallback < 0 || static_cast<std::size_t>(q.fallback) >=
                                                               q.choices.size()
                                       : q.lo > q.hi || q.fallback < q.lo || q.fallback > q.hi;
            if (q.name.empty() || out || q.decimals < 0 || q.decimals > 6)
                return "policy '" + name + "': parameter '" + std::string(q.name) +
                       "' has no name, or a default outside its range";
            if (named && !q.named())
                return "policy '" + name + "': parameter '" + std::string(q.name) +
                       "' comes after a named one; positional parameters come first";
            named = named || q.named();
        }
    }
    return {};
}

}  // namespace odds
