// Naval Duel: ships of the line on a hex sea, with a shared deck of cards (rulings N1-N9).
// Rules page: RULES.md beside this file.
//
// Everything a game needs lives in one fixed-size State: the sea as arrays of cells, at most
// kMaxShips ships (captures change a ship's side, never the number of ships), the 28-card deck
// with its discards and both hands, and where play stands (State::step). The turn is a state
// machine that rests at decision points (naval_play.hpp): Game there is the resumable form
// (engine/decision.hpp) search plays on, and whole games drive the same machine.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/hex.hpp"
#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/rule_values.hpp"
#include "engine/versus.hpp"

namespace odds::naval {

inline constexpr int kSides = 2;
inline constexpr int kMaxFleet = 7;                   // N2: option ships, at most 7 a side
inline constexpr int kMaxShips = kSides * kMaxFleet;  // captures change sides: never more
inline constexpr int kMaxLength = 40;                 // option width: the sea between the fleets
inline constexpr int kMaxBreadth = 40;                // option height: the fleets' edges
inline constexpr int kMaxCells = kMaxLength * kMaxBreadth;
// The sea is stored with a ring of land hexes all round (State::cell), so that a step off the
// map is a step onto land and the movement search needs no bounds test.
inline constexpr int kGridCells = (kMaxLength + 2) * (kMaxBreadth + 2);
inline constexpr int kDeckSize = 28;                // N4: 2 of each of the 14 cards (the book)
inline constexpr int kMaxDeck = 42;                 // the largest deck the options allow (deck.*)
inline constexpr int kHandLimit = 5;                // N4: the book's hand limit (option hand.max)
inline constexpr int kMaxHandLimit = 7;             // the largest hand.max (a card mask is 8 bits)
inline constexpr int kHandMax = kMaxHandLimit + 1;  // a hand just drawn, before the discard

// N4, N9: the 14 cards of the seed's deck list, two of each.
enum Card : std::uint8_t {
    kGustOfWind,
    kUnfurlTheSails,
    kCatchTheWind,  // +2 to the own movement roll
    kFierceHandToHand,
    kSwordsAndPistols,
    kRallyTheMen,  // +2 to the own boarding roll
    kSweepTheDecks,
    kSplinteringWood,
    kDamagedRigging,  // +2 to a grape/round/chain broadside
    kQuickReload,     // a second broadside this turn
    kCrowsNest,       // look at the opponent's hand
    kManeuver,        // -2 to one enemy broadside roll
    kCalmWaters,      // -2 to one enemy movement roll
    kRakeTheBow,      // +1 firing into a bow or stern
    kCardKinds
};
const char* card_name(int card) noexcept;

enum Ammo : std::uint8_t { kRoundshot, kChainshot, kGrapeshot, kAmmoKinds };

enum Attribute : std::uint8_t { kMovement, kCannon, kCrew };

// N6: what a broadside's points take (options attribute.*.takes): a roll on the attribute table,
// or every point from one attribute (the book's chainshot: Movement).
enum Takes : std::uint8_t { kTakesTable, kTakesMovement, kTakesCannon, kTakesCrew };

// N9: each card's modifier to the roll it changes, in the book (options card.*); Quick Reload and
// Crows Nest Lookout change no roll.
inline constexpr std::array<std::int8_t, kCardKinds> kBookCardModifier{2, 2, 2, 2, 2,  2,  2,
                                                                       2, 2, 0, 0, -2, -2, 1};
// N6: the book's broadside table: 5-6 one point, 7-8 two, 9+ three (option broadside.table).
constexpr StepTable book_broadside_table() {
    StepTable t;
    t.n = 3;
    t.at_least = {5, 7, 9};
    t.value = {1, 2, 3};
    return t;
}

// The rule book's numbers play reads (N2-N9), held by Options and copied into State by
// empty_sea: plain fixed-size values, read once per run; each is the option named beside it.
struct Rules {
    // N2: the faces of the character tables' d6 that give each attribute its bonus.
    FaceSet fleet_movement = FaceSet::range(1, 2);  // fleet.movement
    FaceSet fleet_cannon = FaceSet::range(3, 4);    // fleet.cannon
    FaceSet fleet_crew = FaceSet::range(5, 6);      // fleet.crew
    std::int8_t fleet_bonus = 1;                    // fleet.bonus
    // N4
    std::int8_t hand_max = kHandLimit;  // hand.max
    std::int8_t hand_draw = 1;          // hand.draw
    // N5
    DiceExpr move_roll = DiceExpr::of(2, 6, -4);  // move.roll
    // N6
    DiceExpr broadside_roll = DiceExpr::of(1, 6);                // broadside.roll
    StepTable broadside_table = book_broadside_table();          // broadside.table
    std::int8_t penalty_beyond = 2, penalty_per_hex = 1;         // broadside.range_penalty.*
    std::array<std::int8_t, kAmmoKinds> ammo_modifier{1, 0, 0};  // broadside.*.modifier
    DiceExpr attribute_roll = DiceExpr::of(1, 6);                // attribute.roll
    std::int8_t movement_up_to = 2, cannon_up_to = 4;            // attribute.*_up_to; above: Crew
    std::array<std::int8_t, kAmmoKinds> attribute_modifier{0, 0, 1};  // attribute.*.modifier
    std::array<std::int8_t, kAmmoKinds> takes{kTakesTable, kTakesMovement, kTakesTable};
    std::int8_t sinking_cannon = -2;  // sinking.cannon
    // N7
    DiceExpr boarding_roll = DiceExpr::of(1, 6);  // boarding.roll
    bool ties_reroll = true;                      // boarding.ties
    std::int8_t prize_crew = 1;                   // boarding.prize_crew
    // N9
    std::array<std::int8_t, kCardKinds> card_modifier = kBookCardModifier;  // card.*
    // N6b, N7b (restricted play, options restrict.a and restrict.b): what each side may never
    // do, a bit each: fire roundshot, chainshot, grapeshot (bit = the Ammo), board (kBarBoard),
    // take a prize (kBarTake: it sinks every ship it wins).
    static constexpr std::uint8_t kBarBoard = 1u << 3, kBarTake = 1u << 4;
    std::array<std::uint8_t, 2> barred{};
    bool bars(int side, std::uint8_t bit) const noexcept {
        return (barred[static_cast<std::size_t>(side)] & bit) != 0;
    }
};

struct Options {
    int length = 24;     // option width: sea hexes from one fleet's edge to the other's (N1)
    int breadth = 16;    // option height: sea hexes along each fleet's edge (N1)
    int islands = 0;     // N1
    int ships = 7;       // N2
    int max_turns = 60;  // N8
    // N4: the deck, copies of each card (options deck.*), in the order of enum Card.
    std::array<int, kCardKinds> deck{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    // N6: the longest range of each ammunition, by Ammo (options broadside.range.*).
    std::array<int, kAmmoKinds> range{5, 4, 2};
    // N2: the base ratings (options ship.*).
    int base_movement = 1, base_cannon = 1, base_crew = 2;
    // N2-N9: the rule book's other numbers (options fleet.*, hand.*, move.roll, broadside.*,
    // attribute.*, sinking.cannon, boarding.*, card.*), as play reads them from State::rules.
    Rules rules{};
    int deck_count(int card) const noexcept {
        return card >= 0 && card < kCardKinds ? deck[static_cast<std::size_t>(card)] : 0;
    }
};

// The declared rule options (engine/rule_options.hpp), in the order `odds list` shows them.
const OptionTable<Options>& option_table();
Options parse_options(const Settings& settings);
std::string scenario(const Options& o);

struct Ship {
    hex::Hex pos{};
    std::int8_t facing = 0;
    std::int8_t side = 0;    // the side in control now (N7: captures change it)
    std::int8_t origin = 0;  // the side that fielded it
    bool afloat = true;
    bool flagship = false;
    int movement = 1, cannon = 1, crew = 2;  // N2 base ratings; may go negative (N6)

