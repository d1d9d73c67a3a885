// The Minimal Space Combat example map: the seed's map as transcribed, 2 homes and 30 systems at
// their positions; bad maps refused.
#include <catch2/catch.hpp>

#include "engine/msc/map.hpp"
#include "engine/rule_options.hpp"

using namespace odds;
using namespace odds::msc;

TEST_CASE("the seed's example map parses to 2 homes and 30 systems", "[msc][map]") {
    const StarMap& m = example_map();
    CHECK(m.width == 26);
    CHECK(m.height == 22);
    CHECK(m.systems.size() == 30);
    // Homes: side A's in row 1, column 22; side B's in row 20, column 15.
    CHECK(hex::offset_col(m.home[0]) == 22);
    CHECK(hex::offset_row(m.home[0]) == 1);
    CHECK(hex::offset_col(m.home[1]) == 15);
    CHECK(hex::offset_row(m.home[1]) == 20);
    // A few systems where the transcription puts them (column, row).
    auto has = [&](int col, int row) {
        for (const auto& h : m.systems)
            if (hex::offset_col(h) == col && hex::offset_row(h) == row) return true;
        return false;
    };
    CHECK(has(12, 2));
    CHECK(has(16, 2));
    CHECK(has(0, 16));
    CHECK(has(22, 20));
    CHECK_FALSE(has(0, 0));
    for (const auto& h : m.systems) CHECK(m.contains(h));
    CHECK(hex::distance(m.home[0], m.home[1]) > 15);  // at opposite ends
}

TEST_CASE("bad maps are refused with a line number", "[msc][map]") {
    CHECK_THROWS_AS(parse_map(""), UsageError);
    CHECK_THROWS_AS(parse_map("H..\n..x\n..H\n"), UsageError);
    CHECK_THROWS_AS(parse_map("H..\n....\n..H\n"), UsageError);
    CHECK_THROWS_AS(parse_map("H.H\n.H.\n"), UsageError);
    CHECK_THROWS_AS(parse_map("H..\n...\n"), UsageError);
    const StarMap ok = parse_map("# a comment\nH.*\n..H\n");
    CHECK(ok.systems.size() == 1);
}
