#include "sim/targets_file.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <vector>

#include "reports/chars.hpp"

namespace odds::sim {

std::optional<double> parse_number(std::string_view s) {
    const auto v = text_double(s);
    if (!v || !std::isfinite(*v)) return std::nullopt;
    return v;
}

// METRIC [pXX] at least V | at most V | within A..B [margin M], after the word `target`.
Target parse_target(const LineReader& in) {
    static const std::string kForm =
        " (valid: target METRIC [pXX] at least V | at most V | within A..B [margin M])";
    Target t;
    t.text = in.rest(1);
    t.line = in.line();
    const std::vector<std::string> words(in.words().begin() + 1, in.words().end());
    const auto bad = [&](const std::string& why) {
        return LineReader::error_at(in.file(), t.line, "target '" + t.text + "': " + why + kForm);
    };
    std::size_t i = 0;
    if (words.empty()) throw bad("empty");
    t.metric = words[i++];
    if (i < words.size() && words[i].size() >= 2 && words[i][0] == 'p' &&
        std::isdigit(static_cast<unsigned char>(words[i][1]))) {
        const auto q = parse_integer(words[i].substr(1), 1, 99);
        if (!q) throw bad("'" + words[i] + "' is not a percentile p1..p99");
        t.quantile = static_cast<int>(*q);
        ++i;
    }
    const auto number = [&](const std::string& w) {
        const auto v = parse_number(w);
        if (!v) throw bad("'" + w + "' is not a number");
        return *v;
    };
    if (i + 2 < words.size() && words[i] == "at" &&
        (words[i + 1] == "least" || words[i + 1] == "most")) {
        t.kind = words[i + 1] == "least" ? TargetKind::at_least : TargetKind::at_most;
        t.a = number(words[i + 2]);
        i += 3;
    } else if (i + 1 < words.size() && words[i] == "within") {
        const std::string& r = words[i + 1];
        const auto dots = r.find("..");
        if (dots == std::string::npos) throw bad("'" + r + "' is not A..B");
        t.kind = TargetKind::within;
        t.a = number(r.substr(0, dots));
        t.b = number(r.substr(dots + 2));
        if (t.a > t.b) throw bad("A is above B in '" + r + "'");
        i += 2;
    } else {
        throw bad("no 'at least V', 'at most V' or 'within A..B'");
    }
    if (i + 1 < words.size() && words[i] == "margin") {
        const double m = number(words[i + 1]);
        if (m <= 0) throw bad("margin '" + words[i + 1] + "' is not a number > 0");
        t.margin = m;
        i += 2;
    }
    if (i != words.size()) throw bad("'" + words[i] + "' is not understood");
    if (t.quantile && (t.kind == TargetKind::within))
        throw bad("a percentile takes 'at least' or 'at most' (give two lines for a range)");
    return t;
}

}  // namespace odds::sim
