// Shards and odds merge (sim/executor.hpp, docs/cluster.md): every command played as N shards and
// merged writes byte for byte the files of one process with the same seed, for several N (N
// above the number of chunks too); bad merges are refused with one line, exit 2, nothing
// written; counters are 64-bit past 2^32.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <sstream>

#include "sim/executor.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

const auto odds_cli = [](std::vector<std::string> args) { return test::cli(std::move(args)); };

// Every file under `dir`, by its path relative to it, with its bytes.
std::map<std::string, std::string> files_of(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::slurp(e.path());
    return out;
}

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// Plays `args` as one process and as `n` shards merged; both write into folders under `root`.
// Returns the two folders' files. baseline: --out names a file.
std::pair<std::map<std::string, std::string>, std::map<std::string, std::string>> one_and_merged(
    const std::vector<std::string>& args, int n, const fs::path& root, bool baseline = false) {
    fs::remove_all(root);
    const fs::path one = root / "one", shards = root / "shards", merged = root / "merged";
    const auto out_of = [&](const fs::path& dir) {
        return baseline ? (dir / "b.baseline").string() : dir.string();
    };
    const auto single = odds_cli(with(args, {"--no-progress", "--out", out_of(one)}));
    REQUIRE(single.code == 0);
    for (int i = 1; i <= n; ++i) {
        const auto r = odds_cli(
            with(args, {"--no-progress", "--threads", std::to_string(1 + i % 2), "--shard",
                        std::to_string(i) + "/" + std::to_string(n), "--out", shards.string()}));
        INFO(r.err);
        REQUIRE(r.code == 0);
    }
    const auto m = odds_cli({"merge", shards.string(), "--out", out_of(merged)});
    INFO(m.err);
    REQUIRE(m.code == 0);
    // The table on stdout too (a baseline's names the file it wrote).
    std::string said = m.out;
    if (baseline)
        if (const auto at = said.find(out_of(merged)); at != std::string::npos)
            said.replace(at, out_of(merged).size(), out_of(one));
    CHECK(said == single.out);
    return {files_of(one), files_of(merged)};
}

}  // namespace

TEST_CASE("shards merged write one process's files byte for byte, any command and N",
          "[shard][cli]") {
    const fs::path root = test::temp_path("shard", "identity");
    struct Case {
        std::vector<std::string> args;
        std::vector<int> ns;  // the last above the number of work units
        bool baseline = false;
    };
    const Case cases[] = {
        // 5 chunks of 256
        {{"run", "race", "-n", "1280", "--seed", "7", "--report"}, {1, 3, 8}},
        // 2 combinations x 2 chunks
        {{"sweep", "race", "--vary", "goal=10:20:10", "-n", "512", "--seed", "3", "--report"},
         {3, 6}},
        // 2 pairings x 3 chunks of 256
        {{"tournament", "dimension-duel", "--policy", "dice", "--policy", "aggressor", "-n", "768"},
         {2, 7}},
        // 10 chunks of 1024, every policy on the same dice
        {{"compare", "race", "--policy", "walk", "--policy", "roll", "--policy", "random", "-n",
          "10000"},
         {4, 13}},
        // variants x policies on the same dice, 3 chunks of 1024
        {{"compare", "race", "--variant", "book", "--variant", "goal=14", "--policy", "walk",
          "--policy", "roll", "-n", "3000", "--report"},
         {2, 5}},
        {{"baseline", "race", "-n", "1280", "--set", "goal=14"}, {2, 7}, true},  // 5 chunks
        // a ladder: chunks of 2 games of every rung (solo), of every pairing (two seats)
        {{"skill", "race", "--policy", "random", "--policy", "walk", "--budgets", "none", "-n",
          "600"},
         {3, 400}},
        {{"skill", "dimension-duel", "--policy", "dice", "--policy", "aggressor", "--budgets",
          "none", "-n", "300", "--report"},
         {2, 5}},
        // restricted play: every restriction and the rules as written on the same dice
        {{"restrict", "race", "--play", "walk", "-n", "500", "--report"}, {2, 9}},
        // the shape of a game: a game a chunk, its p's summed in game order (exact p's, and
        // rollouts' p's, whose sums of doubles must come out bit for bit)
        {{"shape", "race", "-n", "200", "--seed", "4"}, {3, 250}},
        {{"shape", "race", "-n", "120", "--estimator", "rollouts", "--rollouts", "7"}, {2, 5}},
        {{"shape", "dimension-duel", "-n", "150", "--report"}, {4}},
    };
    for (const auto& c : cases)
        for (const int n : c.ns) {
            INFO(c.args[0] << " as " << n << " shards");
            const auto [one, merged] = one_and_merged(c.args, n, root, c.baseline);
            REQUIRE(!one.empty());
            CHECK(merged == one);
            // --report given to the shards: the merge writes the same page (and provenance.csv).
            const bool report = std::find(c.args.begin(), c.args.end(), "--report") != c.args.end();
            CHECK(one.count("report.html") == (report ? 1u : 0u));
        }
    fs::remove_all(root);
}

