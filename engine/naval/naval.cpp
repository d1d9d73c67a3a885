#include "engine/naval/naval.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

namespace odds::naval {

namespace {
constexpr Option<Options> kOptions[] = {
    {.name = "width",
     .type = integer(field<&Options::length>, 6, kMaxLength),
     .help = "sea hexes from one fleet's edge to the other's, {range}",
     .ruling = "N1"},
    // At least `ships`, so that each fleet fits its edge.
    {.name = "height",
     .type = integer(field<&Options::breadth>, named("ships"), kMaxBreadth),
     .help = "sea hexes along each fleet's edge, {range}",
     .ruling = "N1"},
    // N1a: islands fall off the two edge rows, at most a quarter of that sea.
    {.name = "islands",
     .type =
         integer(field<&Options::islands>, 0,
                 {[](const Options& o) -> std::int64_t { return o.breadth * (o.length - 2) / 4; },
                  "height*(width-2)/4"}),
     .help = "land hexes placed at random between the fleets, up to a quarter of that sea",
     .ruling = "N1",
     .after = "width,height"},
    {.name = "ships",
     .type = integer(field<&Options::ships>, 1, kMaxFleet),
     .help = "ships of the line a side, {range}",
     .ruling = "N2"},
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 1000),
     .help = "turns after which the side with more ships wins, {range}",
     .ruling = "N8"},
    {.name = "broadside.range.round",
     .type = integer(field<&Options::range_round>, 0, 40),
     .help = "the longest range of roundshot, {range}",
     .ruling = "N6",
     .named_when_changed = true},
    {.name = "broadside.range.chain",
     .type = integer(field<&Options::range_chain>, 0, 40),
     .help = "the longest range of chainshot, {range}",
     .ruling = "N6",
     .named_when_changed = true},
    {.name = "broadside.range.grape",
     .type = integer(field<&Options::range_grape>, 0, 40),
     .help = "the longest range of grapeshot, {range}",
     .ruling = "N6",
     .named_when_changed = true},
    {.name = "deck.gust_of_wind",
     .type = integer(field<&Options::deck_gust_of_wind>, 0, kMaxDeck),
     .help = "Gust of Wind cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.unfurl_the_sails",
     .type = integer(field<&Options::deck_unfurl_the_sails>, 0, kMaxDeck),
     .help = "Unfurl the Sails cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.catch_the_wind",
     .type = integer(field<&Options::deck_catch_the_wind>, 0, kMaxDeck),
     .help = "Catch the Wind cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.fierce_hand_to_hand",
     .type = integer(field<&Options::deck_fierce_hand_to_hand>, 0, kMaxDeck),
     .help = "Fierce Hand to Hand cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.swords_and_pistols",
     .type = integer(field<&Options::deck_swords_and_pistols>, 0, kMaxDeck),
     .help = "Swords and Pistols cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.rally_the_men",
     .type = integer(field<&Options::deck_rally_the_men>, 0, kMaxDeck),
     .help = "Rally the Men cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.sweep_the_decks",
     .type = integer(field<&Options::deck_sweep_the_decks>, 0, kMaxDeck),
     .help = "Sweep the Decks cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.splintering_wood",
     .type = integer(field<&Options::deck_splintering_wood>, 0, kMaxDeck),
     .help = "Splintering Wood cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.damaged_rigging",
     .type = integer(field<&Options::deck_damaged_rigging>, 0, kMaxDeck),
     .help = "Damaged Rigging cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.quick_reload",
     .type = integer(field<&Options::deck_quick_reload>, 0, kMaxDeck),
     .help = "Quick Reload cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.crows_nest_lookout",
     .type = integer(field<&Options::deck_crows_nest_lookout>, 0, kMaxDeck),
     .help = "Crows Nest Lookout cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.maneuver",
     .type = integer(field<&Options::deck_maneuver>, 0, kMaxDeck),
     .help = "Maneuver cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.calm_waters",
     .type = integer(field<&Options::deck_calm_waters>, 0, kMaxDeck),
     .help = "Calm Waters cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
    {.name = "deck.rake_the_bow",
     .type = integer(field<&Options::deck_rake_the_bow>, 0, kMaxDeck),
     .help = "Rake the Bow cards in the deck, {range} (all cards together at most 42)",
     .ruling = "N4",
     .named_when_changed = true},
};
constexpr OptionTable<Options> kTable{"naval", kOptions};

constexpr const char* kCardNames[kCardKinds] = {
    "Gust of Wind",       "Unfurl the Sails", "Catch the Wind",     "Fierce Hand to Hand",
    "Swords and Pistols", "Rally the Men",    "Sweep the Decks",    "Splintering Wood",
    "Damaged Rigging",    "Quick Reload",     "Crows Nest Lookout", "Maneuver",
    "Calm Waters",        "Rake the Bow"};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

int Options::deck_count(int card) const noexcept {
    const int counts[kCardKinds] = {
        deck_gust_of_wind,        deck_unfurl_the_sails,   deck_catch_the_wind,
        deck_fierce_hand_to_hand, deck_swords_and_pistols, deck_rally_the_men,
        deck_sweep_the_decks,     deck_splintering_wood,   deck_damaged_rigging,
        deck_quick_reload,        deck_crows_nest_lookout, deck_maneuver,
        deck_calm_waters,         deck_rake_the_bow};
    return card >= 0 && card < kCardKinds ? counts[card] : 0;
}

Options parse_options(const Settings& settings) {
    Options o = kTable.read(kTable.reader(settings));
    int total = 0;
    for (int c = 0; c < kCardKinds; ++c) total += o.deck_count(c);
    if (total > kMaxDeck)  // N4: the deck is a fixed array (State::deck)
        throw UsageError("naval: a deck of " + std::to_string(total) +
                         " cards (options deck.*) is past the largest, " +
                         std::to_string(kMaxDeck));
    return o;
}

std::string scenario(const Options& o) { return kTable.scenario(o); }

const char* card_name(int card) noexcept {
    return card >= 0 && card < kCardKinds ? kCardNames[card] : "?";
}

bool applicable(int card, const Roll& roll) noexcept {
    switch (roll.kind) {
        case Roll::kMove:
            return roll.own
                       ? card == kGustOfWind || card == kUnfurlTheSails || card == kCatchTheWind
                       : card == kCalmWaters;
        case Roll::kBoard:
            return roll.own &&
                   (card == kFierceHandToHand || card == kSwordsAndPistols || card == kRallyTheMen);
        case Roll::kReload:
            return roll.own && card == kQuickReload;
        case Roll::kBroadside:
            if (!roll.own) return card == kManeuver;
            return (card == kSweepTheDecks && roll.ammo == kGrapeshot) ||
                   (card == kSplinteringWood && roll.ammo == kRoundshot) ||
                   (card == kDamagedRigging && roll.ammo == kChainshot) ||
                   (card == kRakeTheBow && roll.rake);
    }
    return false;
}

int card_modifier(int card, const Roll& roll) noexcept {
    if (!applicable(card, roll)) return 0;
    switch (card) {
        case kCalmWaters:
        case kManeuver:
            return -2;
        case kRakeTheBow:
            return 1;
        case kQuickReload:
            return 0;
        default:
            return 2;
    }
}

State empty_sea(const Options& o) {
    State s;
    s.cols = o.breadth;
    s.rows = o.length;
    s.bounds = hex::Bounds{s.cols, s.rows};
    s.max_turns = o.max_turns;
    s.range[kRoundshot] = static_cast<std::int8_t>(o.range_round);
    s.range[kChainshot] = static_cast<std::int8_t>(o.range_chain);
    s.range[kGrapeshot] = static_cast<std::int8_t>(o.range_grape);
    s.deck_total = 0;
    for (int c = 0; c < kCardKinds; ++c) {
        s.deck_of[c] = static_cast<std::uint8_t>(o.deck_count(c));
        s.deck_total += o.deck_count(c);
    }
    const int w = s.grid_width();
    for (int c = 0; c < w; ++c) s.land[c] = s.land[(s.rows + 1) * w + c] = 1;
    for (int row = 0; row < s.rows; ++row)
        s.land[s.cell(-1, row)] = s.land[s.cell(s.cols, row)] = 1;
    return s;
}

Start opening(const Options& o) {
    Start p;
    p.islands = o.islands;
    State& s = p.state;
    s = empty_sea(o);
    s.n_ships = kSides * o.ships;
    const int first_col = (s.cols - o.ships) / 2;
    for (int side = 0; side < kSides; ++side)
        for (int k = 0; k < o.ships; ++k) {
            const int i = side * o.ships + k;
            s.ship[i] = Ship{};
            s.ship[i].side = s.ship[i].origin = static_cast<std::int8_t>(side);
            // N3: in line on the edge rows, bows toward the enemy; N3a: side B's fleet is side
            // A's turned half a circle about the sea's centre.
            if (side == 0)
                place(s, i, hex::from_offset(first_col + k, 0), hex::kS);
            else
                place(s, i, hex::from_offset(s.cols - 1 - (first_col + k), s.rows - 1), hex::kN);
        }
    return p;
}

void place(State& s, int i, const hex::Hex& pos, int facing) noexcept {
    Ship& sh = s.ship[i];
    sh.pos = pos;
    sh.facing = static_cast<std::int8_t>(facing);
    s.at[static_cast<std::size_t>(s.cell(pos))] = static_cast<std::int8_t>(i + 1);
}

int State::highest_movement(int side) const noexcept {
    int best = -1000;
    for (int i = 0; i < n_ships; ++i) {
        const Ship& sh = ship[i];
        if (sh.afloat && sh.side == side) best = std::max(best, sh.movement);
    }
    return best;
}

bool can_fire(const State& s, int firer, int target, int ammo) noexcept {
    if (target < 0 || target >= s.n_ships || firer == target) return false;
    const Ship& f = s.ship[firer];
    const Ship& t = s.ship[target];
    if (!f.afloat || !t.afloat || f.side == t.side) return false;
    const int range = hex::distance(f.pos, t.pos);
    return range <= s.range[static_cast<std::size_t>(ammo)] &&
           hex::in_broadside(f.pos, f.facing, t.pos);
}

bool can_board(const State& s, int i, int j) noexcept {
    const Ship& a = s.ship[i];
    const Ship& b = s.ship[j];
    return a.afloat && b.afloat && a.side != b.side && hex::distance(a.pos, b.pos) == 1 &&
           hex::in_broadside(a.pos, a.facing, b.pos) && hex::in_broadside(b.pos, b.facing, a.pos);
}

namespace {

inline constexpr std::array<std::int8_t, 6> kLeft{5, 0, 1, 2, 3, 4}, kRight{1, 2, 3, 4, 5, 0};

// The search's marks: mark[cell * 6 + facing] == epoch when (cell, facing) has been reached in
// this search. One array per thread, cleared only every 255 searches. (An enum, not a char
// type, so that storing a mark does not make the compiler reload everything else.)
enum class Stamp : std::uint8_t {};
struct Seen {
    std::array<Stamp, kGridCells * 6> mark{};
    std::uint8_t epoch = 0;
};
thread_local Seen seen;

}  // namespace

void reach(const State& s, int i, int allowance, Reach& r) noexcept {
    // Breadth-first over (hex, facing): every step costs one point, so the first visit is the
    // cheapest, and each end is listed once, in order of cost.
    Seen& sn = seen;
    if (++sn.epoch == 0) {
        sn.mark.fill(Stamp{0});
        sn.epoch = 1;
    }
    const Stamp epoch{sn.epoch};
    Stamp* const mark = sn.mark.data();
    // A step ahead, in cells, by the column's parity and the heading (N, NE, SE, S, SW, NW):
    // odd-q, so the diagonals' row change depends on the column.
    const int w = s.grid_width();
    const std::array<std::array<int, 6>, 2> step{
        {{-w, -w + 1, 1, w, -1, -w - 1}, {-w, 1, w + 1, w, w - 1, -1}}};
    const auto own = static_cast<std::int8_t>(i + 1);
    const Ship& sh = s.ship[i];
    Reach::End* const end = r.end.data();
    int n = 0;
    // An end as its six bytes (cell, q, r, facing, cost), built in a register and stored at
    // once; written whether new or not, and counted only when new: no branch to mispredict
    // (Reach keeps a spare slot for the write past the last end).
    static_assert(sizeof(Reach::End) == 6 && std::is_trivially_copyable_v<Reach::End> &&
                  std::endian::native == std::endian::little);
    const auto packed = [](int cell, int q, int rr, int cost) {
        return static_cast<std::uint64_t>(static_cast<std::uint16_t>(cell)) |
               static_cast<std::uint64_t>(static_cast<std::uint8_t>(q)) << 16 |
               static_cast<std::uint64_t>(static_cast<std::uint8_t>(rr)) << 24 |
               static_cast<std::uint64_t>(static_cast<std::uint8_t>(cost)) << 40;
    };
    const auto push = [&](std::uint64_t at, int cell, int facing, bool open = true) {
        Stamp& m = mark[cell * 6 + facing];
        const bool fresh = (m != epoch) & open;
        m = epoch;
        at |= static_cast<std::uint64_t>(facing) << 32;
        std::memcpy(&end[n], &at, sizeof(Reach::End));
        n += fresh;
    };
    {
        const int cell = s.cell(sh.pos);
        push(packed(cell, sh.pos.q, sh.pos.r, 0), cell, sh.facing);
    }
    for (int head = 0; head < n; ++head) {
        const Reach::End e = end[head];
        if (e.cost >= allowance) break;  // in order of cost: no end after it has points left
        const int cost = e.cost + 1;
        const std::uint64_t here = packed(e.cell, e.q, e.r, cost);
        push(here, e.cell, kRight[e.facing]);
        push(here, e.cell, kLeft[e.facing]);
        // N1: no land, no passing, no leaving the map (the ring round it is land). A blocked
        // hex is marked as if reached, harmlessly: no end is ever listed there.
        const int ahead = e.cell + step[e.q & 1][e.facing];
        const auto who = s.at[static_cast<std::size_t>(ahead)];
        const bool open =
            (s.land[static_cast<std::size_t>(ahead)] == 0) & ((who == 0) | (who == own));
        const hex::Hex d = hex::kDirections[static_cast<std::size_t>(e.facing)];
        push(packed(ahead, e.q + d.q, e.r + d.r, cost), ahead, e.facing, open);
    }
    r.n = n;
}

std::vector<MetricSpec> metric_specs(const Options& o) {
    const int t = o.max_turns, n = kSides * o.ships;
    const int edge =
        5 * o.ships + 3;  // N2: a side's rating in one attribute lies in [n, 6n + 3] (+1 crew)
    auto m = versus::outcome_specs(t, "N8", "both fleets gone at once, or equal ships at max_turns",
                                   "both fleets gone at once");
    m.insert(
        m.end(),
        {
            {"afloat_a", "ships under side A's control at the end (captures included)",
             MetricKind::count, 0, n},
            {"afloat_b", "ships under side B's control at the end", MetricKind::count, 0, n},
            {"sunk_a", "ships lost to sinking while side A held them (N6, N7)", MetricKind::count,
             0, n},
            {"sunk_b", "ships lost to sinking while side B held them", MetricKind::count, 0, n},
            // N7: a captured ship can be boarded back and taken again, so captures are bounded
            // by the boarding actions (at most one a ship a turn: ships * t), not by the fleet.
            {"captured_by_a", "enemy ships side A took by boarding, recaptures included (N7)",
             MetricKind::count, 0, o.ships * t},
            {"captured_by_b", "enemy ships side B took by boarding, recaptures included (N7)",
             MetricKind::count, 0, o.ships * t},
            {"fired_roundshot_a", "broadsides of roundshot side A fired (N6)", MetricKind::count, 0,
             2 * n * t},
            {"fired_roundshot_b", "broadsides of roundshot side B fired (N6)", MetricKind::count, 0,
             2 * n * t},
            {"fired_chainshot_a", "broadsides of chainshot side A fired (N6)", MetricKind::count, 0,
             2 * n * t},
            {"fired_chainshot_b", "broadsides of chainshot side B fired (N6)", MetricKind::count, 0,
             2 * n * t},
            {"fired_grapeshot_a", "broadsides of grapeshot side A fired (N6)", MetricKind::count, 0,
             2 * n * t},
            {"fired_grapeshot_b", "broadsides of grapeshot side B fired (N6)", MetricKind::count, 0,
             2 * n * t},
            {"boardings", "boarding actions, both sides (N7)", MetricKind::count, 0, o.ships * t},
            {"movement_edge", "side A's fleet Movement minus side B's after the fleet roll (N2)",
             MetricKind::count, -edge, edge},
            {"cannon_edge", "side A's fleet Cannon minus side B's after the fleet roll (N2)",
             MetricKind::count, -edge, edge},
            {"crew_edge", "side A's fleet Crew minus side B's after the fleet roll (N2)",
             MetricKind::count, -edge, edge},
            {"more_guns_won", "the side that rolled more Cannon won", MetricKind::rate, 0, 1},
            {"fewer_guns_won", "the side that rolled less Cannon won", MetricKind::rate, 0, 1},
            {"more_crew_won", "the side that rolled more Crew won", MetricKind::rate, 0, 1},
            {"less_crew_won", "the side that rolled less Crew won", MetricKind::rate, 0, 1},
        });
    return m;
}

SurvivalSpec survival_spec() { return SurvivalSpec{kTurns, -1, 1, "turns", ""}; }

void to_metrics(const State& s, std::int32_t* out) noexcept {
    versus::outcome(s.winner, s.turn, s.timeout, out);
    out[kAfloatA] = s.afloat(0);
    out[kAfloatB] = s.afloat(1);
    out[kSunkA] = s.sunk[0];
    out[kSunkB] = s.sunk[1];
    out[kCapturedByA] = s.captures[0];
    out[kCapturedByB] = s.captures[1];
    for (int a = 0; a < kAmmoKinds; ++a)
        for (int side = 0; side < kSides; ++side)
            out[kFiredRoundA + 2 * a + side] = s.broadsides[side][a];
    out[kBoardings] = s.boardings;
    const auto edge = [&](int attr) { return s.start_rating[0][attr] - s.start_rating[1][attr]; };
    out[kMovementEdge] = edge(kMovement);
    out[kCannonEdge] = edge(kCannon);
    out[kCrewEdge] = edge(kCrew);
    // Which side rolled more of an attribute won? (-1: the rolls were even.)
    const auto ahead = [&](int attr) { return edge(attr) > 0 ? 0 : edge(attr) < 0 ? 1 : -1; };
    const int guns = ahead(kCannon), crew = ahead(kCrew);
    out[kMoreGunsWon] = guns >= 0 && s.winner == guns;
    out[kFewerGunsWon] = guns >= 0 && s.winner == 1 - guns;
    out[kMoreCrewWon] = crew >= 0 && s.winner == crew;
    out[kLessCrewWon] = crew >= 0 && s.winner == 1 - crew;
}

}  // namespace odds::naval
