// Games as Lua scripts (engine/script.hpp, docs/scripting.md): the sandbox, the errors a
// designer meets, one line each, and a script played by the commands as a kernel is.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "engine/script.hpp"
#include "engine/script_position.hpp"
#include "engine/stop.hpp"
#include "helpers.hpp"
#include "reports/csv.hpp"
#include "sim/registry.hpp"
#include "sim/script_game.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

// A script of the tests' own: a game of one step that rolls a die and scores it, with `body`
// put into its step (before the roll) and `extra` into its table.
std::string game_text(const std::string& body = "", const std::string& extra = "") {
    return "return {\n"
           "  name = 'one', metrics = {{name = 'face', lo = 1, hi = 6, unit = 'pips', help = 'the "
           "die'}},\n" +
           extra +
           "  opening = function(o) return {face = 0} end,\n"
           "  over = function(s, o) return s.face > 0 end,\n"
           "  step = function(s, o, roll, choose)\n" +
           body +
           "\n    s.face = roll(6)\n  end,\n"
           "  result = function(s, o) return {face = s.face} end,\n"
           "}\n";
}

// game_text() with its result function returning `metrics` instead.
std::string with_result(const std::string& metrics) {
    std::string text = game_text();
    const std::string old = "return {face = s.face}";
    return text.replace(text.find(old), old.size(), "return " + metrics);
}

fs::path write_script(const std::string& name, const std::string& text) {
    const fs::path p = test::temp_path("script", name + ".lua");
    std::ofstream(p) << text;
    return p;
}

// `odds run FILE` of a bad script: exit 2, one line on stderr naming the file (and the line
// where it is known), no folder written.
std::string refused(const std::string& name, const std::string& text) {
    const fs::path p = write_script(name, text);
    const fs::path out = test::temp_path("script", name + "-out");
    fs::remove_all(out);
    const auto r = test::cli({"run", p.string(), "-n", "600", "--out", out.string()});
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    // Past the line a command prints as it starts playing, one line: the error.
    std::string err = r.err;
    if (err.find(" queued on ") != std::string::npos) err = err.substr(err.find('\n') + 1);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    CHECK(err.find(p.string()) != std::string::npos);
    CHECK_FALSE(fs::exists(out / "summary.csv"));
    fs::remove_all(out);
    return err;
}

}  // namespace

TEST_CASE("script: a good script runs, the same bytes on any thread count", "[script]") {
    const fs::path p = write_script("good", game_text());
    const fs::path a = test::temp_path("script", "good-1"), b = test::temp_path("script", "good-2");
    fs::remove_all(a), fs::remove_all(b);
    REQUIRE(test::cli({"run", p.string(), "-n", "5000", "-j", "1", "--out", a.string()}).code == 0);
    REQUIRE(test::cli({"run", p.string(), "-n", "5000", "-j", "2", "--out", b.string()}).code == 0);
    for (const char* f : {"summary.csv", "distributions.csv", "provenance.csv", "metrics.csv"})
        CHECK(test::slurp(a / f) == test::slurp(b / f));
    // A fair die: the mean face within 4 standard errors of 3.5.
    const auto summary = parse_csv(test::slurp(a / "summary.csv"));
    const double se = std::sqrt(35.0 / 12 / 5000);
    CHECK(std::abs(std::stod(summary.at(0, "mean")) - 3.5) < 4 * se);
    fs::remove_all(a), fs::remove_all(b);
}

TEST_CASE("script: roll draws odds' own dice, in the order the script rolls them", "[script]") {
    auto d = script::load(write_script("order", game_text("    s.first = roll(6)")).string());
    script::Machine m(d);
    const script::Values none;
    const std::vector<script::Seat> seats{script::Seat{}};
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Dice dice(seed), twin(seed);
        std::int32_t out[kMaxMetrics];
        m.play(none, dice, seats, out);
        (void)twin.d6();  // s.first
        CHECK(out[0] == twin.d6());
        CHECK(dice.word() == twin.word());  // no die more, none fewer
    }
}