    int total() const noexcept { return movement + cannon + crew; }
};

// What a card may be played on (N9): the roll it modifies, seen from the side asked.
struct Roll {
    enum Kind : std::uint8_t { kMove, kBroadside, kReload, kBoard } kind = kMove;
    bool own = true;          // the asked side rolls (else it is the enemy's roll)
    std::int8_t ship = -1;    // the ship rolling (moving, firing, boarding)
    std::int8_t target = -1;  // broadsides: the target
    std::uint8_t ammo = kRoundshot;
    bool rake = false;  // broadsides: the firer stands in the target's bow or stern wedge
};
// Is `card` one the asked side may play on `roll` (N9)?
bool applicable(int card, const Roll& roll) noexcept;
// Its modifier to the roll under the book (Quick Reload: 0, it grants a broadside instead), and
// under the rules `r` (options card.*).
int card_modifier(int card, const Roll& roll) noexcept;
int card_modifier(const Rules& r, int card, const Roll& roll) noexcept;

// One broadside as declared (N6): target -1 holds fire.
struct Shot {
    std::int8_t target = -1;
    std::uint8_t ammo = kRoundshot;
};

// A broadside declared this phase (N6a): the firer and its shot.
struct Declared {
    std::int8_t firer = -1;
    Shot shot{};
};

// The ends of a ship's movement this turn (N5): every (hex, facing) it can reach within its
// allowance, one point a hex ahead or a turn of one hex-face, through no land and no ship.
struct Reach {
    struct End {
        std::uint16_t cell;  // State::cell of the hex (an index into State::land and at)
        std::int8_t q, r;    // the hex
        std::int8_t facing;
        std::int8_t cost;
        hex::Hex pos() const noexcept { return {q, r}; }
    };
    std::array<End, kMaxCells * 6 + 1> end;  // [n]: scratch for reach
    int n = 0;
};

// The steps of a game (naval_play.hpp, "The turn as a state machine"). Decision points ask the
// side State::actor; the others are played by the dice.
enum class Step : std::uint8_t {
    kFlagship,        // decision: the side's flagship (N2)
    kTurnStart,       // a new turn
    kDraw,            // N4: the side draws
    kDiscard,         // decision: a card to discard, down to the hand limit (N4)
    kMovePhase,       // N5: who chooses the order
    kMoveFirst,       // decision: move first or second (N5)
    kNextMover,       // N5: whose ship moves next
    kPickMover,       // decision: which unmoved ship moves (N5)
    kMoveCards,       // decision: cards on the movement roll, when any applies (N9)
    kMoveRoll,        // N5: the allowance
    kMoveEnd,         // decision: where the ship ends (N5)
    kBroadsidePhase,  // N6: the phase begins
    kNextDeclarer,    // N6a: the next ship afloat to declare
    kDeclare,         // decision: target and ammunition, or hold fire (N6, N6a)
    kReloadCards,     // decision: a Quick Reload, when one is in hand (N9a)
    kFire,            // N6a: the next declared broadside is rolled
    kFireCards,       // decision: cards on the broadside roll, when any applies (N9)
    kFireRoll,        // N6: the broadside and damage rolls
    kDamage,          // N6a: all damage at once
    kBoardingPhase,   // N7: the phase begins
    kNextPair,        // N7a: the next pair that may board
    kBoard,           // decision: board or not (N7a)
    kBoardCards,      // decision: cards on the boarding roll, when any applies (N9)
    kBoardRoll,       // N7: the boarding rolls
    kTake,            // decision: take the prize or sink it (N7)
    kEndCheck,        // N8
    kOver
};

struct State {
    int cols = 16, rows = 24;  // the sea: flat-topped hexes, odd-q; the fleets' edges are rows
    hex::Bounds bounds{16, 24};
    // By State::cell: the map's hexes and the ring of land round it (empty_sea puts it there).
    std::array<std::uint8_t, kGridCells> land{};  // 1: land (N1), or off the map
    std::array<std::int8_t, kGridCells> at{};     // the ship in each cell, plus 1; 0: empty sea
    std::array<Ship, kMaxShips> ship{};
    int n_ships = 0;

