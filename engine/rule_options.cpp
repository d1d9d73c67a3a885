#include "engine/rule_options.hpp"

#include <algorithm>
#include <charconv>

namespace odds {

std::pair<std::string, std::string> split_setting(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw UsageError("--set '" + std::string(text) + "': expected NAME=VALUE");
    return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

OptionReader::OptionReader(std::string_view game, std::span<const OptionInfo> declared,
                           const Settings& settings)
    : game_(game), settings_(settings) {
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const auto& name = settings[i].first;
        bool known = false;
        for (const auto& o : declared) known = known || o.name == name;
        if (!known) {
            std::string valid;
            std::vector<std::string> names;
            for (const auto& o : declared) {
                if (!valid.empty()) valid += ", ";
                valid += o.name;
                names.emplace_back(o.name);
            }
            throw UsageError(game_ + ": unknown option '" + name + "'" + did_you_mean(name, names) + " (valid: " +
                             (valid.empty() ? std::string("none") : valid) + ")");
        }
        for (std::size_t j = 0; j < i; ++j)
            if (settings[j].first == name)
                throw UsageError(game_ + ": option '" + name + "' is set twice");
    }
}

std::optional<std::string> OptionReader::text(std::string_view name) const {
    for (const auto& [n, v] : settings_)
        if (n == name) return v;
    return std::nullopt;
}

void OptionReader::fail(std::string_view name, std::string_view value,
                        std::string_view what_is_valid) const {
    throw UsageError(game_ + ": " + std::string(name) + "='" + std::string(value) +
                     "' is not valid; " + std::string(name) + " takes " +
                     std::string(what_is_valid));
}

namespace {
// Edit distance with transpositions (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}
}  // namespace

std::string did_you_mean(std::string_view bad, const std::vector<std::string>& candidates) {
    std::size_t best = static_cast<std::size_t>(-1);
    const std::string* pick = nullptr;
    for (const auto& c : candidates)
        if (const std::size_t d = edit_distance(bad, c); d < best) {
            best = d;
            pick = &c;
        }
    if (!pick || best == 0 || best > 2 || 2 * best >= std::max(bad.size(), std::size_t{1})) return "";
    return " (did you mean '" + *pick + "'?)";
}

std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t lo,
                                          std::int64_t hi) {
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc{} || p != end || v < lo || v > hi) return std::nullopt;
    return v;
}

std::int64_t OptionReader::integer(std::string_view name, std::int64_t fallback, std::int64_t lo,
                                   std::int64_t hi) const {
    const auto t = text(name);
    if (!t) return fallback;
    if (auto v = parse_integer(*t, lo, hi)) return *v;
    fail(name, *t,
         "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
}

bool OptionReader::boolean(std::string_view name, bool fallback) const {
    const auto t = text(name);
    if (!t) return fallback;
    if (*t == "true" || *t == "1" || *t == "yes") return true;
    if (*t == "false" || *t == "0" || *t == "no") return false;
    fail(name, *t, "true or false");
}

}  // namespace odds
