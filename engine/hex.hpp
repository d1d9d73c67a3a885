// Hex geometry for the hex-map games (Naval Duel, Minimal Space Combat): flat-topped hexes in
// axial coordinates (q, r), cube distance, the six facings, odd-q offset maps, and exact bearing
// tests between hex centres (the broadside arcs of N6 and the bow and stern wedges of N9), and
// the bearing itself in degrees.
//
// Bearings are decided in exact integer arithmetic: with hex centres at x = 3q/2,
// y = sqrt(3) (r + q/2), the dot product of two centre-to-centre vectors is rational, so
// |cos| <= 1/2 (a broadside, 60..120 or 240..300 degrees, inclusive) and |cos| >= sqrt(3)/2
// (within 30 degrees of bow or stern, inclusive) compare integers, never rounded angles.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace odds::hex {

struct Hex {
    int q = 0, r = 0;
    constexpr int s() const noexcept { return -q - r; }
    constexpr bool operator==(const Hex&) const = default;
    constexpr Hex operator+(const Hex& o) const noexcept { return {q + o.q, r + o.r}; }
    constexpr Hex operator-(const Hex& o) const noexcept { return {q - o.q, r - o.r}; }
};

// The six facings, clockwise from north (flat-topped hexes: a hex side faces north).
enum Facing : int { kN, kNE, kSE, kS, kSW, kNW };
inline constexpr std::array<Hex, 6> kDirections{
    {{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}}};

constexpr Hex neighbour(const Hex& h, int facing) noexcept {
    return h + kDirections[static_cast<std::size_t>(((facing % 6) + 6) % 6)];
}
constexpr int turn(int facing, int steps) noexcept { return ((facing + steps) % 6 + 6) % 6; }

// |x| in a constant expression on any library (std::abs is constexpr in C++23; libc++ 14, the
// web build's, has it not, and naval's arc tables are computed at compile time).
constexpr int magnitude(int x) noexcept { return x < 0 ? -x : x; }

constexpr int distance(const Hex& a, const Hex& b) noexcept {
    const Hex d = a - b;
    return (magnitude(d.q) + magnitude(d.r) + magnitude(d.s())) / 2;
}

// 4 x the dot product of the centre vectors of a and b (exact: an integer).
constexpr long long dot4(const Hex& a, const Hex& b) noexcept {
    return 9LL * a.q * b.q + 3LL * (2LL * a.r + a.q) * (2LL * b.r + b.q);
}

// The bearing, in degrees clockwise from the heading `facing` (0..360), from the centre of
// `from` to the centre of `to` (for reports and policies; the arc tests below never round).
inline double bearing(const Hex& from, int facing, const Hex& to) noexcept {
    const Hex v = to - from;
    const double x = 1.5 * v.q, y = 0.8660254037844386 * (2 * v.r + v.q);  // y: south
    double d = std::atan2(x, -y) * 57.29577951308232 - 60.0 * facing;
    while (d < 0) d += 360;
    while (d >= 360) d -= 360;
    return d;
}

// Is `target` abeam of a ship at `from` heading `facing`: bearing 60-120 or 240-300, inclusive?
constexpr bool in_broadside(const Hex& from, int facing, const Hex& target) noexcept {
    const Hex v = target - from;
    if (v == Hex{}) return false;
    const Hex h = kDirections[facing];
    const long long d = dot4(h, v);
    return 4 * d * d <= dot4(h, h) * dot4(v, v);  // cos^2 <= 1/4
}

// Is `from` within 30 degrees of the bow or the stern of a ship at `target` heading `facing`?
constexpr bool in_bow_or_stern(const Hex& target, int facing, const Hex& from) noexcept {
    const Hex v = from - target;
    if (v == Hex{}) return false;
    const Hex h = kDirections[facing];
    const long long d = dot4(h, v);
    return 4 * d * d >= 3 * dot4(h, h) * dot4(v, v);  // cos^2 >= 3/4
}

// Odd-q offset maps (columns of flat-topped hexes, odd columns shoved down half a hex), as the
// Minimal Space Combat seed map is drawn: column `col`, row `row`, both from 0.
constexpr Hex from_offset(int col, int row) noexcept { return {col, row - (col - (col & 1)) / 2}; }
constexpr int offset_col(const Hex& h) noexcept { return h.q; }
constexpr int offset_row(const Hex& h) noexcept { return h.r + (h.q - (h.q & 1)) / 2; }

// A width x height rectangle of hexes in odd-q offset coordinates.
struct Bounds {
    int width = 0, height = 0;
    constexpr bool contains(const Hex& h) const noexcept {
        const int c = offset_col(h), r = offset_row(h);
        return c >= 0 && c < width && r >= 0 && r < height;
    }
};

}  // namespace odds::hex
