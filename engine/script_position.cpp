#include "engine/script_position.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "engine/rule_options.hpp"
#include "engine/script_bytes.hpp"
#include "engine/script_state.hpp"

namespace odds::script {

namespace {

using namespace bytes;

bool is_name(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}
bool is_word(std::string_view s) {
    for (char c : s)
        if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '#') return false;
    return true;
}
std::string number_text(double x) {
    char buf[32];
    if (x == std::floor(x) && std::abs(x) < 1e15)
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(x));
    else
        std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}

struct Writer {
    std::string_view b;
    const std::string& path;
    std::size_t at = 0;
    std::string out;
    [[noreturn]] void bad(const std::string& what) const {
        throw UsageError(path + ": the state cannot be written as a position: " + what);
    }
    // The value at `at`, under the key path `where`.
    void value(const std::string& where) {
        const char tag = b[at++];
        if (tag == '{') {
            const std::uint32_t n = size_at(b, at);
            if (n == 0 && !where.empty()) out += where + " {}\n";
            // The keys in a reader's order: whole numbers by value, then names alphabetically.
            struct Child {
                bool name;
                double number;
                std::string key, lines;
                bool operator<(const Child& o) const {
                    if (name != o.name) return !name;
                    return name ? key < o.key : number < o.number;
                }
            };
            std::vector<Child> children;
            std::string before = std::move(out);
            for (std::uint32_t i = 0; i < n; ++i) {
                Child c{true, 0, {}, {}};
                std::string& key = c.key;
                const char k = b[at++];
                if (k == 's') {
                    const std::uint32_t len = size_at(b, at);
                    key.assign(b.data() + at, len);
                    at += len;
                    if (!is_name(key)) bad("the key '" + key + "' at " + where + " is not a name");
                } else if (k == 'n') {
                    const double x = number_at(b, at);
                    if (x != std::floor(x) || std::abs(x) >= 1e15)
                        bad("a key at " + where + " is a number but not a whole one");
                    key = number_text(x);
                    c.name = false;
                    c.number = x;
                } else {
                    bad("a key at " + where + " is a boolean or a table");
                }
                out.clear();
                value(where.empty() ? key : where + "." + key);
                c.lines = std::move(out);
                children.push_back(std::move(c));
            }
            std::sort(children.begin(), children.end());
            out = std::move(before);
            for (const Child& c : children) out += c.lines;
            return;
        }
        out += where + ' ';
        if (tag == 'n') {
            out += number_text(number_at(b, at));
        } else if (tag == 't' || tag == 'f') {
            out += tag == 't' ? "true" : "false";
        } else {  // 's'
            const std::uint32_t len = size_at(b, at);
            const std::string_view s(b.data() + at, len);
            at += len;
            if (!is_word(s)) bad("the string at " + where + " is not one word");
            out += '"' + std::string(s) + '"';
        }
        out += '\n';
    }
};

// A table read from a position: each key's bytes to its value, a scalar's bytes or a table.
struct Node {
    std::string scalar;  // a value's bytes; empty for a table
    std::map<std::string, std::unique_ptr<Node>> keys;
    void write(std::string& out) const {
        if (!scalar.empty()) {
            out += scalar;
            return;
        }
        put_table(out, keys.size());
        for (const auto& [k, v] : keys) {
            out += k;
            v->write(out);
        }
    }
};
std::string number_bytes(double x) {
    std::string s;
    put_number(s, x);
    return s;
}
std::string string_bytes(std::string_view v) {
    std::string s;
    put_string(s, v);
    return s;
}
// A key's bytes: a whole number's, else a name's.
bool key_bytes(std::string_view segment, std::string& out) {
    if (is_name(segment)) {
        out = string_bytes(segment);
        return true;
    }
    if (segment.empty() || segment.size() > 15) return false;
    for (char c : segment)
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '-') return false;
    char* end = nullptr;
    const std::string s(segment);
    const long long v = std::strtoll(s.c_str(), &end, 10);
    if (*end != '\0' || number_text(static_cast<double>(v)) != s) return false;
    out = number_bytes(static_cast<double>(v));
    return true;
}
// A value's bytes, or empty when `word` is none (`{}` is an empty table: "{" and a count 0).
std::string value_bytes(std::string_view word) {
    if (word == "true") return "t";
    if (word == "false") return "f";
    if (word == "{}") {
        std::string empty;
        put_table(empty, 0);
        return empty;
    }
    if (word.size() >= 2 && word.front() == '"' && word.back() == '"') {
        const std::string_view s = word.substr(1, word.size() - 2);
        return is_word(s) ? string_bytes(s) : std::string();
    }
    const std::string s(word);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(x)) return {};
    return number_bytes(x);
}

}  // namespace

std::string position_text(std::string_view bytes, const std::string& path) {
    Writer w{bytes, path, 0, {}};
    w.value("");
    return "# " + path + ": the game's state, PATH VALUE a line (docs/positions.md)\n" + w.out;
}

std::string position_bytes(std::string_view text, std::string_view file) {
    Node root;
    std::size_t nodes = 0;
    const auto too_large = [&] {
        throw UsageError(std::string(file) + ": the position takes more than " +
                         std::to_string(kMaxStateBytes) + " bytes as a state");
    };
    int line_no = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        at = end + 1;
        ++line_no;
        const auto bad = [&](const std::string& what) {
            throw UsageError(std::string(file) + ":" + std::to_string(line_no) + ": " + what);
        };
        if (const auto hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        std::vector<std::string_view> words;
        for (std::size_t i = 0; i < line.size();) {
            while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
            const std::size_t from = i;
            while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
            if (i > from) words.push_back(line.substr(from, i - from));
        }
        if (words.empty()) continue;
        if (words.size() != 2)
            bad("a line of a script's position is 'PATH VALUE' (two words), not " +
                std::to_string(words.size()));
        const std::string value = value_bytes(words[1]);
        if (value.empty())
            bad("'" + std::string(words[1]) +
                "' is not a value: a number, true, false, \"a_word\" or {}");
        Node* node = &root;
        std::string_view path = words[0];
        if (std::count(path.begin(), path.end(), '.') >= kMaxStateDepth)
            bad("'" + std::string(path) + "' nests tables deeper than " +
                std::to_string(kMaxStateDepth));
        for (;;) {
            const std::size_t dot = path.find('.');
            const std::string_view segment = path.substr(0, dot);
            std::string key;
            if (!key_bytes(segment, key))
                bad("'" + std::string(segment) + "' in '" + std::string(words[0]) +
                    "' is not a key: a name or a whole number");
            if (!node->scalar.empty())
                bad("'" + std::string(words[0]) + "' is inside a value, not a table");
            auto& next = node->keys[key];
            // A key and its value take at least 7 bytes of the state's kMaxStateBytes: a longer
            // position is refused as it is read, its tree never larger than that allows.
            if (!next && ++nodes > kMaxStateBytes / 7) too_large();
            if (!next) next = std::make_unique<Node>();
            node = next.get();
            if (dot == std::string_view::npos) break;
            path = path.substr(dot + 1);
        }
        if (!node->scalar.empty() || !node->keys.empty())
            bad("'" + std::string(words[0]) + "' is given twice, or is a table");
        node->scalar = value;
    }
    std::string out;
    root.write(out);
    if (out.size() > kMaxStateBytes) too_large();
    return out;
}

}  // namespace odds::script