// odds check plays its fixed checks as one plan: one job a baseline, each with its own seed and
// playouts, over several games; sharded and merged, the verdicts, check.csv and --json are one
// process's (but the seconds, which time the merge).
TEST_CASE("odds check --shard: the baselines' shards merged give one process's verdicts",
          "[shard][cli]") {
    const fs::path dir = test::temp_path("shard", "check-baselines");
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string race = (dir / "race.baseline").string(),
                      duel = (dir / "duel.baseline").string();
    REQUIRE(odds_cli({"baseline", "race", "-n", "1280", "--set", "goal=14", "--out", race,
                      "--no-progress"})
                .code == 0);
    REQUIRE(odds_cli({"baseline", "dimension-duel", "-n", "700", "--seed", "5", "--out", duel,
                      "--no-progress"})
                .code == 0);
    const fs::path root = test::temp_path("shard", "check");
    // Exact (every count), then statistical (another seed and playouts for both).
    for (const auto& more :
         {std::vector<std::string>{}, std::vector<std::string>{"--seed", "9", "-n", "1000"}})
        for (const int n : {2, 5, 13}) {  // 5 + 3 chunks, or 4 + 3; 13 above them
            INFO("check " << (more.empty() ? "exact" : "statistical") << " as " << n << " shards");
            const auto [one, merged] = one_and_merged(with({"check", race, duel}, more), n, root);
            REQUIRE(one.count("check.csv") == 1);
            CHECK(merged == one);
        }
    // A sequential check decides batch by batch: refused under --shard, nothing written.
    const auto seq = odds_cli(
        {"check", race, "--sequential", "--shard", "1/2", "--out", (root / "seq").string()});
    CHECK(seq.code == 2);
    CHECK(seq.err.find(race + " is checked sequentially (--sequential): its batches depend on "
                              "the results so far, so it cannot be shared out") !=
          std::string::npos);
    CHECK(!fs::exists(root / "seq"));
    fs::remove_all(root);
    fs::remove_all(dir);
}