TEST_CASE("script: syntax and runtime errors are one line, FILE:LINE", "[script]") {
    CHECK(refused("syntax", "return {\n  name = 'x',,\n}\n").find("syntax.lua:2:") !=
          std::string::npos);
    CHECK(refused("runtime", game_text("    local t = nil\n    t.x = 1")).find("runtime.lua:7:") !=
          std::string::npos);
    CHECK(refused(
              "missing",
              "return {name = 'x', metrics = {{name = 'm', lo = 0, hi = 1, unit = 'points', help = "
              "'h'}}}\n")
              .find("no function `opening`") != std::string::npos);
    CHECK(refused("notable", "return 42\n").find("return { ... }") != std::string::npos);
    // A count says what it counts.
    CHECK(refused("unitless",
                  "return {name = 'x', metrics = {{name = 'm', lo = 0, hi = 1, "
                  "help = 'h'}}}\n")
              .find("(m): a count says what it counts, unit = \"armies\"") != std::string::npos);
    CHECK(refused("badtype", "return {name = 'x', metrics = 'm'}\n")
              .find("must be a list of tables") != std::string::npos);
    // A metric of the wrong type, one outside its declared range, and no table at all.
    CHECK(refused("result", with_result("{face = 'six'}"))
              .find("metric 'face' is a string, not a number or a boolean") != std::string::npos);
    CHECK(refused("range", with_result("{face = 7}"))
              .find("the value 7, outside its declared range 1..6") != std::string::npos);
    CHECK(refused("nothing", with_result("3")).find("returned a number, not a table") !=
          std::string::npos);
}

TEST_CASE("script: the sandbox holds no io, os, require, load, debug or ffi", "[script]") {
    for (const char* escape :
         {"os.execute('true')", "io.open('/etc/passwd')", "require('ffi')", "load('return 1')()",
          "loadstring('return 1')()", "dofile('/etc/passwd')", "debug.getinfo(1)", "jit.on()",
          "math.random()", "string.dump(print)"}) {
        INFO(escape);
        const std::string err = refused("escape", game_text(std::string("    ") + escape));
        CHECK(err.find("escape.lua:6:") != std::string::npos);
    }
}

TEST_CASE("script: an endless loop and a memory bomb are stopped and named", "[script]") {
    CHECK(refused("loop", game_text("    while true do end")).find("loop.lua:6: a step ran past") !=
          std::string::npos);
    CHECK(refused("bomb", game_text("    local t = {}\n    for i = 1, 1e9 do t[i] = {i} end"))
              .find("MiB") != std::string::npos);
}

TEST_CASE("script: a game that never ends is named, not played forever", "[script]") {
    const std::string never =
        "return {\n  name = 'never', metrics = {{name = 'm', lo = 0, hi = "
        "1, unit = 'points', help = 'h'}},\n  opening = function(o) return {} end,\n  over "
        "= function(s, o) return false end,\n  step = function(s, o, roll, "
        "choose) end,\n  result = function(s, o) return {m = 0} end,\n}\n";
    CHECK(refused("never", never)
              .find("a game ran past 1000000 steps without ending: does "
                    "over(s, o) ever return true?") != std::string::npos);
}

TEST_CASE("script: Ctrl-C stops a script in an endless loop within a second", "[script][stop]") {
    auto d = script::load(write_script("ctrlc", game_text("    while true do end")).string());
    script::Machine m(d);
    Dice dice(1);
    std::int32_t out[kMaxMetrics];
    const std::vector<script::Seat> seats{script::Seat{}};
    CHECK(test::stops_within_a_second([&] { m.play({}, dice, seats, out); }));
}

TEST_CASE("script: a script whose play depends on an earlier game is refused", "[script]") {
    // A value kept in the chunk's local from one game to the next: the replay check sees it.
    const std::string text = "local games = 0\n" + game_text(
                                                       "    games = games + 1\n    if games > "
                                                       "1 then roll(6) end");
    CHECK(refused("memory", text).find("played differently the second time") != std::string::npos);
    // Setting a global while playing is refused at its line.
    CHECK(refused("global", game_text("    counter = 1"))
              .find("global.lua:6: a game may not set "
                    "the global 'counter'") != std::string::npos);
}

