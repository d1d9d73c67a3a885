#include "engine/rule_options.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

namespace odds {

namespace {
// `c` as the message shows it: itself, or an escape for a control character.
void append_printable(std::string& out, char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
        out += c;
        return;
    }
    switch (c) {
        case '\n':
            out += "\\n";
            return;
        case '\r':
            out += "\\r";
            return;
        case '\t':
            out += "\\t";
            return;
        default:
            break;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\x";
    out += kHex[u >> 4];
    out += kHex[u & 15];
}

// Whether the quote at `i` closes a quoted value: the message's end, or a space or punctuation
// after it (an apostrophe inside a value is followed by neither, as in "don't").
bool closes_quote(std::string_view m, std::size_t i) {
    if (i + 1 == m.size()) return true;
    const char n = m[i + 1];
    return n == ' ' || n == ',' || n == ';' || n == ':' || n == ')' || n == '.' || n == '?' ||
           n == '!' || n == '\n';
}
}  // namespace

std::string printable_message(std::string_view m) {
    std::string out;
    std::size_t i = 0;
    while (i < m.size()) {
        const char c = m[i];
        // An opening quote: at the start, or after a space, '(' or '='.
        const bool opens =
            c == '\'' && (i == 0 || m[i - 1] == ' ' || m[i - 1] == '(' || m[i - 1] == '=');
        std::size_t close = std::string_view::npos;
        if (opens)
            for (std::size_t j = i + 1; j < m.size(); ++j)
                if (m[j] == '\'' && closes_quote(m, j)) {
                    close = j;
                    break;
                }
        if (close == std::string_view::npos) {
            append_printable(out, c);
            ++i;
            continue;
        }
        const std::string_view value = m.substr(i + 1, close - i - 1);
        out += '\'';
        std::string shown;
        for (const char v : value) append_printable(shown, v);
        if (shown.size() > kMaxQuoted) {
            // Cut at kMaxQuoted - 3 characters, never inside an escape or a UTF-8 sequence.
            std::size_t cut = 0, at = 0;
            for (const char v : value) {
                std::string one;
                append_printable(one, v);
                if (at + one.size() > kMaxQuoted - 3) break;
                at += one.size();
                ++cut;
            }
            while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xc0) == 0x80) --cut;
            shown.clear();
            for (const char v : value.substr(0, cut)) append_printable(shown, v);
            shown += "...";
        }
        out += shown;
        out += '\'';
        i = close + 1;
    }
    return out;
}

