#include "engine/naval/naval.hpp"

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

Options parse_options(const Settings& settings) { return kTable.read(kTable.reader(settings)); }

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
    return s;
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
    return range <= max_range(ammo) && hex::in_broadside(f.pos, f.facing, t.pos);
}

bool can_board(const State& s, int i, int j) noexcept {
    const Ship& a = s.ship[i];
    const Ship& b = s.ship[j];
    return a.afloat && b.afloat && a.side != b.side && hex::distance(a.pos, b.pos) == 1 &&
           hex::in_broadside(a.pos, a.facing, b.pos) && hex::in_broadside(b.pos, b.facing, a.pos);
}

void reach(const State& s, int i, int allowance, Reach& r) noexcept {
    // Breadth-first over (hex, facing): every step costs one point, so the first visit is the
    // cheapest, and each end is listed once, in order of cost.
    std::array<std::uint8_t, kMaxCells * 6> seen;
    std::fill_n(seen.begin(), s.cols * s.rows * 6, std::uint8_t{0});
    const Ship& sh = s.ship[i];
    r.n = 0;
    const auto push = [&](const hex::Hex& h, int cell, int facing, int cost) {
        auto& mark = seen[cell * 6 + facing];
        if (mark) return;
        mark = 1;
        r.end[r.n++] = {static_cast<std::uint16_t>(cell), static_cast<std::int8_t>(h.q),
                        static_cast<std::int8_t>(h.r), static_cast<std::int8_t>(facing),
                        static_cast<std::int8_t>(cost)};
    };
    push(sh.pos, s.cell(sh.pos), sh.facing, 0);
    for (int head = 0; head < r.n; ++head) {
        const Reach::End e = r.end[head];
        if (e.cost >= allowance) continue;
        const hex::Hex here = e.pos();
        push(here, e.cell, hex::turn(e.facing, 1), e.cost + 1);
        push(here, e.cell, hex::turn(e.facing, -1), e.cost + 1);
        const hex::Hex ahead = hex::neighbour(here, e.facing);
        if (!s.in_bounds(ahead) || s.is_land(ahead)) continue;
        if (const int other = s.ship_at(ahead); other >= 0 && other != i)
            continue;  // N1: no passing
        push(ahead, s.cell(ahead), e.facing, e.cost + 1);
    }
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
            {"captured_by_a", "enemy ships side A took by boarding (N7)", MetricKind::count, 0, n},
            {"captured_by_b", "enemy ships side B took by boarding (N7)", MetricKind::count, 0, n},
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
            {"boardings", "boarding actions, both sides (N7)", MetricKind::count, 0, n / 2 * t},
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
