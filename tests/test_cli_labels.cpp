// Labels that say what the numbers are, and the reference odds gives of itself (issue 21): exact
// bounds, every pairing's scenario, the progress line, odds list's metrics and JSON, compare's
// ranking and risk table.
#include <unistd.h>

#include <boost/tokenizer.hpp>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "reports/check_report.hpp"
#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/cli/common.hpp"
#include "sim/progress.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

fs::path temp(const std::string& name) {
    const fs::path p =
        fs::temp_directory_path() / ("odds-labels-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(p);
    return p;
}

// A CSV file as rows of named cells.
struct Csv {
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
};

Csv parse_csv(const std::string& text) {
    Csv csv;
    std::istringstream in(text);
    std::string line;
    using Tokens = boost::tokenizer<boost::escaped_list_separator<char>>;
    for (bool first = true; std::getline(in, line); first = false) {
        const Tokens tokens(line, boost::escaped_list_separator<char>('\\', ',', '"'));
        std::vector<std::string> cells(tokens.begin(), tokens.end());
        if (first) {
            csv.header = cells;
            continue;
        }
        REQUIRE(cells.size() == csv.header.size());
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < cells.size(); ++i) row[csv.header[i]] = cells[i];
        csv.rows.push_back(std::move(row));
    }
    return csv;
}

const std::map<std::string, std::string>& row_of(const Csv& csv, const std::string& metric) {
    for (const auto& r : csv.rows)
        if (r.at("metric") == metric) return r;
    FAIL("no row for " << metric);
    return csv.rows.front();
}

// The table line of `metric`.
std::string table_line(const std::string& table, const std::string& metric) {
    std::istringstream in(table);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(metric + " ", 0) == 0) return line;
    return {};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Exact results with unresolved mass: bounds, not a mean and a confidence interval.

