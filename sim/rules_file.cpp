#include "sim/rules_file.hpp"

#define TOML_HEADER_ONLY 1
#include <toml++/toml.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "engine/line_reader.hpp"

namespace odds::sim {

namespace {

std::mutex g_mu;
std::string g_path;
std::map<std::string, int> g_origin;  // a variant file's option -> its line, while it holds

const OptionInfo* option_named(const GameEntry& game, std::string_view name) {
    for (const auto& o : game.options)
        if (o.name == name) return &o;
    return nullptr;
}

// Where TOML refuses a line `NAME = VALUE` whose value is bare text (area1.open = 5-6, which
// TOML tries to read as a date; guts.roll = 3d6), the hint that such a value is quoted (issue 43;
// "" for any other line).
std::string quote_hint(std::string_view text, std::size_t line) {
    for (std::size_t n = 1; n < line && !text.empty(); ++n) {
        const auto nl = text.find('\n');
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    }
    std::string_view l = text.substr(0, text.find('\n'));
    const auto eq = l.find('=');
    if (eq == std::string_view::npos) return "";
    const auto trim = [](std::string_view v) {
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r'))
            v.remove_suffix(1);
        return v;
    };
    std::string_view rest = l.substr(eq + 1);
    if (rest.find_first_of("\"'[{") != std::string_view::npos) return "";  // quoted, an array...
    rest = rest.substr(0, rest.find('#'));  // a comment after the value
    const std::string_view name = trim(l.substr(0, eq)), value = trim(rest);
    if (name.empty() || value.empty()) return "";
    return "; a value that is not a plain number or true/false is quoted: " + std::string(name) +
           " = \"" + std::string(value) + "\"";
}

std::string kind_takes(const OptionInfo& o) {
    switch (o.kind) {
        case OptionKind::integer:
            return o.words.empty() ? "a whole number"
                                   : "a whole number, or the string \"" + o.words[0] + "\"";
        case OptionKind::boolean:
            return "true or false";
        case OptionKind::dice:
            return "a string of dice such as \"3d6\" (or a whole number)";
        default:
            return "a string";
    }
}

// The text a TOML value gives the option, or "" with `why` set when its type does not fit.
std::string value_text(const OptionInfo& o, const toml::node& v, std::string& why) {
    if (o.kind == OptionKind::integer || o.kind == OptionKind::dice) {
        if (const auto* i = v.as_integer()) return std::to_string(i->get());
        if (const auto* s = v.as_string()) {
            if (o.kind == OptionKind::dice) return s->get();
            if (!o.words.empty() && s->get() == o.words[0]) return s->get();
        }
    } else if (o.kind == OptionKind::boolean) {
        if (const auto* b = v.as_boolean()) return b->get() ? "true" : "false";
    } else if (const auto* s = v.as_string()) {
        if (s->get().empty()) {
            why = "an empty string; " + o.name + " takes " + o.values;
            return {};
        }
        return s->get();
    }
    why = "a value of the wrong type; " + o.name + " takes " + kind_takes(o);
    return {};
}

// The most parts of any option's name (sniper.area1.open: 3): a key nested deeper names none.
std::size_t deepest(const GameEntry& game) {
    std::size_t most = 1;
    for (const auto& o : game.options)
        most = std::max<std::size_t>(most, 1 + std::count(o.name.begin(), o.name.end(), '.'));
    return most;
}

struct Walk {
    const std::string& path;
    const GameEntry& game;
    std::size_t max_parts;
    std::vector<RulesSetting>& out;
    std::vector<RulesSetting>* skipped;

    std::string where(int line) const { return path + ":" + std::to_string(line) + ": "; }

    [[noreturn]] void unknown(const std::string& name, int line) const {
        std::vector<std::string> names;
        for (const auto& x : game.options) names.push_back(x.name);
        throw UsageError(where(line) + "'" + name + "' is not a rule option of " +
                         std::string(game.name) + did_you_mean(name, names) + " ('odds rules " +
                         std::string(game.name) + "' lists them)");
    }

    // Whether some option's name begins with `group` and a dot.
    bool is_group(const std::string& group) const {
        return std::any_of(game.options.begin(), game.options.end(), [&](const OptionInfo& o) {
            return o.name.size() > group.size() && o.name.compare(0, group.size(), group) == 0 &&
                   o.name[group.size()] == '.';
        });
    }

