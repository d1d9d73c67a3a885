#include "sim/cli/vary.hpp"

#include <algorithm>
#include <cstdint>

#include "sim/cli/common.hpp"

namespace odds::cli {

namespace {

bool comma_list(const GameEntry& game, std::string_view name) {
    for (const auto& o : game.options)
        if (o.name == name) return o.comma_list;
    return false;  // an unknown option: the game refuses it by name
}

class Reader {
public:
    Reader(const std::string& text, const VaryRules& rules) : text_(text), rules_(rules) {}

    // "--vary 'TEXT': WHY (COMMAND takes FORMS)".
    [[noreturn]] void bad(const std::string& why) const {
        throw UsageError("--vary '" + text_ + "': " + why + " (" + std::string(rules_.command) +
                         " takes " + std::string(rules_.forms) + ")");
    }
    // "--vary 'TEXT': WHY", where the command's message names no forms.
    [[noreturn]] void plain(const std::string& why) const {
        throw UsageError("--vary '" + text_ + "': " + why);
    }

    Varied read(const GameEntry& game) const {
        const auto eq = text_.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text_.size()) {
            if (rules_.ranges_rise)
                bad(eq == std::string::npos || eq == 0 ? "no NAME=" : "no LO..HI");
            throw UsageError("--vary '" + text_ + "': expected " + std::string(rules_.forms));
        }
        Varied v{text_.substr(0, eq), {}, false};
        const std::string spec = text_.substr(eq + 1);
        if (spec.find('{') != std::string::npos) {
            range(spec, v);
        } else if (spec.find('|') != std::string::npos) {
            split(spec, '|', v);
        } else if (comma_list(game, v.name)) {
            v.values.push_back(spec);
        } else if (is_range(spec)) {
            range(spec, v);
        } else {
            split(spec, ',', v);
        }
        return v;
    }

private:
    // LO..HI[:STEP] (or LO:HI:STEP), the whole value or the part of it in braces.
    void range(std::string spec, Varied& v) const {
        std::string before, after;
        if (const auto open = spec.find('{'); open != std::string::npos) {
            const auto close = spec.find('}', open);
            if (close == std::string::npos) bad("a '{' without its '}'");
            before = spec.substr(0, open);
            after = spec.substr(close + 1);
            if (before.find_first_of("{}") != std::string::npos ||
                after.find_first_of("{}") != std::string::npos)
                bad("more than one {LO..HI}");
            spec = spec.substr(open + 1, close - open - 1);
            if (!is_range(spec)) bad("no LO..HI");
        }
        std::string why;
        const auto r = parse_range(spec, why);
        if (!r) bad(why);
        if (rules_.ranges_rise && r->lo == r->hi) bad("LO is not below HI");
        const std::uint64_t count = static_cast<std::uint64_t>((r->hi - r->lo) / r->step) + 1;
        if (count > rules_.max_values) {
            const std::string many = "more than " + std::to_string(rules_.max_values) + " values";
            if (rules_.ranges_rise) bad(many);
            plain(many);
        }
        for (std::int64_t x = r->lo; x <= r->hi; x += r->step)
            v.values.push_back(before + std::to_string(x) + after);
        v.ordered = true;
    }

    void split(const std::string& spec, char sep, Varied& v) const {
        std::string_view rest = spec;
        while (true) {
            const auto at = rest.find(sep);
            const std::string item(rest.substr(0, at));
            if (item.empty()) plain("an empty value");
            if (std::find(v.values.begin(), v.values.end(), item) != v.values.end())
                plain(v.name + "=" + item + " is " + std::string(rules_.verb) + " twice");
            v.values.push_back(item);
            if (at == std::string_view::npos) break;
            rest.remove_prefix(at + 1);
        }
    }

    const std::string& text_;
    const VaryRules& rules_;
};

}  // namespace

std::vector<Varied> parse_varies(const std::vector<std::string>& specs, const GameEntry& game,
                                 const VaryRules& rules) {
    std::vector<Varied> out;
    std::vector<std::string> first_text;
    for (const auto& text : specs) {
        Varied v = Reader(text, rules).read(game);
        auto same =
            std::find_if(out.begin(), out.end(), [&](const Varied& w) { return w.name == v.name; });
        if (same == out.end()) {
            out.push_back(std::move(v));
            first_text.push_back(text);
            continue;
        }
        same->ordered = false;
        for (auto& value : v.values) {
            if (std::find(same->values.begin(), same->values.end(), value) != same->values.end())
                throw UsageError("--vary '" + text + "': " + v.name + "=" + value + " is " +
                                 std::string(rules.verb) + " twice");
            same->values.push_back(std::move(value));
        }
        if (same->values.size() > rules.max_values && !rules.ranges_rise)
            throw UsageError("--vary " + v.name + ": more than " +
                             std::to_string(rules.max_values) + " values");
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        const Varied& v = out[i];
        const bool list = comma_list(game, v.name);
        if (rules.two_values_each && v.values.size() < 2)
            throw UsageError(
                "--vary '" + first_text[i] + "': one value to search" +
                (list ? " (" + v.name +
                            " takes a comma list: give each value its own --vary, or separate "
                            "them with '|', NAME='4,9|4,9,15')"
                      : std::string(" (give two or more, NAME=v1,v2 or NAME=LO..HI; fix one "
                                    "with --set)")));
        if (!rules.two_values_each && list && v.values.size() < 2)
            throw UsageError("--vary '" + first_text[i] + "' is ambiguous: " + v.name +
                             " takes a comma list, so give each value " + std::string(rules.verb) +
                             " its own --vary, at least two (--vary " + v.name + "=4,9 --vary " +
                             v.name + "=4,9,15), or fix one with --set");
    }
    return out;
}

}  // namespace odds::cli
