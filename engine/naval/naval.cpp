#include "engine/naval/naval.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

namespace odds::naval {

namespace {
// A field of Options::rules, the numbers play reads, or one element of an array there.
template <auto... P>
constexpr auto rule = field<&Options::rules, P...>;

constexpr std::string_view kTakesWords = "table,movement,cannon,crew";

// N6b, N7b (restricted play): what a side may never do, a bit each in this order (Rules::barred).
constexpr std::string_view kRestrictWords = "roundshot,chainshot,grapeshot,board,take";
constexpr std::string_view kRestrictTakes =
    "none, or comma-separated: roundshot, chainshot, grapeshot (never fire it, N6), board "
    "(never ask to board, N7), take (sink every ship won instead of taking it, N7)";
std::int64_t islands_most(const Options& o) { return o.breadth * (o.length - 2) / 4; }

// N4, N9: the cards in the order of enum Card: the options' key, the name, and the roll its
// card.* modifier is added to (none: Quick Reload grants a broadside, the Lookout a card).
struct CardRow {
    std::string_view key, name, adds_to;
};
constexpr CardRow kCards[kCardKinds] = {
    {"gust_of_wind", "Gust of Wind", "the own movement roll"},
    {"unfurl_the_sails", "Unfurl the Sails", "the own movement roll"},
    {"catch_the_wind", "Catch the Wind", "the own movement roll"},
    {"fierce_hand_to_hand", "Fierce Hand to Hand", "the own boarding action roll"},
    {"swords_and_pistols", "Swords and Pistols", "the own boarding action roll"},
    {"rally_the_men", "Rally the Men", "the own boarding action roll"},
    {"sweep_the_decks", "Sweep the Decks", "an own grapeshot broadside roll"},
    {"splintering_wood", "Splintering Wood", "an own roundshot broadside roll"},
    {"damaged_rigging", "Damaged Rigging", "an own chainshot broadside roll"},
    {"quick_reload", "Quick Reload", ""},
    {"crows_nest_lookout", "Crows Nest Lookout", ""},
    {"maneuver", "Maneuver", "one enemy broadside roll"},
    {"calm_waters", "Calm Waters", "one enemy movement roll"},
    {"rake_the_bow", "Rake the Bow",
     "an own broadside roll fired from the target's bow or stern wedge"}};
// N6: the ammunition in the order of enum Ammo, as the options name it (broadside.round.*).
constexpr std::string_view kAmmo[kAmmoKinds] = {"round", "chain", "grape"};

void check_options(Options& o, const OptionReader& r);

OptionTable<Options> make_table() {
    using O = Options;
    OptionTable<O> t("naval");
    t.defaults({.naming = Naming::always});  // the scenario's own knobs
    t.add({
        {"width", integer(field<&O::length>, 6, kMaxLength), "N1",
         "sea hexes from one fleet's edge to the other's, {range}"},
        // At least `ships`, so that each fleet fits its edge.
        {"height", integer(field<&O::breadth>, named("ships"), kMaxBreadth), "N1",
         "sea hexes along each fleet's edge, {range}"},
        // N1a: islands fall off the two edge rows, at most a quarter of that sea.
        {.name = "islands",
         .type = integer(field<&O::islands>, 0, {islands_most, "height*(width-2)/4"}),
         .ruling = "N1",
         .help = "land hexes placed at random between the fleets, up to a quarter of that sea",
         .after = "width,height"},
        {"ships", integer(field<&O::ships>, 1, kMaxFleet), "N2",
         "ships of the line a side, {range}"},
    });
    t.defaults({});  // the rule book's numbers
    t.add({
        {"ship.movement", integer(field<&O::base_movement>, 0, 20), "N2",
         "every ship's Movement before the fleet roll, {range}"},
        // Above sinking.cannon, so that no ship sinks before a shot is fired.
        {"ship.cannon", integer(field<&O::base_cannon>, named("sinking.cannon", 1), 20), "N2",
         "every ship's Cannon before the fleet roll, {range}"},
        {"ship.crew", integer(field<&O::base_crew>, 0, 20), "N2",
         "every ship's Crew before the fleet roll, {range}"},
        {"fleet.movement", faces_option(rule<&Rules::fleet_movement>, 6), "N2",
         "the faces of a character table's d6 (National, Fleet, Ship, Captain, Crew) that add "
         "fleet.bonus to Movement"},
        {"fleet.cannon", faces_option(rule<&Rules::fleet_cannon>, 6), "N2",
         "the faces of a character table's d6 that add fleet.bonus to Cannon"},
        {"fleet.crew", faces_option(rule<&Rules::fleet_crew>, 6), "N2",
         "the faces of a character table's d6 that add fleet.bonus to Crew"},
        {"fleet.bonus", integer(rule<&Rules::fleet_bonus>, 0, 5), "N2",
         "rating points a character table's result adds, {range}"},
        {"max_turns", integer(field<&O::max_turns>, 1, 1000), "N8",
         "turns after which the side with more ships wins, {range}", Naming::always},
        {"move.roll", dice_option(rule<&Rules::move_roll>, -40, 60), "N5",
         "the movement roll, to which the ship's Movement and the cards add (never below 0)"},
        {"broadside.roll", dice_option(rule<&Rules::broadside_roll>, -20, 100), "N6",
         "the broadside roll, to which the firer's Cannon and the modifiers add"},
        {"broadside.table", steps_option(rule<&Rules::broadside_table>, 0, 20), "N6",
         "the broadside table: rating points a total of at least T takes"},
    });
    for (int a = 0; a < kAmmoKinds; ++a)
        t.add({concat("broadside.range.", kAmmo[a]), integer(elements<&O::range>[a], 0, 40), "N6",
               concat("the longest range of ", kAmmo[a], "shot, {range}")});
    t.add({
        {"broadside.range_penalty.beyond", integer(rule<&Rules::penalty_beyond>, 0, 40), "N6",
         "the range in hexes past which each hex costs the broadside roll "
         "broadside.range_penalty.per_hex, {range}"},
        {"broadside.range_penalty.per_hex", integer(rule<&Rules::penalty_per_hex>, 0, 10), "N6",
         "taken from the broadside roll for each hex of range past "
         "broadside.range_penalty.beyond, {range}"},
    });
    for (int a = 0; a < kAmmoKinds; ++a)
        t.add({concat("broadside.", kAmmo[a], ".modifier"),
               integer(elements<&O::rules, &Rules::ammo_modifier>[a], -10, 10), "N6",
               concat("added to a ", kAmmo[a], "shot broadside roll, {range}")});
    t.add({
        {"attribute.roll", dice_option(rule<&Rules::attribute_roll>, -20, 100), "N6",
         "the random attribute table's roll, one for each rating point a broadside takes"},
        {"attribute.movement_up_to", integer(rule<&Rules::movement_up_to>, -100, 100), "N6",
         "attribute rolls up to this take Movement, {range}"},
        {"attribute.cannon_up_to",
         integer(rule<&Rules::cannon_up_to>, named("attribute.movement_up_to"), 100), "N6",
         "attribute rolls above attribute.movement_up_to and up to this take Cannon; higher rolls "
         "take Crew, {range}"},
    });
    for (int a = 0; a < kAmmoKinds; ++a)
        t.add({concat("attribute.", kAmmo[a], ".modifier"),
               integer(elements<&O::rules, &Rules::attribute_modifier>[a], -10, 10), "N6",
               concat("added to the attribute roll of a ", kAmmo[a], "shot hit, {range}")});
    for (int a = 0; a < kAmmoKinds; ++a)
        t.add({concat("attribute.", kAmmo[a], ".takes"),
               choice(elements<&O::rules, &Rules::takes>[a], kTakesWords), "N6",
               concat("what a ", kAmmo[a],
                      "shot hit's points take: a roll on the attribute table each, or all from "
                      "one rating")});
    t.add({
        {"sinking.cannon", integer(rule<&Rules::sinking_cannon>, -20, 10), "N6",
         "a ship whose Cannon falls to this or below blows its hold and sinks, {range}"},
        {"boarding.roll", dice_option(rule<&Rules::boarding_roll>, 0, 100), "N7",
         "each side's boarding action roll, to which its Crew and cards add (not a fixed number "
         "while ties are rolled again)"},
        {"boarding.ties", choice(rule<&Rules::ties_reroll>, "nobody,reroll"), "N7",
         "a tied boarding action: rolled again, or nobody wins and the ships part"},
        {"boarding.prize_crew", integer(rule<&Rules::prize_crew>, 0, 20), "N7",
         "crew points the winner moves to a prize it takes (the prize's Crew becomes this), "
         "{range}"},
        {"hand.max", integer(rule<&Rules::hand_max>, 0, kMaxHandLimit), "N4",
         "the hand limit: a side holding more after a draw discards one, {range}"},
        {"hand.draw", integer(rule<&Rules::hand_draw>, 0, 5), "N4",
         "cards each side draws in the draw phase, one at a time, {range}"},
    });
    for (int c = 0; c < kCardKinds; ++c)  // N4
        t.add({concat("deck.", kCards[c].key), integer(elements<&O::deck>[c], 0, kMaxDeck), "N4",
               concat(kCards[c].name,
                      " cards in the deck, {range} (all cards together at most 42)")});
    for (int c = 0; c < kCardKinds; ++c)  // N9
        if (!kCards[c].adds_to.empty())
            t.add({concat("card.", kCards[c].key),
                   integer(elements<&O::rules, &Rules::card_modifier>[c], -10, 10), "N9",
                   concat(kCards[c].name, ": added to ", kCards[c].adds_to, ", {range}")});
    t.add({
        {"restrict.a", word_set<kRestrictWords, kRestrictTakes, &O::rules, &Rules::barred, 0>(),
         "N6b, N7b", "restricted play: what side A may never do (every policy honours it)"},
        {"restrict.b", word_set<kRestrictWords, kRestrictTakes, &O::rules, &Rules::barred, 1>(),
         "N6b, N7b", "restricted play: what side B may never do, as restrict.a"},
    });
    t.after_reading(check_options);
    return t;
}
}  // namespace

const OptionTable<Options>& option_table() { return built_once<make_table>(); }

Options parse_options(const Settings& settings) { return option_table().parse(settings); }

namespace {
// What no bound states, checked once the options are read (OptionTable::after_reading).
void check_options(Options& o, const OptionReader&) {
    int total = 0;
    for (int c = 0; c < kCardKinds; ++c) total += o.deck_count(c);
    if (total > kMaxDeck)  // N4: the deck is a fixed array (State::deck)
        throw UsageError("naval: a deck of " + std::to_string(total) +
                         " cards (options deck.*) is past the largest, " +
                         std::to_string(kMaxDeck));
    // N7: ties are rolled until the rolls differ, so a fixed roll would never end.
    const DiceExpr& b = o.rules.boarding_roll;
    if (o.rules.ties_reroll && b.min() == b.max())
        throw UsageError("naval: boarding.roll='" + to_string(b) +
                         "' is not valid while boarding.ties=reroll; boarding.roll takes dice "
                         "whose totals can differ (such as 1d6), or set boarding.ties=nobody");
}
}  // namespace

std::string scenario(const Options& o) { return option_table().scenario(o); }

const char* card_name(int card) noexcept {
    return card >= 0 && card < kCardKinds ? kCards[card].name.data() : "?";
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
    return card_modifier(Rules{}, card, roll);
}

int card_modifier(const Rules& r, int card, const Roll& roll) noexcept {
    return applicable(card, roll) ? r.card_modifier[static_cast<std::size_t>(card)] : 0;
}

State empty_sea(const Options& o) {
    State s;
    s.cols = o.breadth;
    s.rows = o.length;
    s.bounds = hex::Bounds{s.cols, s.rows};
    s.max_turns = o.max_turns;
    for (int a = 0; a < kAmmoKinds; ++a) s.range[a] = static_cast<std::int8_t>(o.range[a]);
    s.rules = o.rules;
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
            s.ship[i].movement = o.base_movement;  // N2: the base ratings (options ship.*)
            s.ship[i].cannon = o.base_cannon;
            s.ship[i].crew = o.base_crew;
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

bool may_fire(const State& s, int firer, int target, int ammo) noexcept {
    return can_fire(s, firer, target, ammo) &&
           !s.rules.bars(s.ship[firer].side, static_cast<std::uint8_t>(1u << ammo));  // N6b
}

Shot unbarred_shot(const State& s, int firer, Shot shot) noexcept {
    if (shot.target < 0 || may_fire(s, firer, shot.target, shot.ammo)) return shot;
    for (std::uint8_t a = 0; a < kAmmoKinds; ++a)  // N6b: the first ammunition left to it
        if (may_fire(s, firer, shot.target, a)) return {shot.target, a};
    return {-1, 0};
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

namespace {

// Side A's rating of an attribute minus side B's after the fleet roll (N2), and the side that
// rolled more of it (-1: the rolls were even).
int edge(const State& s, int attr) noexcept {
    return s.start_rating[0][attr] - s.start_rating[1][attr];
}
int ahead(const State& s, int attr) noexcept {
    return edge(s, attr) > 0 ? 0 : edge(s, attr) < 0 ? 1 : -1;
}

// The rows of metric_specs and to_metrics.
template <class M>
constexpr void declare_metrics(M& m) {
    using K = MetricKind;
    const auto n = [](const Options& o) { return kSides * o.ships; };
    // N7: a captured ship can be boarded back and taken again, so captures are bounded by the
    // boarding actions (at most one a ship a turn: ships * t), not by the fleet.
    const auto boardings = [](const Options& o) { return o.ships * o.max_turns; };
    const auto broadsides = [](const Options& o) { return 2 * kSides * o.ships * o.max_turns; };
    // N2: each of a side's 5 x ships + 3 character rolls adds fleet.bonus to an attribute at
    // most once, and both sides start from the same base ratings.
    const auto most = [](const Options& o) { return o.rules.fleet_bonus * (5 * o.ships + 3); };
    const auto least = [](const Options& o) { return -(o.rules.fleet_bonus * (5 * o.ships + 3)); };
    versus::outcome_rows(
        m, "N8", "both fleets gone at once, or equal ships at max_turns",
        "both fleets gone at once", [](const State& s) { return s.winner; },
        [](const State& s) { return s.turn; }, [](const State& s) { return s.timeout; });
    m(kAfloatA, "afloat_a", "ships under side A's control at the end (captures included)",
      counts("ships"), 0, n, [](const State& s) { return s.afloat(0); });
    m(kAfloatB, "afloat_b", "ships under side B's control at the end", counts("ships"), 0, n,
      [](const State& s) { return s.afloat(1); });
    m(kSunkA, "sunk_a", "ships lost to sinking while side A held them (N6, N7)", counts("ships"), 0,
      n, [](const State& s) { return s.sunk[0]; });
    m(kSunkB, "sunk_b", "ships lost to sinking while side B held them", counts("ships"), 0, n,
      [](const State& s) { return s.sunk[1]; });
    m(kCapturedByA, "captured_by_a",
      "enemy ships side A took by boarding, recaptures included (N7)", counts("ships"), 0,
      boardings, [](const State& s) { return s.captures[0]; });
    m(kCapturedByB, "captured_by_b",
      "enemy ships side B took by boarding, recaptures included (N7)", counts("ships"), 0,
      boardings, [](const State& s) { return s.captures[1]; });
    constexpr const char* kAmmoNames[kAmmoKinds] = {"roundshot", "chainshot", "grapeshot"};
    constexpr const char* kSide[kSides] = {"a", "b"};
    constexpr const char* kSideName[kSides] = {"A", "B"};
    for (int a = 0; a < kAmmoKinds; ++a)
        for (int side = 0; side < kSides; ++side)
            m(
                kFiredRoundA + 2 * a + side,
                [=] { return std::string("fired_") + kAmmoNames[a] + "_" + kSide[side]; },
                [=] {
                    return std::string("broadsides of ") + kAmmoNames[a] + " side " +
                           kSideName[side] + " fired (N6)";
                },
                counts("broadsides"), 0, broadsides,
                [=](const State& s) { return s.broadsides[side][a]; });
    m(kBoardings, "boardings", "boarding actions, both sides (N7)", counts("boarding actions"), 0,
      boardings, [](const State& s) { return s.boardings; });
    m(kMovementEdge, "movement_edge",
      "side A's fleet Movement minus side B's after the fleet roll (N2)", counts("rating points"),
      least, most, [](const State& s) { return edge(s, kMovement); });
    m(kCannonEdge, "cannon_edge", "side A's fleet Cannon minus side B's after the fleet roll (N2)",
      counts("rating points"), least, most, [](const State& s) { return edge(s, kCannon); });
    m(kCrewEdge, "crew_edge", "side A's fleet Crew minus side B's after the fleet roll (N2)",
      counts("rating points"), least, most, [](const State& s) { return edge(s, kCrew); });
    // Did the side that rolled more (or less) of an attribute win?
    const auto won = [](int attr, int more) {
        return [=](const State& s) {
            const int side = ahead(s, attr);
            return side >= 0 && s.winner == (more ? side : 1 - side);
        };
    };
    m(kMoreGunsWon, "more_guns_won", "the side that rolled more Cannon won", K::rate, 0, 1,
      won(kCannon, 1));
    m(kFewerGunsWon, "fewer_guns_won", "the side that rolled less Cannon won", K::rate, 0, 1,
      won(kCannon, 0));
    m(kMoreCrewWon, "more_crew_won", "the side that rolled more Crew won", K::rate, 0, 1,
      won(kCrew, 1));
    m(kLessCrewWon, "less_crew_won", "the side that rolled less Crew won", K::rate, 0, 1,
      won(kCrew, 0));
}
static_assert(metrics_in_order<kMetricCount>([](auto& m) { declare_metrics(m); }));

}  // namespace

std::vector<MetricSpec> metric_specs(const Options& o) {
    MetricSpecs<Options> m{o, {}};
    declare_metrics(m);
    return std::move(m.specs);
}

SurvivalSpec survival_spec() { return SurvivalSpec{kTurns, -1, 1, "turns", "", "the battle ends"}; }

void to_metrics(const State& s, std::int32_t* out) noexcept {
    MetricValues<State> m{s, out};
    declare_metrics(m);
}

}  // namespace odds::naval