    // N4: deck[0 .. deck_n) face down, the top at deck_n - 1; the discards; both hands.
    std::array<std::uint8_t, kMaxDeck> deck{}, discards{};
    // N4: the deck's composition (Options deck.*): copies of each card, and all of them.
    std::array<std::uint8_t, kCardKinds> deck_of{};
    int deck_total = 0;
    // N6: the longest range of each ammunition, by enum Ammo (options broadside.range.*).
    std::array<std::int8_t, kAmmoKinds> range{5, 4, 2};
    int deck_n = 0, discards_n = 0;
    std::array<std::array<std::uint8_t, kHandMax>, kSides> hand{};
    std::array<int, kSides> hand_n{};

    int max_turns = 60;  // N8
    int turn = 0;
    int first_mover = 0;                             // this turn's first side to move (N5)
    std::array<bool, kMaxShips> moved{}, boarded{};  // this turn
    std::array<bool, kMaxShips> reloaded{};          // Quick Reload played this turn (N9a)
    // Where play stands (naval_play.hpp, "The turn as a state machine"): the step, the side
    // deciding, and what the step under way needs. A state copied at a decision point resumes
    // from there.
    Step step = Step::kTurnStart;
    std::int8_t actor = 0;                 // the side deciding now (Game::to_move)
    std::int8_t next_side = 0;             // N5: the side to move a ship next
    std::int8_t mover = -1;                // N5: the ship moving
    std::int8_t nth = 0;                   // N9a: 1 for the second broadside after a Quick Reload
    std::int8_t drawn = 0;                 // N4: cards the actor has drawn this draw phase
    std::int8_t card_turn = 0;             // N9: 0 the rolling side's cards, 1 the other side's
    std::int8_t board_i = 0, board_j = 0;  // N7a: the pair asked, or the last pair looked at
    std::int8_t asked = 0;                 // N7a: 0 the lower ship's side asked, 1 the other's
    std::int8_t prize_winner = -1, prize_loser = -1;  // N7: the boarding just won
    int mod = 0, mod_j = 0;  // N9: the card modifiers gathered for the roll under way
    int allowance = 0;       // N5: the movement points rolled
    int resolving = 0;       // N6a: the declared broadside being rolled
    std::array<std::array<std::int8_t, 3>, kMaxShips> loss{};  // N6a: damage held to phase end
    // The broadside phase's declarations so far (N6a), and the ship declaring now.
    std::array<Declared, 2 * kMaxShips> declared{};
    int n_declared = 0;
    int declaring = 0;
    int winner = -2;  // -2: playing; -1: draw; else the side
    bool timeout = false;
    // The rule book's other numbers (N2-N9), from the options: small whole numbers in bytes, and
    // last but the metrics, so that a state's copy (search) stays short and its busy fields close.
    Rules rules{};

