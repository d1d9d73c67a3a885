// The Minimal Space Combat example map: the built-in map against the shared transcription
// (../shared/maps, read here without the parser) and that transcription against the seed's own
// art; map files (M1b): the shared file plays exactly as the built-in map, bad files refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/msc/map.hpp"
#include "engine/rule_options.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::msc;

namespace {

const std::string kShared = ODDS_SHARED_DIR;

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    INFO("reading " << path << " (the shared folder sits beside the repository)");
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The grid's rows, comment lines dropped: read character by character, apart from the parser.
std::vector<std::string> grid_rows(const std::string& text) {
    std::vector<std::string> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') rows.push_back(line);
    return rows;
}

struct Cell {
    int col, row;
    bool operator==(const Cell&) const = default;
};

std::vector<Cell> cells_of(const std::vector<std::string>& rows, char what) {
    std::vector<Cell> out;
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (std::size_t c = 0; c < rows[r].size(); ++c)
            if (rows[r][c] == what) out.push_back({static_cast<int>(c), static_cast<int>(r)});
    return out;
}

Cell cell_of(const hex::Hex& h) { return {hex::offset_col(h), hex::offset_row(h)}; }

// A scratch file, removed at the end of the test.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& text, const char* name = "odds-test-map.txt")
        : path((std::filesystem::temp_directory_path() / name).string()) {
        std::ofstream(path, std::ios::binary) << text;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("M1 the built-in map is the shared transcription, cell for cell", "[msc][map][M1]") {
    const auto rows = grid_rows(slurp(kShared + "/maps/msc-example.txt"));
    const StarMap& m = example_map();
    REQUIRE(rows.size() == 22);
    CHECK(m.height == 22);
    CHECK(m.width == static_cast<int>(rows[0].size()));
    CHECK(m.width == 26);
    const auto homes = cells_of(rows, 'H');
    REQUIRE(homes.size() == 2);
    CHECK(cell_of(m.home[0]) == homes[0]);  // side A's: the top one
    CHECK(cell_of(m.home[1]) == homes[1]);
    CHECK(homes[0] == Cell{22, 1});
    CHECK(homes[1] == Cell{2, 20});
    const auto stars = cells_of(rows, '*');
    CHECK(stars.size() == 30);
    REQUIRE(m.systems.size() == stars.size());
    for (std::size_t i = 0; i < stars.size(); ++i) {
        INFO("system " << i << " at column " << stars[i].col << ", row " << stars[i].row);
        CHECK(cell_of(m.systems[i]) == stars[i]);
    }
    CHECK(hex::distance(m.home[0], m.home[1]) == 29);
    // The text built into the program, parsed, is the shared file parsed.
    const StarMap shared = parse_map(slurp(kShared + "/maps/msc-example.txt"));
    CHECK(shared.home == m.home);
    CHECK(shared.systems == m.systems);
}

TEST_CASE("M1 the shared grid, drawn back as hex art and flattened, is the seed's map",
          "[msc][map][M1]") {
    // The seed's drawing: a line of hex tops, then per row of hexes a line through the even
    // columns' centres ('/ \_/ \_ ... \_/') and one through the odd columns' ('\_/ \_/ ... \');
    // the seed joined its text lines with spaces (runs of spaces folded to one).
    const auto rows = grid_rows(slurp(kShared + "/maps/msc-example.txt"));
    auto face = [](char c) { return c == '.' ? ' ' : c; };
    const std::size_t w = rows[0].size();
    std::vector<std::string> art{" _"};
    for (std::size_t c = 2; c < w; c += 2) art[0] += "   _";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        std::string even = "/", odd = "\\_/";
        for (std::size_t c = 0; c < w; c += 2)
            even += std::string(1, face(rows[r][c])) + (c + 2 < w ? "\\_/" : "\\_");
        if (r > 0) even += "/";
        for (std::size_t c = 1; c < w; c += 2)
            odd += std::string(1, face(rows[r][c])) + (c + 2 < w ? "\\_/" : "\\");
        art.push_back(even);
        art.push_back(odd);
    }
    std::string flat;
    for (const auto& line : art) flat += (flat.empty() ? "" : " ") + line;
    flat = std::regex_replace(flat, std::regex(" +"), " ");
    const std::string seed = slurp(kShared + "/seeds/001_89df101e934a8138.txt");
    const auto at = seed.find("Example System Map ");
    REQUIRE(at != std::string::npos);
    const std::string drawn = flat.substr(1);  // the seed's text folds the leading space away
    CHECK(seed.compare(at + 19, drawn.size(), drawn) == 0);
}

TEST_CASE("M1b map=PATH of the shared file plays exactly as the built-in map", "[msc][map][M1b]") {
    const std::string path = kShared + "/maps/msc-example.txt";
    const Tally built_in = test::monte_carlo("msc", {}, {}, 300, 7);
    const Tally from_file = test::monte_carlo("msc", {{"map", path}}, {}, 300, 7);
    const auto specs = find_game("msc").prepare({}, {})->metrics;
    for (std::size_t k = 0; k < specs.size(); ++k) {
        INFO(specs[k].name);
        CHECK(test::counts(built_in, static_cast<int>(k)) ==
              test::counts(from_file, static_cast<int>(k)));
    }
    // The scenario names the file.
    CHECK(find_game("msc").prepare({{"map", path}}, {})->scenario.find("map=" + path) == 0);
}

TEST_CASE("M1b a designer's own map plays", "[msc][map][M1b]") {
    const TempFile f("# a small map\n..H..\n.*.*.\n..*..\n.*.*.\n..H..\n");
    const Tally t = test::monte_carlo("msc", {{"map", f.path}}, {}, 50, 3);
    CHECK(t.playouts() == 50);
    const auto c = test::counts(t, 10);  // systems_owned_b: at most the map's 5 + 2
    CHECK(c.size() <= 8);
}

TEST_CASE("M1b bad map files: one line naming the file, the line and what is wrong, exit 2",
          "[msc][map][M1b][cli]") {
    struct Case {
        const char* text;
        const char* says;
    };
    const Case cases[] = {
        {"..H..\n.*.*\n..H..\n", ":2: a row of 4 hexes; the first (line 1) has 5"},
        {"# top\n..H..\n.*x*.\n..H..\n", ":3: column 2: 'x' is not '.'"},
        {"..H..\n.*.*.\n.....\n", ": 1 home systems ('H'); a map has 2"},
        {"..H..\n.*H*.\n..H..\n", ":3: a third home system"},
        {"..H..\n.....\n..H..\n", ": no star systems"},
        {"# only comments\n", ": no rows of hexes"},
    };
    for (const auto& c : cases) {
        const TempFile f(c.text);
        const auto r =
            test::cli({"run", "msc", "--set", "map=" + f.path, "-n", "10", "--no-progress"});
        INFO(c.text << "\n-> " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(f.path + c.says) != std::string::npos);  // FILE:LINE: WHAT
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
    const auto missing =
        test::cli({"run", "msc", "--set", "map=/nonexistent/odds.map", "-n", "10"});
    CHECK(missing.code == 2);
    CHECK(missing.err.find("map file '/nonexistent/odds.map' cannot be read: No such file") !=
          std::string::npos);
    const auto folder = test::cli({"run", "msc", "--set", "map=/tmp", "-n", "10"});
    CHECK(folder.code == 2);
    CHECK(folder.err.find("is a folder") != std::string::npos);
    // Issue 30: a device is no map file (/dev/zero used to be read until memory ran out).
    const auto device = test::cli({"run", "msc", "--set", "map=/dev/zero", "-n", "10"});
    CHECK(device.code == 2);
    CHECK(device.err.find("map file '/dev/zero' is not a regular file") != std::string::npos);
}

TEST_CASE("bad maps are refused with a line number", "[msc][map]") {
    CHECK_THROWS_AS(parse_map(""), UsageError);
    CHECK_THROWS_AS(parse_map("H..\n..x\n..H\n"), UsageError);
    CHECK_THROWS_AS(parse_map("H..\n....\n..H\n"), UsageError);
    CHECK_THROWS_AS(parse_map("H.H\n.H.\n"), UsageError);
    CHECK_THROWS_AS(parse_map("H..\n...\n"), UsageError);
    CHECK_THROWS_AS(parse_map(std::string(65, '.') + "\n"), UsageError);  // wider than 64
    const StarMap ok = parse_map("# a comment\nH.*\n..H\n");
    CHECK(ok.systems.size() == 1);
}
