// Every line-oriented file odds defines is read through the one LineReader
// (engine/line_reader.hpp) and reports a bad line the same way, "FILE:LINE: WHAT" (docs/output.md,
// "Reading files back"): a baseline, a targets file, a shard (a record and a state line), a
// position and a map, one bad line each.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/msc/map.hpp"
#include "sim/baseline_file.hpp"
#include "sim/shard_file.hpp"
#include "tests/helpers.hpp"

namespace fs = std::filesystem;
using odds::test::usage_error;

namespace {

// `text` written to a scratch file; its path.
std::string written(const std::string& name, const std::string& text) {
    const fs::path p = odds::test::temp_path("formats", name);
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
    return p.string();
}

}  // namespace

TEST_CASE("every line format reports a bad line as FILE:LINE: WHAT", "[position][formats]") {
    using namespace odds;
    // A baseline: its seed line (3) is no whole number.
    const std::string base = written("b.baseline", "odds-baseline 1\ngame bosconian\nseed x\n");
    CHECK(usage_error([&] { (void)sim::read_baseline(base); }) ==
          base + ":3: seed 'x' is not a whole number from 0 to 18446744073709551615");
    // A targets file: its target (line 4, after a comment) has no number for its bound.
    const std::string targets = written(
        "t.targets", "odds-targets 1\ngame dimension-duel\n# the bar\ntarget win at least x\n");
    CHECK(usage_error([&] { (void)sim::read_baseline(targets); }) ==
          targets +
              ":4: target 'win at least x': 'x' is not a number (valid: target METRIC [pXX] at "
              "least V | at most V | within A..B [margin M])");
    // A shard (its checksum valid): a record it does not know on line 4, after the magic,
    // odds_version and command lines.
    sim::Shard s;
    s.odds_version = "0";
    s.command = "run\nbogus 1";
    CHECK(usage_error([&] { (void)sim::read_shard(sim::shard_text(s), "s.odds"); }) ==
          "s.odds:4: unknown record 'bogus'");
    // ...and a state line (line 14) whose count is none.
    s.command = "run";
    s.game = "race";
    s.jobs = {{"scenario", "policy", 1, 10}};
    s.last = 1;
    s.states = {{"tally x 1 0"}};
    const sim::Shard read = sim::read_shard(sim::shard_text(s), "s.odds");
    REQUIRE(read.state_lines.size() == 1);
    sim::StateReader in(read.states[0], read.source, &read.state_lines[0]);
    const auto head = in.line("tally");
    CHECK(usage_error([&] { (void)in.u64(head[1]); }) == "s.odds:14: 'x' is not a count");
    // A position: its turn line (3) past the duel's turns.
    dimension_duel::Options o;
    o.max_turns = 5;
    CHECK(usage_error([&] {
              (void)dimension_duel::read_position("hp tau 3\nhp kaon 3\nturn 9\nattacker tau\n",
                                                  "duel.txt", o);
          }).rfind("duel.txt:3: ", 0) == 0);
    // A map: a row (line 3, after a comment) with a hex of no kind.
    CHECK(usage_error([&] { (void)msc::parse_map("# top\n..H..\n.*x*.\n..H..\n", "m.txt"); }) ==
          "m.txt:3: column 2: 'x' is not '.' (space), '*' (a system) or 'H' (a home)");
    fs::remove(base);
    fs::remove(targets);
}