std::pair<std::string, std::string> split_setting(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw UsageError("--set '" + std::string(text) + "': expected NAME=VALUE");
    return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

OptionReader::OptionReader(std::string_view game, const std::vector<std::string_view>& declared,
                           const Settings& settings)
    : game_(game), settings_(settings) {
    for (std::size_t i = 0; i < settings.size(); ++i) {
        const auto& name = settings[i].first;
        if (std::find(declared.begin(), declared.end(), name) == declared.end()) {
            std::string valid;
            std::vector<std::string> names;
            for (const auto& d : declared) {
                if (!valid.empty()) valid += ", ";
                valid += d;
                names.emplace_back(d);
            }
            throw UsageError(game_ + ": unknown option '" + name + "'" + did_you_mean(name, names) +
                             " (valid: " + (valid.empty() ? std::string("none") : valid) + ")");
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
    if (!pick || best == 0 || best > 2 || 2 * best >= std::max(bad.size(), std::size_t{1}))
        return "";
    return " (did you mean '" + *pick + "'?)";
}

std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t lo, std::int64_t hi) {
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    auto [p, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc{} || p != end || v < lo || v > hi) return std::nullopt;
    return v;
}

std::string or_list(const std::vector<std::string>& words) {
    std::string s;
    for (std::size_t i = 0; i < words.size(); ++i)
        s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return s;
}

std::string whole_number_takes(std::string_view zero_word, std::int64_t lo, std::int64_t hi) {
    return (zero_word.empty() ? "" : std::string(zero_word) + " or ") + "a whole number from " +
           std::to_string(lo) + " to " + std::to_string(hi);
}

namespace {
// Markdown: a table cell's text, escaped where it would end the cell, open an HTML tag or
// start emphasis.
std::string cell(std::string_view text) {
    std::string s;
    for (const char c : text) {
        if (c == '|' || c == '<' || c == '*') s += '\\';
        s += c;
    }
    return s;
}
}  // namespace

std::string options_table_markdown(std::span<const OptionInfo> options) {
    std::string s = "| option | default | values | meaning |\n|---|---|---|---|\n";
    for (const auto& o : options)
        s += "| `" + o.name + "` | `" + o.default_value + "` | " + cell(o.values) + " | " +
             cell(o.help) + " |\n";
    return s;
}

std::optional<std::uint32_t> read_word_set(std::string_view text, std::string_view words) {
    if (text == "none") return 0u;
    const auto names = detail::split_words(words);
    std::uint32_t bits = 0;
    for (const auto& name : detail::split_words(text)) {
        const auto at = std::find(names.begin(), names.end(), name);
        if (at == names.end()) return std::nullopt;
        bits |= 1u << (at - names.begin());
    }
    return bits;
}

std::string write_word_set(std::uint32_t bits, std::string_view words) {
    const auto names = detail::split_words(words);
    std::string t;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (bits >> i & 1u) t += (t.empty() ? "" : ",") + names[i];
    return t.empty() ? "none" : t;
}

namespace detail {

std::vector<std::string> split_words(std::string_view list) {
    std::vector<std::string> out;
    while (!list.empty()) {
        const auto comma = list.find(',');
        out.emplace_back(list.substr(0, comma));
        if (comma == std::string_view::npos) break;
        list.remove_prefix(comma + 1);
    }
    return out;
}

std::string render_help(std::string_view help, std::string_view range, std::string_view ruling) {
    std::string s(help);
    const auto fill = [&](std::string_view mark, std::string_view with) {
        const auto at = s.find(mark);
        if (at == std::string::npos) return false;
        s.replace(at, mark.size(), with);
        return true;
    };
    fill("{range}", range);
    if (!fill("{ruling}", ruling)) s += " (" + std::string(ruling) + ")";
    return s;
}

void bad_declaration(std::string_view game, std::string_view option, const std::string& what) {
    throw std::logic_error(
        "game '" + std::string(game) + "' declares its options wrongly: " +
        (option.empty() ? what : "option '" + std::string(option) + "' " + what));
}

bool types_a_range(std::string_view help) {
    const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    for (auto at = help.find(".."); at != std::string_view::npos; at = help.find("..", at + 1))
        if (at > 0 && at + 2 < help.size() && alnum(help[at - 1]) && alnum(help[at + 2]))
            return true;
    return false;
}

}  // namespace detail

namespace {
constexpr std::uint64_t kMaxPlayouts = 1'000'000'000'000ull;  // 1e12

}  // namespace

std::optional<std::uint64_t> parse_count(std::string_view text) {
    // DIGITS [. DIGITS] [e DIGITS] [k|M|G], worked out exactly, in decimal digits and a power of
    // ten (never through a double, which reads 1.00000000000000000001 as 1): the value must be a
    // whole number from 1 to 1e12. Case-sensitive, as every value: the SI prefixes k, M, G.
    if (text.empty()) return std::nullopt;
    std::int64_t exp10 = 0;  // the value is digits x 10^exp10
    switch (text.back()) {
        case 'k':
            exp10 = 3;
            break;
        case 'M':
            exp10 = 6;
            break;
        case 'G':
            exp10 = 9;
            break;
        default:
            break;
    }
    if (exp10 != 0) text.remove_suffix(1);
    const auto digit = [&](std::size_t i) {
        return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
    };
    std::string digits;
    std::size_t i = 0;
    for (; digit(i); ++i) digits += text[i];
    if (i < text.size() && text[i] == '.')
        for (++i; digit(i); ++i, --exp10) digits += text[i];
    if (digits.empty()) return std::nullopt;
    if (i < text.size() && text[i] == 'e') {
        std::int64_t e = 0;
        if (!digit(++i)) return std::nullopt;
        for (; digit(i); ++i) e = std::min<std::int64_t>(e * 10 + (text[i] - '0'), 1'000'000'000);
        exp10 += e;
    }
    if (i != text.size()) return std::nullopt;
    digits.erase(0, digits.find_first_not_of('0'));  // "000" -> "": zero
    if (digits.empty()) return std::nullopt;
    for (; digits.back() == '0'; ++exp10) digits.pop_back();
    // A fraction left over is not a whole number; 14 digits or more are above 1e12.
    if (exp10 < 0 || static_cast<std::int64_t>(digits.size()) + exp10 > 13) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : digits) v = v * 10 + static_cast<std::uint64_t>(c - '0');
    for (; exp10 > 0; --exp10) v *= 10;
    if (v > kMaxPlayouts) return std::nullopt;
    return v;
}

}  // namespace odds
