// Minimal Space Combat: The Strategic Game, the campaign (rulings M1-M9). Rules page: RULES.md
// beside this file.
//
// Two sides, A and B, each build one ship design (their policy's doctrine, or the `design_a`
// / `design_b` option) and move fleets of identical ships over a hex star map. Fixed capacity:
// kMaxFleets fleets a side and kMaxSystems systems; a run that would exceed them stops with an
// error before it starts (maps) or merges fleets (a side never holds more than kMaxFleets).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/hex.hpp"
#include "engine/metric.hpp"
#include "engine/msc/map.hpp"
#include "engine/msc/ships.hpp"
#include "engine/rule_options.hpp"

namespace odds::msc {

inline constexpr int kMaxFleets = 16;
inline constexpr int kSides = 2;
inline constexpr int kMaxRounds = 1000;  // M7a: a combat still going then ends by the attacker's retreat

struct Options {
    bool random_map = false;  // M1
    int width = 26, height = 22, systems = 30;
    int budget = 525;         // M3
    int max_turns = 300;      // M8
    std::array<std::optional<Design>, kSides> design{};  // M2: overrides the policy's doctrine
};

std::span<const OptionInfo> option_infos();
Options parse_options(const Settings& settings);
std::string scenario(const Options& o);

struct Fleet {
    hex::Hex pos{};
    int ships = 0;       // 0: the slot is free
    int arrived = 0;     // the movement order in which it last entered its hex (M7)
};

struct System {
    hex::Hex pos{};
    std::int8_t owner = -1;     // -1: nobody
    std::int8_t occupant = -1;  // the side alone here at the end of recent turns
    std::uint8_t streak = 0;    // how many turns in a row (M6)
    int captured = -100;        // the turn it was captured (M6: produces from captured + 2)
    std::int8_t home_of = -1;   // a side's home system
};

struct State {
    std::array<System, kMaxSystems> sys{};
    int n_sys = 0;
    hex::Bounds bounds{};
    std::array<hex::Hex, kSides> home{};
    std::array<Design, kSides> design{};
    std::array<std::array<Fleet, kMaxFleets>, kSides> fleets{};
    std::array<int, kSides> bp{};        // BPs saved
    std::array<int, kSides> produced{};  // BPs produced (the starting budget not counted)
    std::array<int, kSides> built{}, lost{};
    int turn = 0;
    int first = 0;       // this turn's Player 1 (M4)
    int move_clock = 0;  // orders fleet arrivals (M7)
    int winner = -2;     // -2: playing; -1: draw; else the side
    enum End { kNone, kHome, kAnnihilation, kTurnCap } end = kNone;

    int ships(int side) const noexcept {
        int n = 0;
        for (const auto& f : fleets[static_cast<std::size_t>(side)]) n += f.ships;
        return n;
    }
    bool occupied_by(const hex::Hex& h, int side) const noexcept {
        for (const auto& f : fleets[static_cast<std::size_t>(side)])
            if (f.ships > 0 && f.pos == h) return true;
        return false;
    }
    int owned(int side) const noexcept;  // systems owned, the home included (M4)
};

// Builds the starting state (M1, M3): the map (the seed's, or random from `dice`), the designs,
// and each side's budget spent on ships at home as one fleet.
template <class Dice>
State setup(const Options& o, const std::array<Design, kSides>& designs, Dice& dice);

// One fleet's orders for this turn's movement (M5): where to go, and optionally ships to detach
// into a new fleet with a target of its own.
struct Orders {
    hex::Hex target{};
    int detach = 0;
    hex::Hex detach_target{};
};

// A policy, per side:
//   Orders orders(const State&, int side, int fleet, Dice&)      M5 (fleets merged per hex)
//   bool retreat(const State&, int side, int mine, int theirs, Dice&)   M7, after each round
// Losses fall on identical ships (one design a side), so the loss choice of M7 has nothing to
// choose.

// A step from `from` toward `to`: the neighbour inside the map closest to `to` (ties: the first
// facing, clockwise from north).
inline hex::Hex step_toward(const State& s, const hex::Hex& from, const hex::Hex& to) {
    hex::Hex best = from;
    int bd = hex::distance(from, to);
    for (int f = 0; f < 6; ++f) {
        const hex::Hex n = hex::neighbour(from, f);
        if (!s.bounds.contains(n)) continue;
        if (const int d = hex::distance(n, to); d < bd) {
            bd = d;
            best = n;
        }
    }
    return best;
}

// The campaign's turn loop and phases: in msc_play.hpp (templates over the policies and dice).

// The metrics of one campaign.
enum Metric : int {
    kAWin, kBWin, kDraw, kAdvantageFirst, kTurns, kTimeouts, kEndHome, kEndAnnihilation,
    kSystemsA, kSystemsB, kBuiltA, kBuiltB, kShipsLostA, kShipsLostB, kBpA, kBpB, kMetricCount
};
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();
void to_metrics(const State& s, std::int32_t* out) noexcept;

}  // namespace odds::msc

#include "engine/msc/msc_play.hpp"