    void operator()(const toml::table& t, const std::string& prefix, std::size_t parts) {
        for (const auto& [key, node] : t) {
            const std::string name = prefix + std::string(key.str());
            const int line = static_cast<int>(key.source().begin.line);
            // A quoted key holds its dots: "cosmo_mine.damage" is as deep as [cosmo_mine] damage.
            const std::size_t depth =
                parts + 1 +
                static_cast<std::size_t>(std::count(key.str().begin(), key.str().end(), '.'));
            if (depth > max_parts)
                throw UsageError(where(line) + "'" + name + "' nests " + std::to_string(depth) +
                                 " keys deep; no rule option of " + std::string(game.name) +
                                 " has more than " + std::to_string(max_parts) + " parts");
            if (const auto* sub = node.as_table()) {
                // A table is a group of options ([cosmo_mine]); an option's name is no table,
                // and an empty table that groups nothing is no setting at all.
                if (option_named(game, name))
                    throw UsageError(where(line) + "'" + name +
                                     "' is a rule option, not a table: write " + name + " = VALUE");
                if (!is_group(name)) {
                    if (skipped) {
                        skipped->push_back({name, "", line});
                        continue;
                    }
                    unknown(name, line);
                }
                (*this)(*sub, name + ".", depth);
                continue;
            }
            const OptionInfo* o = option_named(game, name);
            if (!o) {
                if (skipped) {
                    skipped->push_back({name, "", line});
                    continue;
                }
                unknown(name, line);
            }
            // A key given twice, as a dotted key and in its table ("cosmo_mine.damage" = ... and
            // [cosmo_mine] damage = ...): TOML's own rule against defining a key twice.
            for (const auto& x : out)
                if (x.name == name)
                    throw UsageError(where(line) + "'" + name + "' is given twice (also at line " +
                                     std::to_string(x.line) + ")");
            std::string why;
            std::string text = value_text(*o, node, why);
            if (!why.empty()) throw UsageError(where(line) + name + ": " + why);
            out.push_back({name, std::move(text), line});
        }
    }
};

std::string toml_string(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

// The value as the variant file writes it.
std::string toml_value(const OptionInfo& o, const std::string& text) {
    if (o.kind == OptionKind::boolean)
        return text == "true" || text == "1" || text == "yes" ? "true" : "false";
    if (o.kind == OptionKind::integer && (o.words.empty() || text != o.words[0])) return text;
    return toml_string(text);
}

// `text` as comment lines of at most 100 columns.
std::string comment(std::string_view text) {
    std::string out, line = "#";
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t end = std::min(text.find(' ', i), text.size());
        const std::string_view word = text.substr(i, end - i);
        if (line.size() + 1 + word.size() > 100 && line != "#") {
            out += line + '\n';
            line = "#";
        }
        line += ' ';
        line += word;
        i = end + 1;
    }
    return out + line + '\n';
}

}  // namespace

std::vector<RulesSetting> read_rules_file(const std::string& path, const GameEntry& game,
                                          std::vector<RulesSetting>* skipped) {
    const std::string text = read_input_file(path, "--rules", kMaxRulesFile, kMaxRulesLine);
    toml::table table;
    try {
        table = toml::parse(text, path);
    } catch (const toml::parse_error& e) {
        const auto line = e.source().begin.line;
        throw UsageError(path + ":" + std::to_string(line) + ": " + std::string(e.description()) +
                         quote_hint(text, line));
    }
    std::vector<RulesSetting> out;
    Walk{path, game, deepest(game), out, skipped}(table, "", 0);
    return out;
}

Settings merged_settings(const std::vector<RulesSetting>& file, const std::string& path,
                         const GameEntry& game, const Settings& set) {
    Settings out;
    // The file's values as the game reads them back, to tell the book's from changes (a file's
    // 0100 for hull=100 is the book's): read with --set on top; where that fails the values
    // stay as written, and the run that follows gives the error.
    Settings all;
    for (const auto& s : file)
        if (std::none_of(set.begin(), set.end(),
                         [&](const auto& kv) { return kv.first == s.name; }))
            all.emplace_back(s.name, s.value);
    all.insert(all.end(), set.begin(), set.end());
    Settings canonical;
    try {
        canonical = game.canonical(all);
    } catch (const UsageError&) {
        canonical = all;
    }
    const auto read_back = [&](const RulesSetting& s) {
        for (const auto& [n, v] : canonical)
            if (n == s.name) return v;
        return s.value;
    };
    std::lock_guard lock(g_mu);
    g_origin.clear();
    g_path = path;
    for (const auto& s : file) {
        const bool replaced =
            std::any_of(set.begin(), set.end(), [&](const auto& kv) { return kv.first == s.name; });
        const OptionInfo* o = option_named(game, s.name);
        if (replaced || (o && o->default_value == read_back(s))) continue;
        out.emplace_back(s.name, s.value);
        g_origin[s.name] = s.line;
    }
    out.insert(out.end(), set.begin(), set.end());
    return out;
}

std::string with_rules_origin(const std::string& message) {
    std::lock_guard lock(g_mu);
    for (const auto& [name, line] : g_origin)
        if (message.find(" " + name + "='") != std::string::npos ||
            message.find(": " + name + "='") != std::string::npos)
            return g_path + ":" + std::to_string(line) + ": " + message;
    return message;
}

void forget_rules_origins() {
    std::lock_guard lock(g_mu);
    g_origin.clear();
    g_path.clear();
}

std::string rules_file_text(const GameEntry& game, const Settings& settings) {
    std::string out = "# odds rules " + std::string(game.name) + ": " + std::string(game.title) +
                      ", rules version " + std::string(game.rules_version) + ".\n";
    out += comment(
        "Every rule option of the game with its value (the rule book's, unless --set changed it), "
        "its ruling and what it means. Edit a value and give the file to any command that takes "
        "--set with --rules FILE; --set applies on top of it. The value syntax is in "
        "docs/variants.md.");
    // Options without a group first (TOML wants them before any table), then each group.
    std::vector<std::string> groups{""};
    for (const auto& o : game.options) {
        const auto dot = o.name.find('.');
        const std::string g = dot == std::string::npos ? "" : o.name.substr(0, dot);
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    }
    // The values as the game reads them back (hull=0100 is written 100, and swap_homes=0, the
    // book's false, is no change), so the file reads back as what was set (issue 40).
    const Settings canonical = game.canonical(settings);
    for (const auto& g : groups) {
        if (!g.empty()) {
            out += "\n[";
            out += g;
            out += "]\n";
        }
        for (const auto& o : game.options) {
            const auto dot = o.name.find('.');
            const std::string og = dot == std::string::npos ? "" : o.name.substr(0, dot);
            if (og != g) continue;
            std::string value = o.default_value;
            for (const auto& [n, v] : canonical)
                if (n == o.name) value = v;
            out += '\n';
            out +=
                comment(o.help + (value != o.default_value ? " Rule book: " + o.default_value + "."
                                                           : std::string()));
            const std::string key = g.empty() ? o.name : o.name.substr(dot + 1);
            out += key + " = " + toml_value(o, value) + '\n';
        }
    }
    return out;
}

}  // namespace odds::sim
