// The Minimal Space Combat example map: the seed's map as transcribed, 2 homes and 30 systems at
// their positions; bad maps refused.
#include <catch2/catch.hpp>
#include <utility>

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
    // Every system (column, row), read off the shared transcription (../shared/maps) apart
    // from the parser.
    const std::pair<int, int> systems[] = {
        {12, 2}, {16, 2}, {8, 3}, {17, 4}, {24, 4}, {5, 5}, {10, 5}, {24, 6}, {7, 7}, {15, 7},
        {20, 7}, {5, 9}, {10, 10}, {22, 10}, {4, 11}, {19, 11}, {23, 11}, {5, 13}, {18, 13}, {10, 14},
        {6, 15}, {18, 15}, {0, 16}, {3, 17}, {8, 17}, {23, 17}, {14, 18}, {5, 19}, {1, 20}, {22, 20}};
    for (const auto& [col, row] : systems) {
        INFO(col << "," << row);
        CHECK(has(col, row));
    }
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
