// Minimal Space Combat: The Strategic Game, the star map (ruling M1). The default map is the
// seed's own example system map, transcribed in `example-map.txt` beside this file and built into
// the program; `map=PATH` plays a designer's own map in the same format (M1b). `parse_map` reads
// that format: rows of hexes in odd-q offset layout (odd columns sit half a hex lower), '.' empty
// space, '*' a star system, 'H' a home system (the first H read, in row order, is side A's, the
// second side B's); a line whose first word starts with '#' is a comment, blank lines are skipped
// (read through engine/line_reader.hpp). At most kMaxMapSide columns and rows,
// every row as wide as the first, exactly two homes, at least one other system, at most
// kMaxSystems systems in all.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/hex.hpp"

namespace odds::msc {

inline constexpr int kMaxSystems = 128;  // the homes included
inline constexpr int kMaxMapSide = 64;

struct StarMap {
    int width = 0, height = 0;
    std::array<hex::Hex, 2> home{};  // side A's home, side B's
    std::vector<hex::Hex> systems;   // every other star system, in row order
    bool contains(const hex::Hex& h) const noexcept {
        return hex::Bounds{width, height}.contains(h);
    }
};

// Reads a map; throws UsageError "ORIGIN:LINE: what is wrong" (ORIGIN names the file: its path).
StarMap parse_map(std::string_view text, std::string_view origin = "map");

// Reads and parses the map file at `path`; throws UsageError naming the file when it cannot be
// read or is malformed.
std::shared_ptr<const StarMap> read_map_file(const std::string& path);

// The seed's example system map.
const StarMap& example_map();

}  // namespace odds::msc
