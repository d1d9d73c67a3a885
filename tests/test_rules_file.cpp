// Variant files (sim/rules_file.hpp, docs/variants.md): `odds rules GAME` prints every rule
// option as commented TOML; --rules FILE reads one back, --set on top; every mistake is one line
// naming FILE:LINE.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

fs::path write_temp(const std::string& name, const std::string& text) {
    const fs::path p = test::temp_path("rules", name);
    std::ofstream(p) << text;
    return p;
}

std::size_t lines(const std::string& s) {
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("every game: odds rules, given back with --rules, plays byte for byte the rule book",
          "[rules-file]") {
    for (const auto& g : games()) {
        const std::string game(g.name);
        INFO(game);
        const auto printed = test::cli({"rules", game});
        REQUIRE(printed.code == 0);
        CHECK(printed.out.find("rules version " + std::string(g.rules_version)) !=
              std::string::npos);
        for (const auto& o : g.options) {  // every option, its help and ruling beside it
            const auto dot = o.name.find('.');
            const std::string key = dot == std::string::npos ? o.name : o.name.substr(dot + 1);
            CHECK(printed.out.find("\n" + key + " = ") != std::string::npos);
            CHECK(printed.out.find("(" + o.ruling) != std::string::npos);
        }
        const fs::path file = write_temp(game + ".toml", printed.out);
        const fs::path a = test::temp_path("rules", game + "-book"),
                       b = test::temp_path("rules", game + "-file");
        fs::remove_all(a);
        fs::remove_all(b);
        const std::string n = game == "msc" || game == "naval" ? "64" : "2000";
        REQUIRE(test::cli({"run", game, "-n", n, "--no-progress", "--out", a.string()}).code == 0);
        const auto r = test::cli(
            {"run", game, "-n", n, "--no-progress", "--rules", file.string(), "--out", b.string()});
        INFO(r.err);
        REQUIRE(r.code == 0);
        for (const char* f :
             {"summary.csv", "distributions.csv", "survival.csv", "provenance.csv"}) {
            INFO(f);
            CHECK(test::slurp(a / f) == test::slurp(b / f));
        }
    }
}

TEST_CASE("a variant file's values play, --set applies on top, and provenance records them",
          "[rules-file]") {
    const fs::path file =
        write_temp("hull.toml", "# a tougher ship\nhull = 150\nbase_cannons = 4\n");
    const auto with_file = test::cli({"run", "bosconian", "-n", "3000", "--no-progress", "--rules",
                                      file.string(), "--set", "hull=120"});
    const auto by_set = test::cli({"run", "bosconian", "-n", "3000", "--no-progress", "--set",
                                   "hull=120", "--set", "base_cannons=4"});
    REQUIRE(with_file.code == 0);
    CHECK(with_file.out == by_set.out);
    CHECK(with_file.out.find("hull=120 base_cannons=4") != std::string::npos);
    // provenance.csv holds the file's options that differ from the book, not the file's path
    const fs::path dir = test::temp_path("rules", "provenance");
    fs::remove_all(dir);
    REQUIRE(test::cli({"run", "bosconian", "-n", "100", "--no-progress", "--rules", file.string(),
                       "--out", dir.string()})
                .code == 0);
    const auto prov = test::slurp(dir / "provenance.csv");
    CHECK(prov.find(" --set=hull=150") != std::string::npos);
    CHECK(prov.find(" --set=base_cannons=4") != std::string::npos);
    CHECK(prov.find("hull.toml") == std::string::npos);
    // odds rules --set writes the value, and reads back to the same game
    const auto printed = test::cli({"rules", "bosconian", "--set", "hull=150"});
    REQUIRE(printed.code == 0);
    CHECK(printed.out.find("\nhull = 150\n") != std::string::npos);
    CHECK(printed.out.find("Rule book: 100.") != std::string::npos);
}

TEST_CASE("every command that takes --set takes --rules", "[rules-file]") {
    const fs::path file = write_temp("dd.toml", "hp = 12\n");
    for (const std::vector<std::string>& cmd : std::vector<std::vector<std::string>>{
             {"run", "dimension-duel", "-n", "100"},
             {"exact", "dimension-duel"},
             {"state", "dimension-duel"},
             {"compare", "dimension-duel", "--policy", "tau=aggressor", "--policy", "tau=survivor",
              "-n", "100"},
             {"tournament", "dimension-duel", "--policy", "aggressor", "--policy", "survivor", "-n",
              "100"},
             {"sweep", "dimension-duel", "--vary", "max_turns=100,200", "-n", "100"},
             {"tune", "dimension-duel", "--vary", "max_turns=10..20", "--target", "draw min", "-n",
              "100"},
             {"rules", "dimension-duel"},
         }) {
        auto args = cmd, by_set = cmd;
        args.insert(args.end(), {"--rules", file.string()});
        by_set.insert(by_set.end(), {"--set", "hp=12"});
        if (cmd[0] != "state" && cmd[0] != "rules" && cmd[0] != "exact") {
            args.push_back("--no-progress");
            by_set.push_back("--no-progress");
        }
        // The output but its timing ("solved in 0.9 ms")
        const auto untimed = [](std::vector<std::string> a) {
            std::string out = test::cli(std::move(a)).out;
            const auto at = out.find("solved in");
            return at == std::string::npos ? out : out.substr(0, at);
        };
        const auto r = test::cli(args);
        INFO(cmd[0] << ": " << r.err);
        CHECK(r.code == 0);
        CHECK(untimed(args) == untimed(by_set));  // the file's hp=12 played, as --set hp=12
        CHECK(untimed(args) != untimed(cmd));
    }
    const fs::path base = test::temp_path("rules", "dd.baseline");
    const auto b = test::cli({"baseline", "dimension-duel", "-n", "1000", "--no-progress",
                              "--rules", file.string(), "--out", base.string()});
    INFO(b.err);
    CHECK(b.code == 0);
    CHECK(test::slurp(base).find("hp=12") != std::string::npos);
}

TEST_CASE("a bad variant file is one line naming FILE:LINE, exit 2, nothing written",
          "[rules-file]") {
    for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
             {"hull = 120\nhul = 3\n",
              ":2: 'hul' is not a rule option of bosconian (did you mean 'hull'?)"},
             {"hull = 120\nhull = 130\n", ":2: "},
             {"hull = \"x\"\n", ":1: hull: a value of the wrong type; hull takes a whole number"},
             {"\n\nhull = 0\n", ":3: bosconian: hull='0' is not valid; hull takes a whole number"},
             {"hull = 1.5\n", ":1: hull: a value of the wrong type"},
             {"start_encounter = \"true\"\n",
              ":1: start_encounter: a value of the wrong type; "
              "start_encounter takes true or false"},
             {"layout = \"\"\n", ":1: layout: an empty string"},
             {"hull = [\n", ":1: "},
             // Issue 40: a key given twice through a dotted key and its table, a table named
             // like an option, keys nested past any option's parts, a table grouping nothing.
             {"\"cosmo_mine.damage\" = \"3d6\"\n[cosmo_mine]\ndamage = \"4d6\"\n",
              ":1: 'cosmo_mine.damage' is given twice (also at line 3)"},
             {"[hull]\n", ":1: 'hull' is a rule option, not a table: write hull = VALUE"},
             {"[cosmo_mine.damage.x.y]\n",
              ":1: 'cosmo_mine.damage' is a rule option, not a table: write cosmo_mine.damage = "
              "VALUE"},
             {"[cosmo_mine]\n\"damage.a.b\" = 1\n",
              ":2: 'cosmo_mine.damage.a.b' nests 4 keys deep; no rule option of bosconian has more "
              "than 2 parts"},
             {"[t0]\n[t1]\n", ":1: 't0' is not a rule option of bosconian"},
             // Issue 43: a bare dice value, which TOML reads as a date or a number, is to be
             // quoted, and the message says so with the line as it would be.
             {"hull = 120\ncosmo_mine.damage = 3d6\n",
              ":2: Error while parsing decimal integer: expected digit, saw 'd'; a value that is "
              "not a plain number or true/false is quoted: cosmo_mine.damage = \"3d6\""},
             {"[placement]\ngap = 1-6 # a range\n",
              ":2: Error while parsing date: expected 4-digit year, saw '-'; a value that is not "
              "a plain number or true/false is quoted: gap = \"1-6\""},
             {"[" + std::string(40000, 'a').replace(1, 39998, std::string(39998, '.')) + "]\n",
              ":1: "},
         }) {
        INFO(text);
        const fs::path file = write_temp("bad.toml", text);
        const fs::path out = test::temp_path("rules", "bad-out");
        fs::remove_all(out);
        const auto r = test::cli(
            {"run", "bosconian", "-n", "10", "--rules", file.string(), "--out", out.string()});
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find("odds run: " + file.string() + says) != std::string::npos);
        CHECK_FALSE(fs::exists(out));
    }
    // A value --set replaces is not the file's mistake
    const fs::path file = write_temp("zero.toml", "hull = 0\n");
    CHECK(test::cli({"run", "bosconian", "-n", "10", "--no-progress", "--rules", file.string(),
                     "--set", "hull=90"})
              .code == 0);
    // Deep nesting was a stack overflow (SIGSEGV, nothing on stderr): refused in one line.
    std::string deep = "a";
    for (int i = 0; i < 20000; ++i) deep += ".a";
    for (const std::string& text : {"[" + deep + "]\n", deep + " = 1\n"}) {
        const fs::path f = write_temp("deep.toml", text);
        const auto r = test::cli({"run", "bosconian", "-n", "10", "--rules", f.string()});
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
    }
    // A variant file is read up to 1 MiB.
    const fs::path big = write_temp("big.toml", std::string(2u << 20, '#') + "\n");
    const auto too_big = test::cli({"run", "bosconian", "--rules", big.string()});
    CHECK(too_big.code == 2);
    CHECK(too_big.err.find("odds reads at most 1.0 MiB of it") != std::string::npos);
    const auto missing = test::cli({"run", "bosconian", "--rules", "/nonexistent.toml"});
    CHECK(missing.code == 2);
    CHECK(missing.err.find("--rules '/nonexistent.toml' cannot be read") != std::string::npos);
}

