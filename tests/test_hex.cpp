// Hex geometry, exhaustively on small radii against brute-force geometry: floating-point hex
// centres, atan2 bearings in degrees, a breadth-first search for distance.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <queue>
#include <vector>

#include "engine/hex.hpp"

using namespace odds::hex;

namespace {

constexpr int kRadius = 7;

std::vector<Hex> disc(int radius) {
    std::vector<Hex> out;
    for (int q = -radius; q <= radius; ++q)
        for (int r = -radius; r <= radius; ++r)
            if (distance({0, 0}, {q, r}) <= radius) out.push_back({q, r});
    return out;
}

// The centre of a flat-topped hex of unit size, y pointing south.
std::pair<double, double> centre(const Hex& h) {
    return {1.5 * h.q, std::sqrt(3.0) * (h.r + h.q / 2.0)};
}

// Clockwise degrees from the heading `facing` (0 = north) to the vector a -> b.
double brute_bearing(const Hex& a, int facing, const Hex& b) {
    const auto [ax, ay] = centre(a);
    const auto [bx, by] = centre(b);
    const double to = std::atan2(bx - ax, -(by - ay)) * 180 / M_PI;  // clockwise from north
    double d = to - 60.0 * facing;
    while (d < 0) d += 360;
    while (d >= 360) d -= 360;
    return d;
}

}  // namespace

TEST_CASE("hex directions: six neighbours at distance 1, clockwise from north", "[hex]") {
    for (int f = 0; f < 6; ++f) {
        CHECK(distance({0, 0}, neighbour({0, 0}, f)) == 1);
        CHECK(brute_bearing({0, 0}, 0, neighbour({0, 0}, f)) == Approx(60.0 * f).margin(1e-9));
        CHECK(neighbour(neighbour({0, 0}, f), turn(f, 3)) == Hex{0, 0});
    }
    CHECK(turn(5, 1) == 0);
    CHECK(turn(0, -1) == 5);
}

TEST_CASE("hex distance equals breadth-first steps, exhaustively", "[hex]") {
    std::map<std::pair<int, int>, int> steps;
    std::queue<Hex> todo;
    steps[{0, 0}] = 0;
    todo.push({0, 0});
    while (!todo.empty()) {
        const Hex h = todo.front();
        todo.pop();
        const int d = steps[{h.q, h.r}];
        if (d == 2 * kRadius) continue;
        for (int f = 0; f < 6; ++f) {
            const Hex n = neighbour(h, f);
            if (!steps.count({n.q, n.r})) {
                steps[{n.q, n.r}] = d + 1;
                todo.push(n);
            }
        }
    }
    for (const Hex& a : disc(kRadius)) {
        INFO(a.q << "," << a.r);
        CHECK(distance({0, 0}, a) == steps[{a.q, a.r}]);
        for (const Hex& b : disc(2)) CHECK(distance(a, a + b) == distance({0, 0}, b));
    }
}

TEST_CASE("bearings between hex centres", "[hex]") {
    for (int f = 0; f < 6; ++f) {
        CHECK(odds::hex::bearing({0, 0}, 0, neighbour({0, 0}, f)) == Approx(60.0 * f).margin(1e-9));
        CHECK(std::fmod(odds::hex::bearing({0, 0}, f, neighbour({0, 0}, f)) + 180, 360) ==
              Approx(180).margin(1e-9));
    }
    CHECK(odds::hex::bearing({0, 0}, kN, {2, -1}) == Approx(90));   // due east: x 3, y 0
    CHECK(odds::hex::bearing({0, 0}, kN, {-2, 1}) == Approx(270));  // due west
    CHECK(odds::hex::bearing({0, 0}, kS, {2, -1}) == Approx(270));  // east, heading south
    for (const Hex& t : disc(kRadius))
        if (!(t == Hex{})) {
            INFO(t.q << "," << t.r);
            CHECK(odds::hex::bearing({0, 0}, kN, t) ==
                  Approx(brute_bearing({0, 0}, kN, t)).margin(1e-9));
        }
}

TEST_CASE("broadside arcs and bow/stern wedges equal atan2 bearings, exhaustively", "[hex]") {
    int abeam = 0, wedge = 0;
    for (int f = 0; f < 6; ++f)
        for (const Hex& t : disc(kRadius)) {
            if (t == Hex{}) continue;
            const double b = brute_bearing({0, 0}, f, t);
            const double eps = 1e-9;
            const bool want_abeam =
                (b >= 60 - eps && b <= 120 + eps) || (b >= 240 - eps && b <= 300 + eps);
            // From the ship at t heading f, is the origin within 30 degrees of bow or stern?
            const double back = brute_bearing(t, f, {0, 0});
            const bool want_wedge =
                back <= 30 + eps || back >= 330 - eps || (back >= 150 - eps && back <= 210 + eps);
            INFO("facing " << f << " target " << t.q << "," << t.r << " bearing " << b);
            CHECK(in_broadside({0, 0}, f, t) == want_abeam);
            CHECK(in_bow_or_stern(t, f, {0, 0}) == want_wedge);
            abeam += want_abeam;
            wedge += want_wedge;
        }
    CHECK(abeam > 0);
    CHECK(wedge > 0);
    // Boundaries are inclusive: a hex at exactly 60 degrees (the next hex side's line) counts.
    CHECK(in_broadside({0, 0}, kN, neighbour({0, 0}, kNE)));
}

TEST_CASE("odd-q offset coordinates round-trip and bound a rectangle", "[hex]") {
    const Bounds b{26, 22};
    int inside = 0;
    for (int col = -2; col < 28; ++col)
        for (int row = -2; row < 24; ++row) {
            const Hex h = from_offset(col, row);
            CHECK(offset_col(h) == col);
            CHECK(offset_row(h) == row);
            inside += b.contains(h);
        }
    CHECK(inside == 26 * 22);
    // In odd-q, an odd column sits half a hex lower: (1, 0) is south-east of (0, 0).
    CHECK(from_offset(1, 0) == neighbour(from_offset(0, 0), kSE));
    CHECK(from_offset(2, 0) == neighbour(from_offset(1, 0), kNE));
}
