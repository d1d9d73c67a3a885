// What `odds check` reads from a baseline file is input like any other: every value is checked
// against the game's declarations before anything is laid out or played, and a bad one is one
// line on stderr naming the file, the line and the value, exit 2. A fuzzer mutates valid
// baselines (bytes, fields, truncations, huge and negative numbers) with a fixed seed.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

using test::cli;

fs::path temp(const std::string& name) { return test::temp_path("bl", name); }

void spit(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + '\n';
    return s;
}

// The 1-based number of the first line that starts with `prefix`.
int line_of(const std::string& text, const std::string& prefix) {
    const auto lines = split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].rfind(prefix, 0) == 0) return static_cast<int>(i) + 1;
    FAIL("no line starts with " << prefix);
    return 0;
}

// `text` with the first line starting with `prefix` replaced by `line`.
std::string with_line(const std::string& text, const std::string& prefix, const std::string& line) {
    auto lines = split_lines(text);
    for (auto& l : lines)
        if (l.rfind(prefix, 0) == 0) {
            l = line;
            return join_lines(lines);
        }
    FAIL("no line starts with " << prefix);
    return text;
}

std::size_t count_lines(const std::string& s) {
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("check: a baseline's bad values are bad input naming the file, the line and the value",
          "[balance][cli][baseline]") {
    const fs::path good = temp("good.baseline");
    REQUIRE(cli({"baseline", "bosconian", "-n", "1000", "--set", "hull=60", "--out", good.string(),
                 "--no-progress"})
                .code == 0);
    const std::string text = test::slurp(good);
    const std::string win =
        split_lines(text)[static_cast<std::size_t>(line_of(text, "metric win ") - 1)];
    const std::string damage =
        split_lines(text)[static_cast<std::size_t>(line_of(text, "metric damage ") - 1)];
    auto replaced = [](std::string s, const std::string& from, const std::string& to) {
        const auto at = s.find(from);
        REQUIRE(at != std::string::npos);
        return s.replace(at, from.size(), to);
    };
    struct Case {
        std::string prefix, line;  // the line replaced
        std::string mentions;      // the bad value, as the message must name it
        bool on_its_line = true;   // else the line named is another (a metric's, for its sum)
    };
    const Case cases[] = {
        // A histogram bin far outside the metric's range 0..1 (this allocated 8 GB and failed).
        {"metric win ", replaced(win, " 0:", " 2147483647:"), "2147483647"},
        {"metric win ", replaced(win, " 0:", " -2147483648:"), "-2147483648"},
        {"metric win ", replaced(win, " 0:", " 99999999999999999999:"), "99999999999999999999"},
        {"metric damage ", damage + " 61:1", "61"},  // hull=60: damage is 0..60
        {"metric win ", replaced(win, " 0:", " 0:-5 7:"), "-5"},
        {"metric win ", replaced(win, " 1:", " 1:18446744073709551615 9:"), "18446744073709551615"},
        {"metric win ", replaced(win, " 0:", " 0:0 2:"), "count 0"},
        {"metric win ", replaced(win, " rate ", " count "), "count"},
        {"metric win ", replaced(win, " rate ", " ratio "), "ratio"},
        {"metric win ", replaced(win, " rate ", " rate nan "), "nan"},
        {"metric win ", replaced(win, " rate ", " rate 7 "), "7"},
        {"metric win ", win + " 0:3", "0"},  // a value twice
        {"odds-baseline", "odds-baseline 2", "2"},
        {"game ", "game chess", "chess"},
        {"rules_version ", "rules_version bosconian/x", "bosconian/x"},
        {"rules_version ", "rules_version naval/1", "naval/1"},
        {"set ", "set hull=2147483647", "2147483647"},
        {"set ", "set colour=red", "colour"},
        {"set ", "set hull", "hull"},
        {"policy ", "policy cheat", "cheat"},
        {"seed ", "seed -1", "-1"},
        {"seed ", "seed 18446744073709551616", "18446744073709551616"},
        {"playouts ", "playouts 1.00000000000000000001", "1.00000000000000000001"},
        {"playouts ", "playouts 2147483647", "2147483647", false},
        {"playouts ", "playouts -3", "-3"},
        {"scenario ", "seed 5", "seed"},  // a second seed record
    };
    const fs::path bad = temp("bad.baseline");
    const std::string named = bad.string() + ":";  // FILE:LINE: WHAT
    for (const auto& c : cases) {
        const int line = line_of(text, c.prefix);
        spit(bad, with_line(text, c.prefix, c.line));
        const auto r = cli({"check", bad.string(), "--no-progress"});
        INFO(c.line << "\nstderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(r.err.find(c.mentions) != std::string::npos);
        CHECK(r.out.empty());
        const auto at = r.err.find(named);  // FILE:LINE: always a line...
        CHECK((at != std::string::npos && at + named.size() < r.err.size() &&
               std::isdigit(static_cast<unsigned char>(r.err[at + named.size()]))));
        if (c.on_its_line)  // ...and, for most, the bad line itself
            CHECK(r.err.find(named + std::to_string(line) + ": ") != std::string::npos);
    }
    // The unchanged file still checks.
    CHECK(cli({"check", good.string(), "--no-progress"}).code == 0);
    fs::remove(good);
    fs::remove(bad);
}

TEST_CASE("check: fuzzed baselines end in exit 0, 1 or 2, never an exception",
          "[balance][cli][baseline][fuzz]") {
    // Two valid baselines, small and fast: a solo game with options, and a two-seat game with
    // a policy per seat.
    const fs::path a = temp("fuzz-a.baseline"), b = temp("fuzz-b.baseline");
    REQUIRE(cli({"baseline", "bosconian", "-n", "2000", "--set", "hull=60", "--set",
                 "layout=4,9,15", "-j", "1", "--out", a.string(), "--no-progress"})
                .code == 0);
    REQUIRE(cli({"baseline", "dimension-duel", "-n", "2000", "--set", "hp=10", "--policy",
                 "tau=aggressor", "--policy", "kaon=dice", "-j", "1", "--out", b.string(),
                 "--no-progress"})
                .code == 0);
    const std::string seeds[] = {test::slurp(a), test::slurp(b)};
    const std::vector<std::string> numbers = {"2147483647",
                                              "-2147483648",
                                              "2147483648",
                                              "-2147483649",
                                              "9223372036854775807",
                                              "-9223372036854775808",
                                              "18446744073709551615",
                                              "18446744073709551616",
                                              "99999999999999999999999999",
                                              "-1",
                                              "-0",
                                              "0",
                                              "1",
                                              "3",
                                              "1e308",
                                              "1e12",
                                              "1e13",
                                              "nan",
                                              "inf",
                                              "-inf",
                                              "",
                                              "1.5",
                                              "0x10",
                                              "+3",
                                              "1M",
                                              "2k",
                                              ":",
                                              "=",
                                              ",",
                                              "#"};
    std::mt19937_64 rng(19);
    auto pick = [&](std::size_t n) {
        return static_cast<std::size_t>(rng() % std::max<std::size_t>(n, 1));
    };
    const fs::path file = temp("fuzz.baseline");
    int codes[3] = {0, 0, 0};
    for (int trial = 0; trial < 1000; ++trial) {
        std::string s = seeds[trial % 2];
        const int mutations = 1 + static_cast<int>(pick(3));
        for (int k = 0; k < mutations && !s.empty(); ++k) {
            switch (pick(7)) {
                case 0:  // a byte, any byte
                    s[pick(s.size())] = static_cast<char>(pick(256));
                    break;
                case 1:  // truncated
                    s.resize(pick(s.size()));
                    break;
                case 2: {  // a few bytes gone
                    const std::size_t at = pick(s.size());
                    s.erase(at, 1 + pick(20));
                    break;
                }
                case 3:
                case 4: {  // a field (between spaces, colons, equals signs, commas) replaced
                    std::vector<std::size_t> starts{0};
                    for (std::size_t i = 0; i < s.size(); ++i)
                        if (std::string_view(" :=,\n").find(s[i]) != std::string_view::npos)
                            starts.push_back(i + 1);
                    const std::size_t from = starts[pick(starts.size())];
                    const std::size_t to = std::min(s.find_first_of(" :=,\n", from), s.size());
                    s.replace(from, to - from, numbers[pick(numbers.size())]);
                    break;
                }
                case 5: {  // a line repeated or dropped
                    auto lines = split_lines(s);
                    if (lines.empty()) break;
                    const std::size_t i = pick(lines.size());
                    if (pick(2))
                        lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
                    else
                        lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
                    s = join_lines(lines);
                    break;
                }
                default: {  // a number made huge or negative where a count stands
                    const std::size_t at = s.find(':', pick(s.size()));
                    if (at != std::string::npos) s.insert(at + 1, pick(2) ? "-" : "99999999999");
                    break;
                }
            }
        }
        spit(file, s);
        const auto r = cli({"check", file.string(), "-j", "1", "--no-progress"});
        INFO("trial " << trial << ", file:\n"
                      << s << "\nstdout:\n"
                      << r.out << "stderr:\n"
                      << r.err);
        REQUIRE((r.code == 0 || r.code == 1 || r.code == 2));
        ++codes[r.code];
        if (r.code == 2) {
            CHECK(count_lines(r.err) == 1);
            CHECK(r.err.rfind("odds check: ", 0) == 0);
            CHECK(r.out.empty());
        } else {  // played: the queued line only; exit 1 is a moved balance, not an error
            CHECK(r.err.find("error") == std::string::npos);
            CHECK(count_lines(r.err) == 1);
            CHECK(r.out.find("=> ") != std::string::npos);
        }
    }
    // The fuzzer reaches all three outcomes (else it tests too little).
    CHECK(codes[0] > 0);
    CHECK(codes[1] > 0);
    CHECK(codes[2] > 0);
    fs::remove(a);
    fs::remove(b);
    fs::remove(file);
}