TEST_CASE("script: options and policies as a kernel's, with one-line errors", "[script]") {
    const std::string extra =
        "  options = {{name = 'sides', default = 6, min = 2, max = 20, help = 'faces'},\n"
        "             {name = 'bonus', type = 'dice', default = '1d4', help = 'added'}},\n"
        "  policies = {{name = 'first', help = 'the first choice', choose = function(s, o, seat, "
        "c) return c[1] end}},\n";
    std::string text = game_text("    s.pick = choose({1, 2})", extra);
    const fs::path p = write_script("options", text);
    auto r = test::cli({"run", p.string(), "--set", "sides=30", "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("2..20") != std::string::npos);
    r = test::cli({"run", p.string(), "--set", "side=3", "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("did you mean 'sides'") != std::string::npos);
    r = test::cli({"run", p.string(), "--policy", "second", "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("valid: first, random") != std::string::npos);
    r = test::cli({"run", p.string(), "--policy", "random", "-n", "300"});
    CHECK(r.code == 0);
    CHECK(r.out.find("sides=6 bonus=1d4") != std::string::npos);
}

TEST_CASE("script: docs/scripting.md's broken script fails as the page says", "[script][docs]") {
    const std::string page = test::slurp(fs::path(ODDS_SOURCE_DIR) / "docs/scripting.md");
    const auto from = page.find("$ cat broken.lua\n");
    REQUIRE(from != std::string::npos);
    const auto body = from + std::string("$ cat broken.lua\n").size();
    const std::string text = page.substr(body, page.find("```", body) - body);
    const auto said = page.find("odds run: broken.lua:");
    REQUIRE(said != std::string::npos);
    const std::string line = page.substr(said, page.find('\n', said) - said);
    const fs::path dir = test::temp_path("script", "docs");
    fs::create_directories(dir);
    std::ofstream(dir / "broken.lua") << text;
    const auto cwd = fs::current_path();
    fs::current_path(dir);  // the page names the script by its relative path
    const auto r = test::cli({"run", "broken.lua", "-n", "100"});
    fs::current_path(cwd);
    CHECK(r.code == 2);
    CHECK(r.err.find(line + "\n") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("script: shards merged, a baseline checked: as a kernel's", "[script][shard]") {
    const std::string risk = ODDS_SOURCE_DIR "/engine/risk/risk.lua";
    const fs::path one = test::temp_path("script", "one"),
                   parts = test::temp_path("script", "parts"),
                   merged = test::temp_path("script", "merged");
    for (const auto& d : {one, parts, merged}) fs::remove_all(d);
    REQUIRE(test::cli({"run", risk, "-n", "3000", "--out", one.string()}).code == 0);
    for (const char* shard : {"1/2", "2/2"})
        REQUIRE(test::cli({"run", risk, "-n", "3000", "--shard", shard, "--out", parts.string()})
                    .code == 0);
    REQUIRE(test::cli({"merge", parts.string(), "--out", merged.string()}).code == 0);
    for (const char* f : {"summary.csv", "distributions.csv", "provenance.csv", "metrics.csv"})
        CHECK(test::slurp(one / f) == test::slurp(merged / f));
    // A baseline of the script, checked against the same script: exact, unchanged.
    const fs::path baseline = one / "risk.baseline";
    REQUIRE(test::cli({"baseline", risk, "-n", "3000", "--out", baseline.string()}).code == 0);
    const auto c = test::cli({"check", baseline.string()});
    CHECK(c.code == 0);
    CHECK(c.out.find("=> unchanged") != std::string::npos);
    for (const auto& d : {one, parts, merged}) fs::remove_all(d);
}

namespace {
// A CSV's text without its first column (the game: a script is named by its path).
std::string without_game(const std::string& csv) {
    std::string out;
    std::size_t at = 0;
    while (at < csv.size()) {
        const std::size_t end = csv.find('\n', at);
        const std::string line = csv.substr(at, end - at);
        out += line.substr(line.find(',') + 1) + '\n';
        at = end == std::string::npos ? csv.size() : end + 1;
    }
    return out;
}
}  // namespace

// `odds run` of the kernel `game` and of its script at `script`, under each variant: the same
// summary.csv and distributions.csv but for the game's name.
static void same_as_kernel(const std::string& game, const std::string& script,
                           std::initializer_list<const char*> variants) {
    for (const char* variant : variants) {
        INFO(variant);
        const fs::path k = test::temp_path("script", "kernel"),
                       s = test::temp_path("script", "lua");
        fs::remove_all(k), fs::remove_all(s);
        for (const auto& [name, dir] : {std::pair{game, k}, std::pair{script, s}})
            REQUIRE(test::cli({"run", name, "-n", "3000", "--seed", "11", "--set", variant, "--out",
                               dir.string()})
                        .code == 0);
        for (const char* f : {"summary.csv", "distributions.csv"})
            CHECK(without_game(test::slurp(k / f)) == without_game(test::slurp(s / f)));
        fs::remove_all(k), fs::remove_all(s);
    }
}

TEST_CASE("script: Dimension Duel's script writes its kernel's figures byte for byte",
          "[script][duel]") {
    // engine/dimension_duel/dimension_duel.lua, the rules and the `dice` rule of thumb drawing
    // every die in the kernel's order: under the book and three variants (a chart, the damage
    // die, the Intensifier).
    same_as_kernel("dimension-duel", ODDS_SOURCE_DIR "/engine/dimension_duel/dimension_duel.lua",
                   {"hp=75", "chart.tau=1-2", "damage.die=d8", "intensifier.factor=3"});
}

TEST_CASE("script: Bosconian-D's script writes its kernel's figures byte for byte",
          "[script][bosconian]") {
    // engine/bosconian/bosconian.lua, the mission die by die in the kernel's order: under the
    // book and three variants of its tables (a threat's damage dice, base combat's faces, the
    // encounters of an alerted sector).
    same_as_kernel("bosconian", ODDS_SOURCE_DIR "/engine/bosconian/bosconian.lua",
                   {"hull=100", "cosmo_mine.damage=3d6", "base_combat.cannon_destroyed_on=1,3",
                    "alert.encounters=3"});
}

// ---------------------------------------------------------------------------------------------
// odds exact on a script (script::Machine::solve).

namespace {

// Flips a coin until heads, at most `max_steps` flips: P(flips = k) = 2^-k.
std::string coin_text(int max_steps, const std::string& over_extra = "",
                      const std::string& state_extra = "") {
    return "return {\n  name = 'coin', max_steps = " + std::to_string(max_steps) +
           ",\n  metrics = {{name = 'flips', lo = 0, hi = 100, unit = 'flips', help = 'h'}},\n"
           "  opening = function(o) return {n = 0, heads = false" +
           state_extra +
           "} end,\n"
           "  over = function(s, o) " +
           over_extra +
           " return s.heads end,\n"
           "  step = function(s, o, roll, choose) s.n = s.n + 1; s.heads = roll(2) == 2 end,\n"
           "  result = function(s, o) return {flips = s.n} end,\n}\n";
}

script::Solution solved(const std::string& name, const std::string& text,
                        std::uint64_t max_states = script::kMaxExactStates,
                        std::uint64_t max_work = script::kMaxExactWork) {
    script::Machine m(script::load(write_script(name, text).string()));
    const std::vector<script::Seat> seats{script::Seat{}};
    return m.solve({}, seats, max_states, max_work);
}

std::string solve_refused(const std::string& name, const std::string& text,
                          std::uint64_t max_states = script::kMaxExactStates,
                          std::uint64_t max_work = script::kMaxExactWork) {
    try {
        (void)solved(name, text, max_states, max_work);
    } catch (const UsageError& e) {
        return e.what();
    }
    FAIL("solved: " << name);
    return "";
}

}  // namespace

TEST_CASE("script exact: each roll's outcomes enumerated, a game past max_steps a bound",
          "[script][exact]") {
    // Ended by max_steps = 30: every k of 1..30, 2^-k, nothing unresolved to the doubles.
    const auto whole = solved("coin30", coin_text(30));
    for (int k = 1; k <= 30; ++k) CHECK(whole.laws[0].at(k) == std::ldexp(1.0, -k));
    // max_steps = 5: games still flipping after 5 flips are unresolved mass, 1/32, never a
    // value: the laws are bounds, not a wrong answer.
    const auto cut = solved("coin5", coin_text(5));
    CHECK(cut.unresolved == 1.0 / 32);
    CHECK(cut.laws[0].size() == 5);
    CHECK(cut.laws[0].at(5) == 1.0 / 32);
    // States holding the same values are one: the opening's, then two a flip (heads or not),
    // however many games reach them.
    CHECK(cut.states == 1 + 2 * 5);
    // Through the registry and the CLI: the table says the laws are bounds.
    const fs::path p = write_script("coin5cli", coin_text(5));
    const auto r = test::cli({"exact", p.string()});
    INFO(r.out << r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("unresolved mass (0.03125): the laws are bounds") != std::string::npos);
}

TEST_CASE("script exact: what cannot be solved is refused in one line", "[script][exact]") {
    // over(s, o) is not handed roll, but a script may keep it from a step in a local.
    std::string kept = coin_text(10, "if kept then kept(6) end;");
    kept.replace(kept.find("s.n = s.n + 1;"), 14, "kept = roll; s.n = s.n + 1;");
    CHECK(solve_refused("rollover", "local kept\n" + kept)
              .find("over(s, o) rolled dice: odds exact needs the rolls in opening and step") !=
          std::string::npos);
    CHECK(solve_refused("fnstate", coin_text(10, "", ", f = function() end"))
              .find("the state holds a function at s.f") != std::string::npos);
    // One 40 kB table held under a thousand keys: 40 MB written out, refused at 64 kB.
    CHECK(solve_refused("wide", coin_text(10, "",
                                          ", wide = (function() local big, t = {}, {} for i = 1, "
                                          "5000 do big[i] = i end for i = 1, 1000 do t[i] = big "
                                          "end return t end)()"))
              .find("the state takes more than 65536 bytes") != std::string::npos);
    CHECK(solve_refused("many", coin_text(30), 10).find("more than 10 states to enumerate") !=
          std::string::npos);
    // Its work in all: 30 flips' states solve within 100k units of work, not within 5000 (a
    // roll outcome counts 250).
    CHECK(solved("work", coin_text(30), script::kMaxExactStates, 100'000).laws[0].size() == 30);
    CHECK(solve_refused("work", coin_text(30), script::kMaxExactStates, 5000)
              .find("more work than odds exact's budget (5000 Lua instructions and roll "
                    "outcomes)") != std::string::npos);
    // A roll repeated until a face comes up inside one step: its sequences are endless (the
    // enumeration takes the lowest outcome of each new roll first), refused with the reason
    // past 100k rolls in one sequence.
    CHECK(solve_refused("endless", game_text("    repeat until roll(2) == 2"))
              .find("a roll repeated until a face comes up has endless sequences") !=
          std::string::npos);
    // Twelve dice in one step: 6^12 sequences, past the million a step may have.
    const std::string dozen = game_text("    for i = 1, 12 do roll(6) end");
    CHECK(solve_refused("dozen", dozen).find("more than 1000000 sequences of roll outcomes") !=
          std::string::npos);
}

TEST_CASE("script exact: a script that says exact = false is refused at once, played elsewhere",
          "[script][exact]") {
    std::string text = coin_text(10);
    text.replace(text.find("max_steps"), 9, "exact = false, max_steps");
    const std::string path = write_script("noexact", text).string();
    const auto refused = test::cli({"exact", path});
    CHECK(refused.code == 2);
    CHECK(refused.err.find("has no exact solver") != std::string::npos);
    CHECK(test::cli({"run", path, "-n", "200"}).code == 0);
    // `exact` is true or false.
    text.replace(text.find("exact = false"), 13, "exact = 1");
    const auto bad = test::cli({"run", write_script("badexact", text).string(), "-n", "10"});
    CHECK(bad.code == 2);
    CHECK(bad.err.find("the game's `exact` must be true or false") != std::string::npos);
}

TEST_CASE("script exact: beside a command's plays, a smaller budget; odds exact says why not",
          "[script][exact]") {
    // A 16-against-16 battle takes odds exact about a billion units of work: over the budget a
    // command spends beside its plays (a twentieth), so run --report plays without exact laws,
    // while 6 against 6 has them.
    const auto has_exact_laws = [](const std::string& armies) {
        const fs::path out = test::temp_path("script", "beside-" + armies);
        fs::remove_all(out);
        const auto r = test::cli({"run", "risk", "--set", "attackers=" + armies, "--set",
                                  "defenders=" + armies, "-n", "1000", "--report", "--out",
                                  out.string(), "--no-progress"});
        REQUIRE(r.code == 0);
        const bool has = fs::exists(out / "exact" / "summary.csv");
        fs::remove_all(out);
        return has;
    };
    CHECK(has_exact_laws("6"));
    CHECK_FALSE(has_exact_laws("16"));
    CHECK(test::cli({"exact", "risk", "--set", "attackers=16", "--set", "defenders=16"}).code == 0);
    // A script that says exact = false: odds exact gives the script's reason.
    const auto r = test::cli({"exact", ODDS_SOURCE_DIR "/engine/bosconian/bosconian.lua"});
    CHECK(r.code == 2);
    CHECK(r.err.find("says exact = false: its states are too many to enumerate") !=
          std::string::npos);
}

TEST_CASE("script exact: Ctrl-C stops a solve within a second", "[script][exact][stop]") {
    script::Machine m(
        script::load(write_script("slow", game_text("    for i = 1, 7 do roll(6) end")).string()));
    const std::vector<script::Seat> seats{script::Seat{}};
    CHECK(test::stops_within_a_second([&] { m.solve({}, seats); }));
}

TEST_CASE("script: engine/NAME/NAME.lua with no kernel is game NAME, built into odds",
          "[script][list]") {
    // risk is listed after the kernels, in odds list and odds version, by its declared name.
    const auto list = test::cli({"list"});
    REQUIRE(list.code == 0);
    CHECK(list.out.find("\nrisk - Risk: one battle: ") != std::string::npos);
    CHECK(list.out.find("naval - ") < list.out.find("risk - "));
    CHECK(test::cli({"--version"}).out.find("  risk            risk/1\n") != std::string::npos);
    // Dimension Duel's script is its kernel's rules again: the kernel is the game, listed once.
    CHECK(list.out.find("dimension-duel - ") == list.out.rfind("dimension-duel - "));
    // By name or by its path: the same dice, the same figures, but for the game's name.
    const fs::path by_name = test::temp_path("script", "risk-name"),
                   by_path = test::temp_path("script", "risk-path");
    fs::remove_all(by_name);
    fs::remove_all(by_path);
    const std::string path = ODDS_SOURCE_DIR "/engine/risk/risk.lua";
    REQUIRE(
        test::cli({"run", "risk", "-n", "3000", "--seed", "5", "--out", by_name.string()}).code ==
        0);
    REQUIRE(test::cli({"run", path, "-n", "3000", "--seed", "5", "--out", by_path.string()}).code ==
            0);
    for (const char* file : {"summary.csv", "distributions.csv"}) {
        std::string a = test::slurp(by_name / file), b = test::slurp(by_path / file);
        for (std::size_t at; (at = b.find(path)) != std::string::npos;)
            b.replace(at, path.size(), "risk");
        CHECK(a == b);
    }
    CHECK(test::cli({"exact", "risk", "--set", "attackers=4", "--set", "defenders=2"}).code == 0);
    fs::remove_all(by_name);
    fs::remove_all(by_path);
}

// ---------------------------------------------------------------------------------------------
// Positions of a script (engine/script_position.hpp, docs/positions.md).

TEST_CASE("script positions: a state as text and back, byte for byte", "[script][position]") {
    // Names alphabetically, whole-number keys by value, nested tables by dotted paths, an empty
    // table as {}, a string quoted, a fraction to 17 digits.
    const std::string lines = "a 1\nb.2 \"word\"\nb.10 true\nc {}\nd.e.f -2\ng 0.25\nh false\n";
    const std::string bytes = script::position_bytes(lines, "p.txt");
    const std::string text = script::position_text(bytes, "game.lua");
    CHECK(text == "# game.lua: the game's state, PATH VALUE a line (docs/positions.md)\n" + lines);
    CHECK(script::position_bytes(text, "again.txt") == bytes);
    // Refused in one line naming the file and the line.
    const auto refused = [](const std::string& t) {
        try {
            (void)script::position_bytes(t, "bad.txt");
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refused("a 1\nb\n") ==
          "bad.txt:2: a line of a script's position is 'PATH VALUE' (two "
          "words), not 1");
    CHECK(refused("a one\n").find("bad.txt:1: 'one' is not a value") == 0);
    CHECK(refused("a 1\na 2\n") == "bad.txt:2: 'a' is given twice, or is a table");
    CHECK(refused("a 1\na.b 2\n") == "bad.txt:2: 'a.b' is inside a value, not a table");
    CHECK(refused("a..b 1\n").find("bad.txt:1: '' in 'a..b' is not a key") == 0);
    CHECK(refused("a \"two words\"\n").find("bad.txt:1:") == 0);
    // Nested as deep as a state may be, and no deeper (a state read back into Lua is bounded).
    std::string deep = "a";
    for (int i = 1; i < 16; ++i) deep += ".a";  // kMaxStateDepth (engine/script_state.hpp)
    CHECK(refused(deep + " 1\n") == "accepted");
    CHECK(refused(deep + ".a 1\n").find("nests tables deeper than 16") != std::string::npos);
    // Bounded as it is read: ten thousand values are more than a state may hold.
    std::string many;
    for (int i = 0; i < 10000; ++i) {
        many += 'k';
        many += std::to_string(i);
        many += " true\n";
    }
    CHECK(refused(many) == "bad.txt: the position takes more than 65536 bytes as a state");
}

TEST_CASE("script positions: odds state, a run and odds exact from a position",
          "[script][position]") {
    const GameEntry& risk = find_game("risk");
    REQUIRE(risk.opening_position);
    const std::string opening = risk.opening_position({});
    CHECK(opening.find("\nattackers 10\ndefenders 10\nrounds 0\nstopped false\n") !=
          std::string::npos);
    // Five attackers against three, as a position: odds exact gives the laws it gives those
    // options, to the last digit.
    std::string text = opening;
    text.replace(text.find("attackers 10"), 12, "attackers 5");
    text.replace(text.find("defenders 10"), 12, "defenders 3");
    const ExactReport from = risk.exact_from({}, {"press"}, text, "five-three.txt");
    const ExactReport set = risk.exact({{"attackers", "5"}, {"defenders", "3"}}, {"press"});
    REQUIRE(from.laws.size() == set.laws.size());
    for (std::size_t k = 0; k < set.laws.size(); ++k) {
        INFO(set.laws[k].spec.name);
        // Two laws of one metric, each within its own range: compare value by value.
        for (std::size_t i = 0; i < set.laws[k].mass.size(); ++i) {
            const std::int64_t v = set.laws[k].spec.lo + static_cast<std::int64_t>(i);
            const std::int64_t j = v - from.laws[k].spec.lo;
            const double there = j >= 0 && j < static_cast<std::int64_t>(from.laws[k].mass.size())
                                     ? from.laws[k].mass[static_cast<std::size_t>(j)]
                                     : 0.0;
            CHECK(there == set.laws[k].mass[i]);
        }
    }
}