// Shards of different runs, overlapping or missing chunks, truncated or edited files.
TEST_CASE("merge refuses bad shards: one line naming them, exit 2, nothing written",
          "[shard][cli]") {
    const fs::path root = test::temp_path("shard", "refusals");
    fs::remove_all(root);
    const std::vector<std::string> base = {"run", "race", "--no-progress"};
    const auto shard = [&](const std::string& dir, const std::string& which,
                           std::vector<std::string> more = {}) {
        if (std::find(more.begin(), more.end(), "-n") == more.end())
            more.insert(more.end(), {"-n", "1280"});  // 5 chunks of 256
        more.insert(more.end(), {"--shard", which, "--out", (root / dir).string()});
        const auto r = odds_cli(with(base, more));
        INFO(r.err);
        REQUIRE(r.code == 0);
        return root / dir /
               ("shard-" + which.substr(0, which.find('/')) + "-of-" +
                which.substr(which.find('/') + 1) + ".odds");
    };
    const fs::path s1 = shard("a", "1/3"), s2 = shard("a", "2/3"), s3 = shard("a", "3/3");
    const fs::path out = root / "out";
    struct Case {
        std::vector<std::string> inputs;
        std::string names;  // what the message must name
    };
    std::vector<Case> cases = {
        {{s1.string(), s2.string()}, "chunks 3..4 of the 5 are missing (shard 3/3's)"},
        {{s1.string(), s3.string()}, "chunks 1..2 of the 5 are missing (shard 2/3's)"},
        {{s1.string(), s2.string(), s3.string(), s2.string()}, "overlap: both hold chunks 1..2"},
        {{s1.string(), shard("seed", "2/3", {"--seed", "9"}).string(), s3.string()},
         "different seeds ('1' and '9')"},
        {{s1.string(), shard("goal", "2/3", {"--set", "goal=12"}).string(), s3.string()},
         "different scenarios"},
        {{s1.string(), shard("policy", "2/3", {"--policy", "roll"}).string(), s3.string()},
         "different policies ('best' and 'roll')"},
        {{s1.string(), shard("playouts", "2/3", {"-n", "1281"}).string()}, "different playouts"},
        {{(root / "nothing").string()}, "neither a folder of shards nor a shard file"},
    };
    {  // another command: a baseline's shard beside a run's
        const auto r = odds_cli({"baseline", "race", "-n", "1280", "--no-progress", "--shard",
                                 "2/3", "--out", (root / "baseline").string()});
        REQUIRE(r.code == 0);
        cases.push_back({{s1.string(), (root / "baseline").string(), s3.string()},
                         "different commands ('run' and 'baseline')"});
    }
    {  // another game
        const auto r = odds_cli({"run", "bosconian", "-n", "20000", "--no-progress", "--shard",
                                 "2/3", "--out", (root / "game").string()});
        REQUIRE(r.code == 0);
        cases.push_back({{s1.string(), (root / "game").string(), s3.string()},
                         "different games ('race' and 'bosconian')"});
    }
    const std::string text = test::slurp(s2);
    const auto write = [&](const std::string& name, const std::string& content) {
        const fs::path p = root / name;
        std::ofstream(p, std::ios::binary) << content;
        return p.string();
    };
    // Truncated: cut anywhere.
    cases.push_back({{s1.string(), write("cut.odds", text.substr(0, text.size() / 2)), s3.string()},
                     "truncated"});
    cases.push_back(
        {{s1.string(), write("cut-end.odds", text.substr(0, text.size() - 1)), s3.string()},
         "truncated"});
    // Edited: one count changed, the checksum left as it was.
    std::string edited = text;
    const auto at = edited.find("state metric 0 0:");
    REQUIRE(at != std::string::npos);
    edited[at + 17] = edited[at + 17] == '1' ? '2' : '1';
    cases.push_back({{s1.string(), write("edited.odds", edited), s3.string()},
                     "checksum disagrees with its content"});
    {  // shards of another rules version than this build plays
        std::vector<std::string> renamed;
        for (const auto& s : {s1, s2, s3}) {
            sim::Shard other = sim::read_shard(test::slurp(s), s.string());
            other.rules_version = "race/0";
            renamed.push_back(write("v0-" + s.filename().string(), sim::shard_text(other)));
        }
        cases.push_back({renamed, "played under rules version race/0, this build plays " +
                                      std::string(find_game("race").rules_version)});
    }
    for (const auto& c : cases) {
        std::vector<std::string> args = {"merge"};
        args.insert(args.end(), c.inputs.begin(), c.inputs.end());
        args.insert(args.end(), {"--out", out.string()});
        const auto r = odds_cli(args);
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(c.names) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(!fs::exists(out));
    }
    // --shard's own mistakes.
    for (const std::string bad : {"0/3", "4/3", "1/0", "3", "a/b", "1/2000000"}) {
        const auto r = odds_cli(with(base, {"--shard", bad, "--out", out.string()}));
        CHECK(r.code == 2);
        CHECK(r.err.find("--shard '" + bad + "' is not valid; give I/N") != std::string::npos);
    }
    const auto no_out = odds_cli(with(base, {"--shard", "1/2"}));
    CHECK(no_out.code == 2);
    CHECK(no_out.err.find("--shard needs --out DIR") != std::string::npos);
    CHECK(!fs::exists(out));
    fs::remove_all(root);
}