TEST_CASE(
    "check --set and --rules across games: each setting where its game has it, a note "
    "where not",
    "[rules-file][check]") {
    const std::string bosc = std::string(ODDS_SOURCE_DIR) + "/engine/bosconian/bosconian.baseline";
    const std::string duel =
        std::string(ODDS_SOURCE_DIR) + "/engine/dimension_duel/dimension-duel.baseline";
    const auto r =
        test::cli({"check", bosc, duel, "--set", "hull=120", "-n", "2000", "--no-progress"});
    INFO(r.err);
    CHECK(r.code != 2);
    CHECK(r.out.find("bosconian | sectors=36 bases=2d6 layout=random hull=120") !=
          std::string::npos);
    CHECK(r.out.find("dimension-duel | hp=75") != std::string::npos);
    CHECK(r.err.find("dimension-duel.baseline: note: dimension-duel has no rule option 'hull': "
                     "--set hull=120 not applied to it") != std::string::npos);
    const fs::path file = write_temp("both.toml", "hull = 120\nhp = 70\n");
    const auto f =
        test::cli({"check", bosc, duel, "--rules", file.string(), "-n", "2000", "--no-progress"});
    INFO(f.err);
    CHECK(f.code != 2);
    CHECK(f.out.find("hull=120") != std::string::npos);
    CHECK(f.out.find("dimension-duel | hp=70") != std::string::npos);
    CHECK(f.err.find(file.string() + ":2: bosconian has no rule option 'hp'") != std::string::npos);
    // A variant file's option that none of the games has is refused, as a --set's is.
    const fs::path typo = write_temp("typo.toml", "hp = 70\nhul = 120\n");
    const auto refused = test::cli({"check", bosc, duel, "--rules", typo.string()});
    CHECK(refused.code == 2);
    CHECK(refused.err == "odds check: " + typo.string() +
                             ":2: no game of the baselines given has a rule option 'hul'\n");
    const auto none = test::cli({"check", bosc, duel, "--set", "hul=120"});
    CHECK(none.code == 2);
    CHECK(none.err ==
          "odds check: --set hul=120: no game of the baselines given has a rule option "
          "'hul'\n");
}