TEST_CASE("exact with unresolved mass: the mean is empty, its bounds in mean_low and mean_high",
          "[cli][exact][labels]") {
    const auto dir = temp("exact");
    const auto r = test::cli({"exact", "bosconian", "--out", dir.string()});
    REQUIRE(r.code == 0);
    const Csv csv = parse_csv(test::slurp(dir / "summary.csv"));
    REQUIRE(csv.header.size() >= 3);
    CHECK(csv.header[csv.header.size() - 3] == "unresolved");  // the new columns come last
    CHECK(csv.header[csv.header.size() - 2] == "mean_low");
    CHECK(csv.header[csv.header.size() - 1] == "mean_high");
    for (const char* m : {"win", "damage", "sectors_entered"}) {  // the random layout's wrap
        INFO(m);
        const auto& row = row_of(csv, m);
        CHECK(std::stod(row.at("unresolved")) > 0);
        CHECK(row.at("mean").empty());  // not known: not a lower bound dressed as a mean
        CHECK(std::stod(row.at("mean_low")) < std::stod(row.at("mean_high")));
        CHECK(row.at("mean_low") == row.at("ci_low"));
        CHECK(row.at("mean_high") == row.at("ci_high"));
    }
    // Fully resolved: the mean, and bounds equal to it.
    const auto& placed = row_of(csv, "bases_placed");
    CHECK(placed.at("unresolved") == "0");
    CHECK_FALSE(placed.at("mean").empty());
    CHECK(placed.at("mean_low") == placed.at("mean"));
    CHECK(placed.at("mean_high") == placed.at("mean"));
    // The table heads the column as bounds, and shows the unknown mean as "?".
    CHECK(r.out.find("95% CI") == std::string::npos);
    CHECK(r.out.find("bounds") != std::string::npos);
    const std::string win = table_line(r.out, "win");
    REQUIRE_FALSE(win.empty());
    CHECK(win.substr(18, 11) == "          ?");
    CHECK(table_line(r.out, "bases_placed").find("7.000000") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("Monte Carlo summaries keep every byte, the bound columns left empty at the end",
          "[cli][labels][reports]") {
    Summary s;
    s.metric = "win";
    s.kind = MetricKind::rate;
    s.n = 4;
    s.mean = 0.5;
    s.stddev = 0.5;
    s.ci = {0.25, 0.75};
    s.max = 1;
    s.p50 = 1;
    const RunInfo mc{"g", "a=1", "p", 7, 4, false, false};
    CHECK(summary_csv(mc, {s}) ==
          "game,scenario,policy,seed,playouts,metric,mean,stddev,ci_low,ci_high,min,p05,p25,p50,"
          "p75,p95,max,skewness,method,status,unresolved,mean_low,mean_high\n"
          "g,a=1,p,7,4,win,0.5,0.5,0.25,0.75,0,0,0,1,0,0,1,0,monte_carlo,complete,,,\n");
    std::ostringstream table;
    print_table(table, mc, {s});
    CHECK(table.str().find("95% CI") != std::string::npos);
    CHECK(table.str().find("bounds") == std::string::npos);
    // The same row, exact: the bounds filled in.
    const RunInfo ex{"g", "a=1", "p", 0, 0, true, false};
    s.ci = {0.5, 0.5};
    CHECK(summary_csv(ex, {s}).find(",exact,complete,0,0.5,0.5\n") != std::string::npos);
}

TEST_CASE("the exact balance row of a game with unresolved mass is bounded, its mean unknown",
          "[reports][labels]") {
    Summary a, b;
    a.metric = "a_win";
    b.metric = "b_win";
    a.mean = b.mean = std::nan("");
    a.ci = {0.5, 0.6};  // 0.1 unresolved
    b.ci = {0.3, 0.4};
    a.unresolved = b.unresolved = 0.1;
    const auto bal = balance_row({a, b}, "a_win", "b_win", 0, true);
    REQUIRE(bal);
    CHECK(std::isnan(bal->mean));
    CHECK(bal->bounded());
    CHECK(bal->ci.low == Approx(1 - 0.3));   // a 0.6, b 0.3
    CHECK(bal->ci.high == Approx(1 - 0.1));  // a 0.5, b 0.4
    // Bounds that allow an even game reach 1.
    b.ci = {0.45, 0.55};
    CHECK(balance_row({a, b}, "a_win", "b_win", 0, true)->ci.high == Approx(1.0));
}

// ---------------------------------------------------------------------------------------------
// Tournaments (and comparisons) describe every pairing's scenario, not the first one's.

TEST_CASE("common_scenario: the words every scenario shares; scenario_rest: the others",
          "[cli][labels]") {
    CHECK(cli::common_scenario({"a=1 b=2 ships=X/Y", "a=1 b=2 ships=Y/X", "a=1 b=2 ships=X/X"}) ==
          "a=1 b=2");
    CHECK(cli::common_scenario({"a=1 b=2"}) == "a=1 b=2");
    CHECK(cli::common_scenario({}).empty());
    CHECK(cli::scenario_rest("a=1 b=2 ships=X/Y", "a=1 b=2") == "ships=X/Y");
    CHECK(cli::scenario_rest("a=1", "a=1").empty());
}

TEST_CASE("a tournament's header and ratings.csv describe every pairing's ships",
          "[cli][tournament][labels]") {
    const auto dir = temp("tournament");
    const std::vector<std::string> names = {"balanced/strike", "turtle/strike", "fast/strike"};
    const auto r =
        test::cli({"tournament", "msc", "--policy", names[0], "--policy", names[1], "--policy",
                   names[2], "-n", "3", "--no-progress", "--out", dir.string()});
    REQUIRE(r.code == 0);
    const auto& msc = find_game("msc");
    auto prepared = [&](const std::string& a, const std::string& b) {
        return msc.prepare({}, {"a=" + a, "b=" + b});
    };
    // The header: only what every pairing shares; then each policy's ships in each seat.
    const std::string header = r.out.substr(0, r.out.find('\n'));
    CHECK(header.find("ships=") == std::string::npos);
    CHECK(header.find("map=example budget=525") != std::string::npos);
    for (const auto& n : names) {
        const auto as_a = prepared(n, n)->seat_scenario[0], as_b = prepared(n, n)->seat_scenario[1];
        INFO(n << ": " << as_a << " " << as_b);
        CHECK(r.out.find("  " + n + " ") != std::string::npos);
        CHECK(r.out.find(as_a + " " + as_b + "\n") != std::string::npos);
    }
    CHECK(prepared(names[0], names[0])->seat_scenario !=
          prepared(names[1], names[1])->seat_scenario);
    // ratings.csv: the shared scenario, and each policy's own part in policy_scenario.
    const Csv ratings = parse_csv(test::slurp(dir / "ratings.csv"));
    // policy_scenario keeps its place after status; points came after it.
    REQUIRE(ratings.header.size() >= 2);
    CHECK(ratings.header[ratings.header.size() - 2] == "policy_scenario");
    CHECK(ratings.header.back() == "points");
    REQUIRE(ratings.rows.size() == names.size());
    for (const auto& row : ratings.rows) {
        CHECK(row.at("scenario").find("ships=") == std::string::npos);
        const auto p = prepared(row.at("policy"), row.at("policy"));
        CHECK(row.at("policy_scenario") == p->seat_scenario[0] + " " + p->seat_scenario[1]);
    }
    // tournament.csv: each pairing's own whole scenario.
    const Csv pairings = parse_csv(test::slurp(dir / "tournament.csv"));
    CHECK(pairings.rows.size() == 3 * 6);
    for (const auto& row : pairings.rows)
        CHECK(row.at("scenario") ==
              prepared(row.at("first_policy"), row.at("second_policy"))->scenario);
    fs::remove_all(dir);

    // A game whose policies decide nothing of the scenario: the whole scenario, policy_scenario
    // empty.
    const auto naval_dir = temp("tournament-naval");
    const auto n = test::cli({"tournament", "naval", "--policy", "gunner", "--policy", "boarder",
                              "-n", "2", "--no-progress", "--out", naval_dir.string()});
    REQUIRE(n.code == 0);
    const std::string scenario = find_game("naval").prepare({}, {})->scenario;
    CHECK(n.out.rfind("naval tournament | " + scenario + " | seed 1", 0) == 0);
    CHECK(n.out.find("part of its pairings' scenarios") == std::string::npos);
    for (const auto& row : parse_csv(test::slurp(naval_dir / "ratings.csv")).rows) {
        CHECK(row.at("scenario") == scenario);
        CHECK(row.at("policy_scenario").empty());
    }
    fs::remove_all(naval_dir);
}

TEST_CASE("a comparison's header shows the shared scenario and each policy's own part",
          "[cli][compare][labels]") {
    const auto r =
        test::cli({"compare", "msc", "--policy", "a=balanced/strike", "--policy", "a=turtle/strike",
                   "--fixed", "b=fast/strike", "-n", "2", "--no-progress"});
    REQUIRE(r.code == 0);
    CHECK(r.out.substr(0, r.out.find('\n')).find("ships=") == std::string::npos);
    for (const char* a : {"balanced/strike", "turtle/strike"}) {
        const auto p = find_game("msc").prepare({}, {std::string("a=") + a, "b=fast/strike"});
        const std::string ships = p->scenario.substr(p->scenario.find("ships="));
        CHECK(r.out.find(p->policy + " ") != std::string::npos);
        CHECK(r.out.find(ships + "\n") != std::string::npos);
    }
}

// ---------------------------------------------------------------------------------------------
// The progress line: games counted, pairings weighted by cost, no wild guess in the first moments.

TEST_CASE("progress line: the rate and time left wait for a few percent or a second",
          "[progress][labels]") {
    ProgressView v;
    v.total = 1000;
    v.unit = "games";
    // Nothing done yet, however long it has been: no rate, no time left.
    v.seconds = 30;
    CHECK(progress_line(v) ==
          "[..............................]   0.0%  0/1.00k games  estimating...");
    // Under 3% and under a second: still estimating.
    v.done = 10;
    v.seconds = 0.5;
    CHECK(progress_line(v).find("estimating...") != std::string::npos);
    CHECK(progress_line(v).find("ETA") == std::string::npos);
    // 5% in 0.6 s: 83 games/s, and 11.4 s left.
    v.done = 50;
    v.seconds = 0.6;
    CHECK(progress_line(v) ==
          "[#.............................]   5.0%  50/1.00k games  83 games/s  ETA 0:00:11");
    // A second has passed: known, even at 0.1%.
    v.done = 1;
    v.seconds = 2;
    CHECK(progress_line(v).find("ETA 0:33:18") != std::string::npos);  // 2 s x 999
    // Done: nothing left.
    v.done = 1000;
    CHECK(progress_line(v).find("ETA 0:00:00") != std::string::npos);
}

TEST_CASE("progress line: the bar and the time left follow the weighted work, the count the games",
          "[progress][labels]") {
    ProgressView v;
    v.total = 2000;
    v.done = 500;  // a quarter of the games, but only a tenth of the work
    v.work = 0.1;
    v.seconds = 10;
    v.unit = "games";
    CHECK(progress_line(v) ==
          "[###...........................]  10.0%  500/2.00k games  50 games/s  ETA 0:01:30");
    v.unit = "playouts";
    v.work = -1;  // unweighted: done / total
    CHECK(
        progress_line(v) ==
        "[#######.......................]  25.0%  500/2.00k playouts  50 playouts/s  ETA 0:00:30");
}

TEST_CASE("weighted work: pairings weigh by their cost a game", "[progress][labels]") {
    const std::vector<std::uint64_t> games = {100, 100, 100};
    const std::vector<double> cost = {1, 9, 10};  // a cheap pairing, then two rollout ones
    CHECK(weighted_work(cost, games, 0, 0) == 0);
    CHECK(weighted_work(cost, games, 0, 100) == Approx(0.05));
    CHECK(weighted_work(cost, games, 1, 50) == Approx((100 + 450) / 2000.0));
    CHECK(weighted_work(cost, games, 3, 0) == Approx(1));
    // Without costs (or with an unknown one) every game counts alike.
    CHECK(weighted_work({}, games, 1, 50) == Approx(150 / 300.0));
    CHECK(weighted_work(std::vector<double>{1, 0, 1}, games, 1, 50) == Approx(150 / 300.0));
}

// ---------------------------------------------------------------------------------------------
// odds list: the metrics, and everything as JSON.

namespace {

// A JSON value, parsed strictly (RFC 8259): any malformed text fails the test.
struct Json {
    enum Kind { null, boolean, number, string, array, object } kind = null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<Json> items;        // array
    std::vector<std::string> keys;  // object, in order
    std::vector<Json> values;

    const Json& operator[](const std::string& key) const {
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key) return values[i];
        FAIL("no key " << key);
        return *this;
    }
    bool has(const std::string& key) const {
        return std::find(keys.begin(), keys.end(), key) != keys.end();
    }
};

class JsonParser {
public:
    explicit JsonParser(const std::string& text) : t_(text) {}
    Json document() {
        Json v = value();
        space();
        if (at_ != t_.size()) fail("text after the document");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error("JSON: " + why + " at byte " + std::to_string(at_));
    }
    void space() {
        while (at_ < t_.size() &&
               (t_[at_] == ' ' || t_[at_] == '\n' || t_[at_] == '\r' || t_[at_] == '\t'))
            ++at_;
    }
    char next() {
        if (at_ >= t_.size()) fail("unexpected end");
        return t_[at_++];
    }
    void expect(const std::string& word) {
        if (t_.compare(at_, word.size(), word) != 0) fail("expected " + word);
        at_ += word.size();
    }
    Json value() {
        space();
        if (at_ >= t_.size()) fail("unexpected end");
        Json v;
        const char c = t_[at_];
        if (c == '{') {
            v.kind = Json::object;
            ++at_;
            space();
            if (t_[at_] == '}') {
                ++at_;
                return v;
            }
            for (;;) {
                space();
                if (t_[at_] != '"') fail("expected a key");
                v.keys.push_back(string_body());
                space();
                if (next() != ':') fail("expected ':'");
                v.values.push_back(value());
                space();
                const char d = next();
                if (d == '}') return v;
                if (d != ',') fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.kind = Json::array;
            ++at_;
            space();
            if (t_[at_] == ']') {
                ++at_;
                return v;
            }
            for (;;) {
                v.items.push_back(value());
                space();
                const char d = next();
                if (d == ']') return v;
                if (d != ',') fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.kind = Json::string;
            v.str = string_body();
            return v;
        }
        if (c == 't') {
            expect("true");
            v.kind = Json::boolean;
            v.b = true;
            return v;
        }
        if (c == 'f') {
            expect("false");
            v.kind = Json::boolean;
            return v;
        }
        if (c == 'n') {
            expect("null");
            return v;
        }
        // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
        const std::size_t start = at_;
        if (t_[at_] == '-') ++at_;
        const auto digits = [&] {
            const std::size_t from = at_;
            while (at_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[at_]))) ++at_;
            if (at_ == from) fail("expected a digit");
        };
        if (at_ < t_.size() && t_[at_] == '0')
            ++at_;
        else
            digits();
        if (at_ < t_.size() && t_[at_] == '.') {
            ++at_;
            digits();
        }
        if (at_ < t_.size() && (t_[at_] == 'e' || t_[at_] == 'E')) {
            ++at_;
            if (at_ < t_.size() && (t_[at_] == '+' || t_[at_] == '-')) ++at_;
            digits();
        }
        v.kind = Json::number;
        v.num = std::stod(t_.substr(start, at_ - start));
        return v;
    }
    std::string string_body() {
        if (next() != '"') fail("expected '\"'");
        std::string s;
        for (;;) {
            const char c = next();
            if (c == '"') return s;
            if (static_cast<unsigned char>(c) < 0x20) fail("a raw control character in a string");
            if (c != '\\') {
                s += c;
                continue;
            }
            const char e = next();
            switch (e) {
                case '"':
                    s += '"';
                    break;
                case '\\':
                    s += '\\';
                    break;
                case '/':
                    s += '/';
                    break;
                case 'b':
                    s += '\b';
                    break;
                case 'f':
                    s += '\f';
                    break;
                case 'n':
                    s += '\n';
                    break;
                case 'r':
                    s += '\r';
                    break;
                case 't':
                    s += '\t';
                    break;
                case 'u': {
                    if (at_ + 4 > t_.size()) fail("short \\u escape");
                    const unsigned cp =
                        static_cast<unsigned>(std::stoul(t_.substr(at_, 4), nullptr, 16));
                    at_ += 4;
                    if (cp >= 0x80) fail("only ASCII \\u escapes are expected");
                    s += static_cast<char>(cp);
                    break;
                }
                default:
                    fail(std::string("bad escape \\") + e);
            }
        }
    }
    const std::string& t_;
    std::size_t at_ = 0;
};

Json parse_json(const std::string& text) { return JsonParser(text).document(); }

}  // namespace

TEST_CASE("json_string escapes what JSON requires and nothing else", "[cli][list][labels]") {
    const std::string nasty =
        "a \"quoted\" back\\slash, a\nnew line, a\ttab, \x01, caf\xc3\xa9 / done";
    const std::string quoted = json_string(nasty);
    CHECK(quoted ==
          "\"a \\\"quoted\\\" back\\\\slash, a\\nnew line, a\\ttab, \\u0001, caf\xc3\xa9 / done\"");
    CHECK(parse_json(quoted).str == nasty);
    CHECK(json_number(0.5) == "0.5");
    CHECK(json_number(std::nan("")) == "null");
}

TEST_CASE("odds list --json names every game, policy, option and metric the registry has",
          "[cli][list][labels]") {
    const auto r = test::cli({"list", "--json"});
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    Json doc;
    REQUIRE_NOTHROW(doc = parse_json(r.out));
    REQUIRE(doc.kind == Json::object);
    CHECK(doc["odds_version"].str == ODDS_VERSION_EXPECTED);
    const Json& listed = doc["games"];
    // Every game: the kernels, then the engine's scripted games (risk).
    const auto all = listed_games();
    REQUIRE(listed.items.size() == all.size());
    for (std::size_t gi = 0; gi < all.size(); ++gi) {
        const GameEntry& g = all[gi];
        const Json& j = listed.items[gi];
        INFO(g.name);
        CHECK(j["name"].str == g.name);
        CHECK(j["title"].str == g.title);
        CHECK(j["summary"].str == g.summary);
        CHECK(j["rules_version"].str == g.rules_version);
        const auto& seats = g.seats;
        REQUIRE(j["seats"].items.size() == seats.size());
        for (std::size_t i = 0; i < seats.size(); ++i) CHECK(j["seats"].items[i].str == seats[i]);
        REQUIRE(j["policies"].items.size() == g.policies.size());
        for (std::size_t i = 0; i < g.policies.size(); ++i) {
            CHECK(j["policies"].items[i]["name"].str == g.policies[i].name);
            CHECK(j["policies"].items[i]["help"].str == g.policies[i].help);
        }
        REQUIRE(j["options"].items.size() == g.options.size());
        for (std::size_t i = 0; i < g.options.size(); ++i) {
            const Json& o = j["options"].items[i];
            CHECK(o["name"].str == g.options[i].name);
            CHECK(o["default"].str == g.options[i].default_value);
            CHECK(o["help"].str == g.options[i].help);
            CHECK(o["comma_list"].b == g.options[i].comma_list);
        }
        const auto defaults = g.prepare({}, {});
        REQUIRE(j["metrics"].items.size() == defaults->metrics.size());
        for (std::size_t i = 0; i < defaults->metrics.size(); ++i) {
            const MetricSpec& m = defaults->metrics[i];
            const Json& x = j["metrics"].items[i];
            CHECK(x["name"].str == m.name);
            CHECK(x["help"].str == m.help);
            CHECK(x["kind"].str == (m.kind == MetricKind::rate ? "rate" : "count"));
            CHECK(x["min"].num == static_cast<double>(m.lo) / m.scale);
            CHECK(x["max"].num == static_cast<double>(m.hi) / m.scale);
            CHECK(x["step"].num == 1.0 / m.scale);
        }
        for (const auto& h : g.headline) {
            bool found = false;
            for (const auto& x : j["headline"].items) found = found || x.str == h;
            CHECK(found);
        }
        REQUIRE(j["survival"].items.size() == defaults->survivals.size());
        for (std::size_t i = 0; i < defaults->survivals.size(); ++i)
            CHECK(j["survival"].items[i]["event_words"].str == defaults->survivals[i].event_words);
        if (g.exact) {
            REQUIRE(j["exact_solver"].kind == Json::object);
            CHECK(j["exact_solver"]["limits"].str == g.exact_limits);
        } else {
            CHECK(j["exact_solver"].kind == Json::null);
        }
    }
    // One game: the same entry alone.
    const auto one = test::cli({"list", "naval", "--json"});
    REQUIRE(one.code == 0);
    const Json naval = parse_json(one.out);
    REQUIRE(naval["games"].items.size() == 1);
    CHECK(naval["games"].items[0]["name"].str == "naval");
    CHECK(test::cli({"list", "navel", "--json"}).code == 2);
}

TEST_CASE("odds list GAME lists each metric with its kind, range and help", "[cli][list][labels]") {
    for (const auto& g : games()) {
        const auto r = test::cli({"list", std::string(g.name)});
        REQUIRE(r.code == 0);
        INFO(g.name);
        const auto at = r.out.find("  metrics (");
        REQUIRE(at != std::string::npos);
        std::istringstream lines(r.out.substr(at));
        std::string line;
        std::getline(lines, line);  // the heading
        const auto defaults = g.prepare({}, {});
        for (const auto& m : defaults->metrics) {
            REQUIRE(std::getline(lines, line));
            INFO(line);
            CHECK(line.rfind("    " + m.name + " ", 0) == 0);
            const std::string range =
                m.kind == MetricKind::rate
                    ? "rate, 0 or 1"
                    : format_double(static_cast<double>(m.lo) / m.scale) + ".." +
                          format_double(static_cast<double>(m.hi) / m.scale) + " " + m.unit;
            // Every count says its unit (engine/metric.hpp's counts(UNIT)).
            CHECK((m.kind == MetricKind::rate) == m.unit.empty());
            CHECK(line.find(" " + range) != std::string::npos);
            CHECK(line.size() >= m.help.size());
            CHECK(line.compare(line.size() - m.help.size(), m.help.size(), m.help) == 0);
        }
    }
    // The ranges are the declarations' at the default options: the hull caps the damage.
    const std::string bosconian = test::cli({"list", "bosconian"}).out;
    CHECK(bosconian.find(" 0..100 hull points     the ship's damage at the end") !=
          std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// compare: --rank-by, --metrics, and policies.csv.

TEST_CASE(
    "compare --rank-by and --metrics: a name that is not a metric is refused, nothing written",
    "[cli][compare][labels]") {
    const auto dir = temp("compare-bad");
    struct Case {
        std::vector<std::string> extra;
        const char* says;
    };
    const Case cases[] = {
        {{"--rank-by", "kiled"},
         "--rank-by 'kiled' is not a metric of fpb (did you mean 'killed'?) (valid: withdrawn, "},
        {{"--metrics", "clean,kiled"},
         "--metrics 'kiled' is not a metric of fpb (did you mean 'killed'?)"},
        {{"--metrics", "clean,,lost"}, "--metrics 'clean,,lost': an empty name"},
        {{"--metrics", "clean,lost,clean"}, "--metrics 'clean,lost,clean' names 'clean' twice"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args = {"compare",       "fpb",    "--policy",  "bug-out",
                                         "--policy",      "random", "-n",        "100",
                                         "--no-progress", "--out",  dir.string()};
        args.insert(args.end(), c.extra.begin(), c.extra.end());
        const auto r = test::cli(args);
        test::check_refused(r, c.says, dir);
    }
}

TEST_CASE("compare: ranked by any metric, the table's columns chosen, every policy in policies.csv",
          "[cli][compare][labels]") {
    const auto dir = temp("compare");
    const std::vector<std::string> policies = {"bug-out", "random", "lead-from-front"};
    const auto r =
        test::cli({"compare", "fpb", "--policy", policies[0], "--policy", policies[1], "--policy",
                   policies[2], "-n", "2000", "--no-progress", "--rank-by", "killed", "--metrics",
                   "icecube_rescued,clean,costly,lost,killed,squad_hit", "--out", dir.string()});
    REQUIRE(r.code == 0);
    // The table: the chosen columns, in order, and the difference from #1 on the ranking metric.
    std::istringstream lines(r.out);
    std::string header_line, columns;
    std::getline(lines, header_line);
    std::getline(lines, columns);
    std::istringstream words(columns);
    std::vector<std::string> heads;
    for (std::string w; words >> w;) heads.push_back(w);
    CHECK(heads == std::vector<std::string>{"rank", "policy", "icecube_rescued", "clean", "costly",
                                            "lost", "killed", "squad_hit", "vs", "#1", "on",
                                            "killed"});
    // policies.csv: one row per policy and metric, ranked by killed (highest first).
    const Csv csv = parse_csv(test::slurp(dir / "policies.csv"));
    CHECK(csv.header == std::vector<std::string>{"game", "scenario", "seed", "playouts", "policy",
                                                 "rank", "ranked_by", "metric", "mean", "ci_low",
                                                 "ci_high", "stddev", "status"});
    const std::size_t metrics = find_game("fpb").prepare({}, {})->metrics.size();
    REQUIRE(csv.rows.size() == policies.size() * metrics);
    double last_killed = 1e9;
    for (std::size_t i = 0; i < csv.rows.size(); ++i) {
        const auto& row = csv.rows[i];
        CHECK(row.at("rank") == std::to_string(i / metrics + 1));
        CHECK(row.at("ranked_by") == "killed");
        CHECK(row.at("playouts") == "2000");
        if (row.at("metric") == "killed") {
            CHECK(std::stod(row.at("mean")) <= last_killed);
            last_killed = std::stod(row.at("mean"));
        }
        // The same figures as the policy's own summary.csv.
        const Csv summary = parse_csv(test::slurp(dir / row.at("policy") / "summary.csv"));
        const auto& s = row_of(summary, row.at("metric"));
        for (const char* c : {"mean", "ci_low", "ci_high", "stddev"}) CHECK(row.at(c) == s.at(c));
    }
    // The table's rows follow the ranking.
    CHECK(r.out.find("1    " + csv.rows[0].at("policy")) != std::string::npos);
    // compare.csv: every pair on the headline metrics, and on the table's others (squad_hit).
    const Csv pairs = parse_csv(test::slurp(dir / "compare.csv"));
    const auto& headline = find_game("fpb").headline;
    CHECK(pairs.rows.size() == 3 * (headline.size() + 1));
    CHECK(std::count_if(pairs.rows.begin(), pairs.rows.end(),
                        [](const auto& x) { return x.at("metric") == "squad_hit"; }) == 3);
    fs::remove_all(dir);

    // By default: ranked by the first headline metric, its first four headline metrics shown.
    const auto d = test::cli({"compare", "fpb", "--policy", "bug-out", "--policy", "random", "-n",
                              "500", "--no-progress"});
    REQUIRE(d.code == 0);
    CHECK(d.out.find(
              "withdrawn                 wounded_withdrawn         left_behind               killed"
              "                    vs #1 on withdrawn") != std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// docs/output.md: every file every command writes, every column, every game's survival steps.

TEST_CASE("docs/output.md names every file every command writes and every column or field in it",
          "[cli][docs][labels]") {
    const std::string doc = test::slurp(fs::path(ODDS_SOURCE_DIR) / "docs" / "output.md");
    REQUIRE_FALSE(doc.empty());
    const auto dir = temp("docs");
    const std::vector<std::vector<std::string>> commands = {
        {"run", "fpb", "-n", "200", "--out", (dir / "run").string()},
        {"exact", "bosconian", "--set", "layout=4,9,15", "--out", (dir / "exact").string()},
        {"compare", "fpb", "--policy", "bug-out", "--policy", "random", "-n", "200", "--out",
         (dir / "compare").string()},
        {"tournament", "naval", "--policy", "gunner", "--policy", "boarder", "-n", "2", "--out",
         (dir / "tournament").string()},
        {"sweep", "bosconian", "--vary", "hull=90,100", "-n", "1000", "--out",
         (dir / "sweep").string()},
        {"baseline", "bosconian", "-n", "1000", "--out",
         (dir / "baseline" / "b.baseline").string()},
        {"tune", "race", "--vary", "goal=10..20", "--target", "win=0.5", "--out",
         (dir / "tune").string()},
    };
    for (auto args : commands) {
        if (args[0] != "exact") args.push_back("--no-progress");
        const auto r = test::cli(args);
        INFO(args[0] << ": " << r.err);
        REQUIRE(r.code == 0);
    }
    // odds check's reports, of the baseline just written (statistically: other playouts).
    const auto check = test::cli(
        {"check", (dir / "baseline" / "b.baseline").string(), "-n", "500", "--no-progress",
         "--junit", (dir / "check" / "check.xml").string(), "--json",
         (dir / "check" / "check.json").string(), "--out", (dir / "check" / "out").string()});
    INFO(check.err);
    REQUIRE(check.code == 0);
    std::size_t files = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        ++files;
        const std::string name = e.path().filename().string();
        INFO(e.path().string());
        if (name == "check.json") {  // every field of the JSON report, at every depth
            std::vector<const Json*> todo = {nullptr};
            const Json report = parse_json(test::slurp(e.path()));
            todo.back() = &report;
            while (!todo.empty()) {
                const Json* j = todo.back();
                todo.pop_back();
                for (const auto& k : j->keys) {
                    INFO(k);
                    CHECK(doc.find("`" + k + "`") != std::string::npos);
                }
                for (const auto& v : j->values) todo.push_back(&v);
                for (const auto& v : j->items) todo.push_back(&v);
            }
            continue;
        }
        if (name == "check.xml") {  // its elements and properties
            const std::string xml = test::slurp(e.path());
            for (const char* element :
                 {"<testsuites", "<testsuite ", "<properties>", "<testcase", "<system-out>"})
                if (xml.find(element) != std::string::npos)
                    CHECK(doc.find(element) != std::string::npos);
            for (auto at = xml.find("<property name=\""); at != std::string::npos;
                 at = xml.find("<property name=\"", at + 1)) {
                const auto from = at + 16;
                const std::string property = xml.substr(from, xml.find('"', from) - from);
                INFO(property);
                CHECK(doc.find("`" + property + "`") != std::string::npos);
            }
            continue;
        }
        if (name == "best.toml") {  // tune's best setting, a variant file (docs/variants.md)
            CHECK(doc.find("`best.toml`") != std::string::npos);
            continue;
        }
        if (e.path().extension() != ".csv") {  // the baseline file: its records
            for (const char* record :
                 {"odds-baseline 1", "game ", "rules_version ", "set ", "policy ", "seed ",
                  "playouts ", "scenario ", "policies ", "metric NAME KIND"})
                CHECK(doc.find(record) != std::string::npos);
            continue;
        }
        CHECK(doc.find("`" + name + "`") != std::string::npos);
        const Csv csv = parse_csv(test::slurp(e.path()));
        for (const auto& column : csv.header) {
            if (name == "sweep.csv" && column == "hull") continue;  // a varied option's own column
            if (name == "tune.csv" && column == "goal") continue;
            INFO(column);
            CHECK(doc.find("`" + column + "`") != std::string::npos);
        }
    }
    // run, exact, compare (2 policies), tournament, sweep, baseline, tune (and its best.toml),
    // check's reports and its --out folder; every --out folder has its provenance.csv and
    // metrics.csv
    CHECK(files == 3 + 3 + 4 + 2 + 1 + 1 + 2 + 2 + 1 + 2 * 7);
    CHECK(doc.find("`<policy>/summary.csv`") != std::string::npos);
    // Every game's survival table: its time metric, its subjects, where its steps start; in the
    // table of docs/output.md, or (a game of the tests' own) on the game's rules page, in a row
    // of the same form.
    for (const auto& g : games()) {
        INFO(g.name);
        const auto run = g.prepare({}, {});
        std::string where = doc;
        if (doc.find("| `" + std::string(g.name) + "` |") == std::string::npos) {
            std::string folder(g.name);
            std::replace(folder.begin(), folder.end(), '-', '_');
            std::ifstream page(std::string(ODDS_SOURCE_DIR) + "/engine/" + folder + "/RULES.md");
            std::ostringstream text;
            text << page.rdbuf();
            where = text.str();
        }
        CHECK(where.find("| `" + std::string(g.name) + "` |") != std::string::npos);
        for (const auto& sv : run->survivals) {
            if (!sv.subject.empty()) CHECK(where.find("`" + sv.subject + "`") != std::string::npos);
            const std::string time = run->metrics[sv.time].name;
            if (sv.subject.empty() || sv.subject == "squad")
                CHECK(where.find("`" + time + "`") != std::string::npos);
        }
    }
    // The README points there rather than keeping its own copy of the columns.
    const std::string readme = test::slurp(fs::path(ODDS_SOURCE_DIR) / "README.md");
    CHECK(readme.find("(docs/output.md)") != std::string::npos);
    CHECK(readme.find("| `ci_low`, `ci_high` |") == std::string::npos);
    fs::remove_all(dir);
}