// odds shape's shard holds each game's p's (sim/shape_run.hpp): a p that is no probability, or a
// game with none, is refused as the merge adds the games, one line, exit 2; a shard of more games
// than it may hold is refused before playing, one of more p's as it plays.
TEST_CASE("odds shape's shards: forged p's refused, a shard's games bounded", "[shard][shape]") {
    const fs::path root = test::temp_path("shard", "shape");
    fs::remove_all(root);
    for (const char* which : {"1/2", "2/2"}) {
        const auto r = odds_cli({"shape", "race", "-n", "40", "--no-progress", "--shard", which,
                                 "--out", (root / "a").string()});
        INFO(r.err);
        REQUIRE(r.code == 0);
    }
    const fs::path s2 = root / "a" / "shard-2-of-2.odds";
    const sim::Shard good = sim::read_shard(test::slurp(s2), s2.string());
    REQUIRE(good.states.size() == 1);
    REQUIRE(good.states[0].at(0) == "traces 20");
    REQUIRE(good.states[0].at(1).rfind("p ", 0) == 0);
    const std::pair<std::string, std::string> forged[] = {
        {"p 1.5 1", "p '1.5': a probability, 0 to 1"},
        {"p nan 1", "p 'nan': a probability, 0 to 1"},
        {"p 0.5 x", "p 'x': a probability, 0 to 1"},
        {"p", "a game of 0 p's"},
        {"scores 1 2", "'p'"},
    };
    for (const auto& [line, says] : forged) {
        sim::Shard bad = good;
        bad.states[0][1] = line;
        fs::create_directories(root / "b");
        std::ofstream(root / "b" / "shard-2-of-2.odds", std::ios::binary) << sim::shard_text(bad);
        const auto r = odds_cli({"merge", (root / "a" / "shard-1-of-2.odds").string(),
                                 (root / "b" / "shard-2-of-2.odds").string(), "--out",
                                 (root / "out").string()});
        INFO(line << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(says) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(!fs::exists(root / "out" / "shape.csv"));
    }
    const auto big = odds_cli(
        {"shape", "race", "-n", "1e6", "--shard", "1/4", "--out", (root / "big").string()});
    CHECK(big.code == 2);
    CHECK(big.err ==
          "odds shape: --shard 1/4: a shard of odds shape keeps each of its games' odds step by "
          "step, at most 200000 games; -n 1000000 needs 5 shards or more\n");
    CHECK(!fs::exists(root / "big"));
    // Long games: the p's a share keeps are bounded too (16 million, its file within what merge
    // reads): a share past it stops with one line, exit 2, and leaves no folder (a second or two).
    const auto long_games =
        odds_cli({"shape", "dimension-duel", "--set", "hp=150", "--set", "damage.die=1", "-n",
                  "400000", "--no-progress", "--shard", "1/2", "--out", (root / "long").string()});
    CHECK(long_games.code == 2);
    CHECK(long_games.err.find("games hold more than 16000000 p's") != std::string::npos);
    CHECK(!fs::exists(root / "long"));
    fs::remove_all(root);
}

TEST_CASE("counters are 64-bit: shards merged push a histogram bin past 2^32", "[shard]") {
    // Two shards whose states hold 3e9 playouts each, built directly (not played): race's
    // tally with every playout a win in 5 turns. Each holds one chunk of 3e9 playouts of a run of
    // 6e9 (merge checks a shard's playouts against its chunks).
    const auto run = find_game("race").prepare({}, {});
    constexpr std::uint64_t kEach = 3'000'000'000;
    std::vector<sim::Shard> shards(2);
    for (std::size_t i = 0; i < 2; ++i) {
        Tally t(run->metrics, run->survivals);
        for (std::size_t m = 0; m < t.metric_count(); ++m)
            REQUIRE(t.add_count(m, run->metrics[m].name == "win" ? 1 : 5, kEach));
        REQUIRE(t.add_event(0, 5, kEach));
        t.add_playouts(kEach);
        sim::Shard& s = shards[i];
        s.source = "shard " + std::to_string(i + 1);
        s.command = "run";
        s.game = "race";
        s.rules_version = std::string(find_game("race").rules_version);
        s.playouts = 2 * kEach;
        s.jobs = {{run->scenario, run->policy, 2, kEach}};
        s.index = i + 1;
        s.count = 2;
        s.first = i;
        s.last = i + 1;
        s.states.resize(1);
        sim::write_state(s.states[0], t);
        // Through the file's text and back, checksum and all.
        s = sim::read_shard(sim::shard_text(s), s.source);
    }
    auto share = sim::Executor::merge(shards);
    std::ostringstream o, e;
    sim::Plan plan;
    plan.command = "run";
    plan.game = "race";
    plan.rules_version = find_game("race").rules_version;
    plan.playouts = 2 * kEach;
    plan.jobs = {{run->scenario, run->policy, 2, kEach}};
    share.begin(plan, e);
    const RunResult r = share.play(0, *run, {}, nullptr);
    CHECK(!r.partial);
    CHECK(r.tally.playouts() == 2 * kEach);
    for (std::size_t m = 0; m < r.tally.metric_count(); ++m) {
        std::uint64_t biggest = 0;
        for (const auto c : r.tally.counts(m)) biggest = std::max(biggest, c);
        CHECK(biggest == 2 * kEach);
        CHECK(biggest > (std::uint64_t{1} << 32));
    }
    CHECK(r.tally.events(0)[5 - r.tally.lo(run->survivals[0].time)] == 2 * kEach);
}
