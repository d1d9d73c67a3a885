#include "sim/baseline_file.hpp"

#include <algorithm>
#include <charconv>

#include "engine/line_reader.hpp"

namespace odds::sim {

namespace {

// A `metric NAME KIND MEAN CI_LOW CI_HIGH VALUE:COUNT...` record, its form checked.
BaselineMetric read_metric(const LineReader& in) {
    const auto& w = in.words();
    if (w.size() < 6)
        in.fail("a short metric line (metric NAME KIND MEAN CI_LOW CI_HIGH VALUE:COUNT...)");
    BaselineMetric m;
    m.line = in.line();
    m.name = w[1];
    m.kind = w[2];
    if (m.kind != "rate" && m.kind != "count")
        in.fail("metric " + m.name + ": kind '" + m.kind + "' (valid: rate, count)");
    for (const auto& [text, into] :
         {std::pair{w[3], &m.mean}, std::pair{w[4], &m.low}, std::pair{w[5], &m.high}}) {
        const auto v = parse_number(text);
        if (!v) in.fail("metric " + m.name + ": '" + std::string(text) + "' is not a number");
        *into = *v;
    }
    for (std::size_t i = 6; i < w.size(); ++i) {
        const std::string_view pair = w[i];
        const auto colon = pair.find(':');
        const auto v = colon == std::string_view::npos
                           ? std::nullopt
                           : parse_integer(pair.substr(0, colon), INT64_MIN, INT64_MAX);
        std::uint64_t c = 0;
        const char* first = pair.data() + (colon == std::string_view::npos ? 0 : colon + 1);
        const char* last = pair.data() + pair.size();
        const auto r = std::from_chars(first, last, c);
        if (!v || first == last || r.ec != std::errc{} || r.ptr != last)
            in.fail("metric " + m.name + ": '" + std::string(pair) +
                    "' is not VALUE:COUNT (whole numbers)");
        m.pairs.emplace_back(*v, c);
    }
    return m;
}

// A record of a baseline or targets file after its header: KEY REST on line n.
void read_record(LineReader& in, Baseline& b, bool& have_seed,
                 std::vector<std::tuple<std::string, double, int>>& tolerances) {
    const std::string key(in.word(0));
    const std::string rest(in.rest(1));
    const int n = in.line();
    if (key == "target") {
        if (!b.targets) in.fail("a target in a baseline (targets go in an odds-targets file)");
        b.goals.push_back(parse_target(in));
    } else if (b.targets && (key == "metric" || key == "tolerance" || key == "check" ||
                             key == "rules_version")) {
        // A targets file states what balance means under the rules as they are now: it names no
        // rules version (a baseline records the one it was played under).
        in.fail("'" + key + "' is a baseline's record, not a targets file's");
    } else if (key == "game") {
        b.game = rest;
        b.game_line = n;
    } else if (key == "rules_version") {
        b.rules_version = rest;
        b.rules_line = n;
    } else if (key == "set") {
        try {
            b.settings.push_back(split_setting(rest));
        } catch (const UsageError&) {
            in.fail("set '" + rest + "' is not NAME=VALUE");
        }
        b.set_lines.push_back(n);
    } else if (key == "policy") {
        if (rest.empty()) in.fail("a policy record without a policy");
        b.policies.push_back(rest);
        b.policy_lines.push_back(n);
    } else if (key == "seed") {
        std::uint64_t v = 0;
        const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), v);
        if (rest.empty() || r.ec != std::errc{} || r.ptr != rest.data() + rest.size())
            in.fail("seed '" + rest + "' is not a whole number from 0 to " +
                    std::to_string(~std::uint64_t{0}));
        b.seed = v;
        have_seed = true;
    } else if (key == "playouts") {
        const auto v = parse_count(rest);
        if (!v) in.fail("playouts '" + rest + "' is not a whole number from 1 to 1e12");
        b.playouts = *v;
        b.playouts_line = n;
    } else if (key == "metric") {
        b.metrics.push_back(read_metric(in));
    } else if (key == "tolerance") {
        const auto v = in.size() == 3 ? parse_number(in.word(2)) : std::nullopt;
        if (!v || *v < 0)
            in.fail("tolerance '" + rest +
                    "' is not METRIC X (X a number >= 0, in the metric's unit)");
        tolerances.emplace_back(std::string(in.word(1)), *v, n);
    } else if (key == "check") {
        if (rest != "sequential") in.fail("check '" + rest + "' (valid: check sequential)");
        b.sequential = true;
    } else if (key != "scenario" && key != "policies") {
        in.fail("unknown record '" + key + "'");
    }
}

// Each tolerance record given to its metric, once.
void apply_tolerances(LineReader& in, Baseline& b,
                      const std::vector<std::tuple<std::string, double, int>>& tolerances) {
    for (const auto& tolerance : tolerances) {
        const auto& [name, x, at] = tolerance;
        // (the name through the tuple: clang 14, the web build's, captures no binding)
        auto m = std::find_if(b.metrics.begin(), b.metrics.end(), [&](const BaselineMetric& bm) {
            return bm.name == std::get<0>(tolerance);
        });
        if (m == b.metrics.end())
            in.fail_at(at, "tolerance for '" + name + "', which no metric line records");
        if (m->tolerance)
            in.fail_at(at, "a second tolerance for " + name + " (the first is on line " +
                               std::to_string(m->tolerance_line) + ")");
        m->tolerance = x;
        m->tolerance_line = at;
    }
}

}  // namespace

Baseline read_baseline(const std::string& path) {
    const std::string text = read_input_file(path, "baseline");
    LineReader in(text, path, LineReader::Comments::first_word);
    Baseline b;
    b.file = path;
    bool header = false, have_seed = false;
    std::map<std::string, int> seen;  // records that appear once, by the line they are on
    std::vector<std::tuple<std::string, double, int>> tolerances;  // NAME X line, as read
    while (in.next()) {
        const std::string key(in.word(0));
        if (key == "odds-baseline" || key == "game" || key == "rules_version" || key == "seed" ||
            key == "playouts" || key == "scenario" || key == "policies") {
            if (const auto [at, fresh] = seen.emplace(key, in.line()); !fresh)
                in.fail("a second '" + key + "' record (the first is on line " +
                        std::to_string(at->second) + ")");
        }
        if (key == "odds-baseline" || key == "odds-targets") {
            const std::string rest(in.rest(1));
            if (rest != "1") in.fail("unknown format version '" + rest + "' (valid: 1)");
            if (header) in.fail("a second header");
            header = true;
            b.targets = key == "odds-targets";
        } else if (!header) {
            in.fail(
                "not an odds baseline or targets file (no 'odds-baseline 1' or "
                "'odds-targets 1' first line)");
        } else {
            read_record(in, b, have_seed, tolerances);
        }
    }
    if (!header) in.fail("empty or not an odds baseline");
    if (b.targets) {
        if (b.game.empty() || b.goals.empty()) in.fail("a targets file lacks its game or targets");
        if (!have_seed) b.seed = 1;
        if (b.playouts == 0) b.playouts = 1'000'000;
        return b;
    }
    if (b.game.empty() || b.rules_version.empty() || !have_seed || b.playouts == 0 ||
        b.metrics.empty())
        in.fail("a baseline lacks its game, rules_version, seed, playouts or metrics");
    apply_tolerances(in, b, tolerances);
    return b;
}

}  // namespace odds::sim
