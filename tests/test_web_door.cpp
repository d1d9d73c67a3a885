// The web page's door (sim/web/door.hpp), natively: a request answers as the CLI answers the same
// options (its table, its one-line errors, its exit code), a shard it plays is the CLI's shard
// byte for byte, and its merge of shards writes one process's files; stopped, the shards played
// so far merge as a partial run.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "sim/cli/spec.hpp"
#include "sim/web/door.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

std::map<std::string, std::string> files_of(const fs::path& dir) {
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = test::slurp(e.path());
    return out;
}

}  // namespace

TEST_CASE("the door answers a request as the CLI answers the same options", "[web]") {
    const auto door = web::call("run\ngame=bosconian\nplayouts=3000\nseed=7\nset=hull=101");
    const auto cli = test::cli({"run", "bosconian", "-n", "3000", "--seed", "7", "--set",
                                "hull=101", "--threads", "1", "--no-progress"});
    CHECK(door.code == 0);
    CHECK(door.out == cli.out);
    CHECK(door.out.find("3000") != std::string::npos);

    const auto two = web::call("exact\ngame=dimension_duel");
    const auto two_cli = test::cli({"exact", "dimension_duel", "--threads", "1"});
    CHECK(two.code == two_cli.code);
    CHECK(two.out == two_cli.out);
}

TEST_CASE("the door takes each command's declared options, its defaults as declared", "[web]") {
    for (const auto& c : web::door_commands()) {
        std::set<std::string> declared, door;
        const auto declaration = cli::options_of(cli::find_command(c.name));
        for (const auto& o : declaration.options())
            if (o->long_name() != "help" && o->long_name() != "threads" &&
                o->long_name() != "no-progress")
                declared.insert(o->long_name());
        for (const auto& o : c.options) door.insert(std::string(o));
        INFO("odds " << c.name);
        CHECK(door == declared);
    }
    // The declared --seed 1 where none is given: the CLI's numbers, and its record (no --seed).
    const auto door = web::call("run\ngame=fpb\nplayouts=300");
    CHECK(door.out == test::cli({"run", "fpb", "-n", "300", "--no-progress"}).out);
    CHECK(door.out.find("seed 1 ") != std::string::npos);
}

TEST_CASE("the door's errors are the CLI's one line, exit 2", "[web]") {
    const auto bad = web::call("run\ngame=bosconian\nset=hull=0");
    const auto cli = test::cli({"run", "bosconian", "--set", "hull=0", "--no-progress"});
    CHECK(bad.code == 2);
    CHECK(bad.err == cli.err);
    CHECK(test::occurrences(bad.err, "\n") == 1);
    CHECK(web::call("run\ngame=nosuchgame").err.find("nosuchgame") != std::string::npos);
    const auto unknown = web::call("run\ngame=bosconian\nhulls=3");
    CHECK(unknown.code == 2);
    CHECK(unknown.err == "odds run: unknown option '--hulls' for odds run\n");
    // Declared by another command, not by this one (compare has no --state).
    CHECK(web::call("compare\ngame=fpb\nstate=x.txt").err ==
          "odds compare: unknown option '--state' for odds compare\n");
    CHECK(web::call("runs\ngame=bosconian").code == 2);
    CHECK(web::call("tune\ngame=bosconian").err == "odds: the page runs no command 'tune'\n");
    CHECK(web::call("run\ngame=bosconian\nseed=1\nseed=2").code == 2);
    CHECK(web::call("run\ngame=bosconian\nreport\nreport").code == 2);
    CHECK(web::call("run\ngame=bosconian\nreport=yes").err ==
          "odds run: option '--report' takes no value\n");
    CHECK(web::call("run\ngame=bosconian\nseed").code == 2);
    CHECK(web::answer_json({2, "a\"b", "c\n"}) ==
          "{\"code\": 2, \"out\": \"a\\\"b\", \"err\": \"c\\n\"}");
}

TEST_CASE("the door's shards are the CLI's and merge into one process's files", "[web][shard]") {
    const fs::path root = fs::temp_directory_path() / "odds_web_door";
    fs::remove_all(root);
    const std::string base = "game=msc\nplayouts=1500\nseed=3\npolicy=a=fast/rush\nreport";
    // One process, by the CLI.
    REQUIRE(test::cli({"run", "msc", "-n", "1500", "--seed", "3", "--policy", "a=fast/rush",
                       "--report", "--no-progress", "--out", (root / "one").string()})
                .code == 0);
    // Shard 2 of 3 by the CLI and by the door: the same file.
    REQUIRE(
        test::cli({"run", "msc", "-n", "1500", "--seed", "3", "--policy", "a=fast/rush", "--report",
                   "--shard", "2/3", "--no-progress", "--out", (root / "cli").string()})
            .code == 0);
    for (int i = 1; i <= 3; ++i) {
        const auto a = web::call("run\n" + base + "\nshard=" + std::to_string(i) +
                                 "/3\nout=" + (root / "shards").string());
        REQUIRE(a.code == 0);
    }
    const std::string name = "shard-2-of-3.odds";
    CHECK(test::slurp(root / "shards" / name) == test::slurp(root / "cli" / name));
    // Merged by the door: one process's files, byte for byte.
    const auto m = web::call("merge\ndir=" + (root / "shards").string() +
                             "\nout=" + (root / "merged").string());
    REQUIRE(m.code == 0);
    CHECK(files_of(root / "merged") == files_of(root / "one"));

    // A stop: shards 1 and 3 alone merge with allow-gaps, as a partial run.
    fs::remove(root / "shards" / name);
    CHECK(
        web::call("merge\ndir=" + (root / "shards").string() + "\nout=" + (root / "gappy").string())
            .code == 2);
    const auto partial = web::call("merge\ndir=" + (root / "shards").string() +
                                   "\nout=" + (root / "partial").string() + "\nallow-gaps");
    CHECK(partial.code == 130);
    CHECK(test::slurp(root / "partial" / "summary.csv").find("partial") != std::string::npos);
    fs::remove_all(root);
}
