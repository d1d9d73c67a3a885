// Minimal Space Combat: The Strategic Game, the star map (ruling M1). The default map is the
// seed's own example system map, transcribed in `example-map.txt` beside this file and built into
// the program; `parse_map` reads that format: 26 columns x 22 rows of hexes in odd-q offset
// layout, '.' empty space, '*' a star system, 'H' a home system (the first H read, in row order,
// is side A's, the second side B's), '#' lines are comments.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/hex.hpp"

namespace odds::msc {

inline constexpr int kMaxSystems = 128;

struct StarMap {
    int width = 0, height = 0;
    std::array<hex::Hex, 2> home{};       // side A's home, side B's
    std::vector<hex::Hex> systems;        // every other star system, in row order
    bool contains(const hex::Hex& h) const noexcept { return hex::Bounds{width, height}.contains(h); }
};

// Reads a map; throws UsageError naming the line and what is wrong.
StarMap parse_map(std::string_view text);

// The seed's example system map.
const StarMap& example_map();
std::string_view example_map_text();

}  // namespace odds::msc