    // What the metrics report.
    // The fleet roll (N2): every roll adds one point somewhere, so the sides' rating totals are
    // always equal; what differs is where the points went.
    std::array<std::array<int, 3>, kSides> start_rating{};  // per side: Movement, Cannon, Crew
    std::array<int, kSides> sunk{};      // ships lost to sinking, by the side that held them
    std::array<int, kSides> captures{};  // ships each side took by boarding (N7)
    std::array<std::array<int, kAmmoKinds>, kSides> broadsides{};
    int boardings = 0;

    bool in_bounds(const hex::Hex& h) const noexcept { return bounds.contains(h); }
    // The index of a hex of the map, or of the ring round it, in land and at: the grid has
    // cols + 2 columns and rows + 2 rows.
    int grid_width() const noexcept { return cols + 2; }
    int cell(int col, int row) const noexcept { return (row + 1) * (cols + 2) + col + 1; }
    int cell(const hex::Hex& h) const noexcept {
        return cell(hex::offset_col(h), hex::offset_row(h));
    }
    bool is_land(const hex::Hex& h) const noexcept {
        return land[static_cast<std::size_t>(cell(h))];
    }
    int ship_at(const hex::Hex& h) const noexcept {
        return at[static_cast<std::size_t>(cell(h))] - 1;
    }
    int afloat(int side) const noexcept {
        int n = 0;
        for (int i = 0; i < n_ships; ++i) n += ship[i].afloat && ship[i].side == side;
        return n;
    }
    int highest_movement(int side) const noexcept;
};

// The start of the map's geometry, without dice: the sea of `o` with no islands and no ships.
State empty_sea(const Options& o);

// Where play starts (a position, RULES.md "Positions"): at the start of turn `state.turn + 1`.
// At turn 0 the fleets are not yet rolled: `islands` islands are still to fall (N1a), each
// side's `ships` ships (A's first) hold their ratings before the fleet roll, which adds to them
// (N2), the policies name the flagships and the whole deck is shuffled (N4). At a later turn the
// cards in no hand and not among the discards make the deck, shuffled (its order is unknown at
// the table).
struct Start {
    State state;
    int islands = 0;
};
// The fresh game's start under `o`: the fleets in line on their edge rows (N3), base ratings.
Start opening(const Options& o);

// Positions as text (RULES.md "Positions"). write_position writes a start; read_position reads
// one for the sea of `o`, throwing UsageError "FILE:LINE: WHAT (RULE)" for a malformed or illegal
// one. read_position(write_position(p, o)) gives p back.
std::string write_position(const Start& p, const Options& o);
Start read_position(std::string_view text, std::string_view file, const Options& o);
// Puts ship i at `pos` heading `facing` (tests and setup).
void place(State& s, int i, const hex::Hex& pos, int facing) noexcept;
// N6: the range between two ships, and whether `target` may be shot by `firer` with `ammo`.
bool can_fire(const State& s, int firer, int target, int ammo) noexcept;
// N6 and N6b: can_fire, and the ammunition not barred to the firer's side (restricted play).
bool may_fire(const State& s, int firer, int target, int ammo) noexcept;
// N6b: `shot` if the firer may fire it; else, its ammunition barred to its side, the first
// ammunition it may fire at the same target (roundshot, chainshot, grapeshot), or holding fire.
Shot unbarred_shot(const State& s, int firer, Shot shot) noexcept;
// N7: may ships i and j (enemies) board: adjacent, each in the other's broadside arc?
bool can_board(const State& s, int i, int j) noexcept;
// N5: fills `r` with the reachable ends of ship i's movement with `allowance` points.
void reach(const State& s, int i, int allowance, Reach& r) noexcept;

// The metrics of one game, declared once in naval.cpp (declare_metrics, engine/metric.hpp).
enum Metric : int {
    kAWin,
    kBWin,
    kDraw,
    kAdvantageFirst,
    kTurns,
    kTimeouts,
    kDrawishness,
    kAfloatA,
    kAfloatB,
    kSunkA,
    kSunkB,
    kCapturedByA,
    kCapturedByB,
    kFiredRoundA,
    kFiredRoundB,
    kFiredChainA,
    kFiredChainB,
    kFiredGrapeA,
    kFiredGrapeB,
    kBoardings,
    kMovementEdge,
    kCannonEdge,
    kCrewEdge,
    kMoreGunsWon,
    kFewerGunsWon,
    kMoreCrewWon,
    kLessCrewWon,
    kMetricCount
};
static_assert(int{kAWin} == int{versus::kAWin} && int{kDrawishness} == int{versus::kDrawishness},
              "the outcome metrics (engine/versus.hpp) come first");
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();
void to_metrics(const State& s, std::int32_t* out) noexcept;

}  // namespace odds::naval

#include "engine/naval/naval_play.hpp"