TEST_CASE("odds rules writes values as the game reads them, and knows the book's in any spelling",
          "[rules-file]") {
    // Issue 40: hull=0100 was written "hull = 0100", which TOML (and so --rules) refuses; the
    // book's values spelt otherwise were echoed as changes.
    const auto r = test::cli({"rules", "bosconian", "--set", "hull=0120", "--set",
                              "asteroid.damage=d6", "--set", "cosmo_mine.destroyed_on=2,3,4,5"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("\nhull = 120\n") != std::string::npos);
    CHECK(r.out.find("Rule book: 100.") != std::string::npos);
    CHECK(r.out.find("Rule book: 1d6") == std::string::npos);  // d6 is the book's 1d6
    CHECK(r.out.find("Rule book: 2-5") == std::string::npos);  // 2,3,4,5 is the book's 2-5
    const fs::path file = write_temp("read-back.toml", r.out);
    CHECK(test::cli({"run", "bosconian", "-n", "10", "--no-progress", "--rules", file.string()})
              .code == 0);
    const auto naval = test::cli({"rules", "naval", "--set", "sinking.cannon=-02"});
    REQUIRE(naval.code == 0);
    CHECK(naval.out.find("cannon = -2\n") != std::string::npos);
    const auto msc = test::cli({"rules", "msc", "--set", "swap_homes=0"});
    REQUIRE(msc.code == 0);
    CHECK(msc.out.find("Rule book: false") == std::string::npos);
}

TEST_CASE("provenance records a variant alike from --rules or --set, in any spelling or order",
          "[rules-file]") {
    // Issue 40: an option from --rules landed before --seed and as typed, so shards of one run
    // made with --rules and --set, or with hull=0120 and hull=120, refused to merge.
    const fs::path file = write_temp("prov.toml", "hull = 120\nbase_cannons = 5\n");
    std::vector<std::string> lines_seen;
    for (const std::vector<std::string>& how :
         {std::vector<std::string>{"--rules", file.string()},
          std::vector<std::string>{"--set", "hull=0120", "--set", "base_cannons=5"},
          std::vector<std::string>{"--set", "base_cannons=5", "--set", "hull=120"}}) {
        const fs::path out = test::temp_path("rules", "prov-out");
        fs::remove_all(out);
        std::vector<std::string> args{"run", "bosconian",     "-n",    "10",        "--seed",
                                      "3",   "--no-progress", "--out", out.string()};
        args.insert(args.end(), how.begin(), how.end());
        const auto r = test::cli(args);
        INFO(r.err);
        REQUIRE(r.code == 0);
        lines_seen.push_back(test::slurp(out / "provenance.csv"));
        fs::remove_all(out);
    }
    CHECK(lines_seen[0].find("odds run bosconian --playouts=10 --seed=3 --set=base_cannons=5 "
                             "--set=hull=120") != std::string::npos);
    CHECK(lines_seen[0] == lines_seen[1]);
    CHECK(lines_seen[0] == lines_seen[2]);
}
