// Naval Duel policies. Each decides, for its side: the flagship, moving first or second, which
// ship moves next and where it ends, each broadside's target and ammunition, boarding, taking or
// sinking a prize, the cards and the discards (the members listed in naval_play.hpp).
//
//   random   uniform over the legal choices (each playable card: a coin flip)
//   gunner   keeps enemies abeam at 2-4 hexes; roundshot long, grapeshot close, chainshot at fast
//            ships; boards only with the stronger crew
//   gunner-no-grape  gunner with roundshot where gunner fires grapeshot
//   boarder  closes in and boards with its high-crew ships; grapeshot to thin the enemy's crew
//   rollout  gunner, except each broadside's target and ammunition, chosen by simulating every
//            legal choice N times (rollout:N, default 8) to the end of the turn (rollout:N:H, H
//            more turns) with gunner on both sides and scoring the outcome
//   mcts     UCT tree search (policies/mcts.hpp) over the decision points of Game, for the
//            side's win probability; samples the cards it cannot see
//
// Cards (N9c): hands are open to every policy, as M9 makes the star map open, so Crows Nest
// Lookout tells a policy nothing it did not know; policies discard it first.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <variant>

#include "engine/decision.hpp"
#include "engine/dice.hpp"
#include "engine/naval/naval.hpp"
#include "engine/stop.hpp"
#include "policies/mcts.hpp"
#include "policies/policy_table.hpp"

namespace odds::naval {

// Helpers shared by the policies.
namespace tactics {

inline const Ship& ship(const State& s, int i) noexcept { return s.ship[i]; }

// The lowest-index ship of `side` maximising key(ship).
template <class Key>
int best_of_side(const State& s, int side, Key key) {
    int best = -1;
    int best_key = 0;
    for (int i = 0; i < s.n_ships; ++i) {
        const Ship& sh = ship(s, i);
        if (!sh.afloat || sh.side != side) continue;
        const int k = key(sh);
        if (best < 0 || k > best_key) {
            best = i;
            best_key = k;
        }
    }
    return best;
}

// N2, N2a: the policies' flagship: the highest rating total (after the fleet roll all totals
// are equal), then the most of the policy's favourite attribute, then the first in line.
inline int flagship_by(const State& s, int side, int attribute) {
    return best_of_side(s, side, [&](const Ship& sh) {
        const int fav = attribute == kMovement ? sh.movement
                        : attribute == kCannon ? sh.cannon
                                               : sh.crew;
        return sh.total() * 100 + fav;
    });
}

// The first unmoved ship of the side, in line order.
inline int first_unmoved(const State& s, int side) {
    for (int i = 0; i < s.n_ships; ++i) {
        const Ship& sh = ship(s, i);
        if (sh.afloat && sh.side == side && !s.moved[i]) return i;
    }
    return -1;
}

// The enemy ship i may fire on (at the longest range, roundshot's) with the highest score(ship,
// range), the first on ties; -1: none in an arc.
template <class Score>
int best_target(const State& s, int i, Score score) {
    int best = -1, best_score = 0;
    const Ship& me = s.ship[i];
    for (int j = 0; j < s.n_ships; ++j) {
        if (!can_fire(s, i, j, kRoundshot)) continue;
        const Ship& t = s.ship[j];
        const int k = score(t, hex::distance(me.pos, t.pos));
        if (best < 0 || k > best_score) {
            best = j;
            best_score = k;
        }
    }
    return best;
}

// The end of a move (an index into r.end) with the highest score(end), the first on ties.
template <class Score>
int best_end(const Reach& r, Score score) {
    int best = 0, best_score = 0;
    for (int k = 0; k < r.n; ++k) {
        const int v = score(r.end[k]);
        if (k == 0 || v > best_score) {
            best_score = v;
            best = k;
        }
    }
    return best;
}

// Every card the rules let the side play on this roll (N9): the greedy choice.
inline unsigned all_applicable(const State& s, int side, const Roll& roll) {
    unsigned mask = 0;
    for (int k = 0; k < s.hand_n[side]; ++k)
        if (applicable(s.hand[side][k], roll)) mask |= 1u << k;
    return mask;
}

// The hand slot holding the least useful card, by a policy's ranking (lower: discard sooner).
template <std::size_t N>
int worst_card(const State& s, int side, const std::array<int, N>& rank) {
    int best = 0;
    const auto& h = s.hand[side];
    for (int k = 1; k < s.hand_n[side]; ++k)
        if (rank[h[k]] < rank[h[best]]) best = k;
    return best;
}

// The enemies of `side` afloat, gathered once per decision.
struct Enemies {
    std::array<hex::Hex, kMaxShips> pos;
    std::array<std::int8_t, kMaxShips> facing;
    std::array<int, kMaxShips> crew;
    int n = 0;
    Enemies(const State& s, int side) {
        for (int j = 0; j < s.n_ships; ++j) {
            const Ship& e = ship(s, j);
            if (!e.afloat || e.side == side) continue;
            pos[n] = e.pos;
            facing[n] = e.facing;
            crew[n++] = e.crew;
        }
    }
};

// The bearings between two hexes at most 5 apart, by their difference (dq, dr) in -5..5: bits
// 0-2 whether the one is abeam of the other heading 0, 1 or 2 (N6; a heading and its opposite
// have the same arcs), bits 3-5 whether it lies in the bow or stern wedge (N9), likewise, and
// bits 8-11 the distance. The tests are symmetric (they square a cosine), so the entry of
// (dq, dr) serves both directions. Computed from engine/hex.hpp's exact tests.
inline constexpr int kArcReach = 5;
inline constexpr int kArcSide = 2 * kArcReach + 1;
inline constexpr std::array<std::uint16_t, kArcSide* kArcSide> kArcs = [] {
    std::array<std::uint16_t, kArcSide * kArcSide> t{};
    for (int dq = -kArcReach; dq <= kArcReach; ++dq)
        for (int dr = -kArcReach; dr <= kArcReach; ++dr) {
            const hex::Hex v{dq, dr};
            int bits = hex::distance({}, v) << 8;
            for (int f = 0; f < 3; ++f) {
                bits |= hex::in_broadside({}, f, v) << f;
                bits |= hex::in_bow_or_stern({}, f, v) << (3 + f);
            }
            t[static_cast<std::size_t>((dq + kArcReach) * kArcSide + dr + kArcReach)] =
                static_cast<std::uint16_t>(bits);
        }
    return t;
}();
using Cell6 = std::array<int, 6>;  // a score by heading
// A heading modulo 3 (the arcs repeat every half circle).
inline constexpr std::array<std::uint8_t, 6> kHalf{0, 1, 2, 0, 1, 2};

// How well a ship at (pos, facing) stands for gunnery: enemies abeam at 2-4 hexes count most,
// abeam at 1 or 5 less; enemies that have it abeam within 4 count against, a bow or stern to
// rake counts for, and so does lying alongside an enemy with a weaker crew, while lying
// alongside an equal or stronger crew (a boarding it would likely lose) counts heavily against;
// with no enemy within 5, closing the distance is all that matters. Worked out once per hex, for
// all six headings at once, from a table of what one enemy at each offset within 5 adds (a move
// weighs every heading of a hex).
class GunneryScore {
public:
    // The scores of the ends of `r`. An enemy farther than 5 from every end (the start's distance
    // less the most points spent) counts only in the distance to close.
    GunneryScore(const State& s, const Enemies& en, int crew, const Reach& r) : en_(en) {
        std::fill_n(known_.begin(), s.grid_width() * (s.rows + 2), false);
        const hex::Hex start = r.end[0].pos();
        const int spent = r.end[static_cast<std::size_t>(r.n - 1)].cost;
        for (int m = 0; m < en.n; ++m) {
            if (hex::distance(start, en.pos[m]) > spent + kArcReach) continue;
            near_[n_near_++] = static_cast<std::int8_t>(m);
            half_[m] = kHalf[static_cast<std::size_t>(en.facing[m])];
            alongside_[m] = en.crew[m] >= crew ? -120 : 20;
        }
        // Each hex of the ends worked out once: the first end in each listed first, with no
        // branch on whether it is new, then the hexes filled.
        std::array<std::uint16_t, kMaxCells + 1> first;
        int n = 0;
        for (int k = 0; k < r.n; ++k) {
            const auto cell = r.end[static_cast<std::size_t>(k)].cell;
            first[static_cast<std::size_t>(n)] = static_cast<std::uint16_t>(k);
            n += !known_[cell];
            known_[cell] = true;
        }
        for (int k = 0; k < n; ++k) {
            const Reach::End& e = r.end[first[static_cast<std::size_t>(k)]];
            fill(cells_[e.cell], e.pos());
        }
    }
    // The score of an end of `r`.
    int operator()(const Reach::End& e) const noexcept {
        return cells_[e.cell][static_cast<std::size_t>(e.facing)];
    }

private:
    // What one enemy at an offset adds: to the headings (modulo 3) that have it abeam, to all
    // headings by the enemy's own heading (modulo 3: it has us abeam, or we rake it), and
    // whether it lies alongside; by the offset (dq, dr), each clamped to -6..6 (no branch), so
    // that the outer ring, and every offset beyond 5 hexes, adds nothing.
    struct Term {
        std::array<std::int8_t, 3> abeam, by_enemy;
        std::int8_t alongside;
        std::int8_t distance;  // kFar: beyond 5
    };
    static constexpr int kClamp = kArcReach + 1, kTermSide = 2 * kClamp + 1;
    static constexpr std::int8_t kFar = 100;
    static constexpr std::array<Term, kTermSide* kTermSide> kTerms = [] {
        std::array<Term, kTermSide * kTermSide> t{};
        for (Term& term : t) term.distance = kFar;
        for (int dq = -kArcReach; dq <= kArcReach; ++dq)
            for (int dr = -kArcReach; dr <= kArcReach; ++dr) {
                const int arcs = kArcs[static_cast<std::size_t>((dq + kArcReach) * kArcSide + dr +
                                                                kArcReach)],
                          d = arcs >> 8;
                if (d > kArcReach) continue;
                Term& term = t[static_cast<std::size_t>((dq + kClamp) * kTermSide + dr + kClamp)];
                const int worth = d >= 2 && d <= 4 ? 100 - 10 * (d - 2) : 40;
                for (int f = 0; f < 3; ++f) {
                    term.abeam[f] = static_cast<std::int8_t>(arcs >> f & 1 ? worth : 0);
                    term.by_enemy[f] = static_cast<std::int8_t>(
                        d <= 4 ? (arcs >> f & 1 ? -35 : 0) + (arcs >> (3 + f) & 1 ? 10 : 0) : 0);
                }
                term.alongside = d == 1;
                term.distance = static_cast<std::int8_t>(d);
            }
        return t;
    }();
    void fill(Cell6& c, const hex::Hex& pos) const {
        int near = kFar, base = 0;
        std::array<int, 3> abeam{};  // by heading modulo 3: what the enemies abeam are worth
        for (int k = 0; k < n_near_; ++k) {
            const int m = near_[k];
            const hex::Hex v = en_.pos[m] - pos;
            const Term& t = kTerms[static_cast<std::size_t>(
                (std::clamp(v.q, -kClamp, kClamp) + kClamp) * kTermSide +
                std::clamp(v.r, -kClamp, kClamp) + kClamp)];
            near = std::min(near, int{t.distance});
            abeam[0] += t.abeam[0];
            abeam[1] += t.abeam[1];
            abeam[2] += t.abeam[2];
            base += t.by_enemy[half_[m]] + t.alongside * alongside_[m];  // N9: Rake the Bow
        }
        if (near == kFar) {  // no enemy within 5: the nearest, wherever it lies
            near = 1000;
            for (int m = 0; m < en_.n; ++m) near = std::min(near, hex::distance(pos, en_.pos[m]));
        }
        base -= 8 * std::max(0, near - 3);
        for (int f = 0; f < 6; ++f) c[static_cast<std::size_t>(f)] = base + abeam[kHalf[f]];
    }
    const Enemies& en_;
    std::array<std::int8_t, kMaxShips> near_{};  // the enemies that may lie within 5 of an end
    int n_near_ = 0;
    std::array<std::uint8_t, kMaxShips> half_{};
    std::array<int, kMaxShips> alongside_{};
    std::array<bool, kGridCells> known_;
    std::array<Cell6, kGridCells> cells_;
};

}  // namespace tactics

// Uniform over the legal choices.
struct Random {
    template <class D>
    int flagship(const State& s, int side, D& dice) const {
        int n = 0, pick = -1;
        for (int i = 0; i < s.n_ships; ++i)  // reservoir: one pass, each ship equally likely
            if (s.ship[i].side == side && below(dice, static_cast<std::uint32_t>(++n)) == 0)
                pick = i;
        return pick;
    }
    template <class D>
    bool move_first(const State&, int, D& dice) const {
        return below(dice, 2) == 0;
    }
    template <class D>
    int pick_mover(const State& s, int side, D& dice) const {
        int n = 0, pick = -1;
        for (int i = 0; i < s.n_ships; ++i) {
            const Ship& sh = s.ship[i];
            if (sh.afloat && sh.side == side && !s.moved[i] &&
                below(dice, static_cast<std::uint32_t>(++n)) == 0)
                pick = i;
        }
        return pick;
    }
    template <class D>
    int move(const State&, int, const Reach& r, D& dice) const {
        return static_cast<int>(below(dice, static_cast<std::uint32_t>(r.n)));
    }
    template <class D>
    Shot broadside(const State& s, int i, int, D& dice) const {
        std::array<Shot, kMaxShips * kAmmoKinds + 1> options;
        int n = 1;  // options[0]: hold fire
        for (int j = 0; j < s.n_ships; ++j)
            for (int a = 0; a < kAmmoKinds; ++a)
                if (may_fire(s, i, j, a))  // N6b: never a barred ammunition
                    options[n++] = {static_cast<std::int8_t>(j), static_cast<std::uint8_t>(a)};
        return options[below(dice, static_cast<std::uint32_t>(n))];
    }
    template <class D>
    bool board(const State&, int, int, D& dice) const {
        return below(dice, 2) == 0;
    }
    template <class D>
    bool take(const State&, int, int, D& dice) const {
        return below(dice, 2) == 0;
    }
    template <class D>
    unsigned cards(const State& s, int side, const Roll& roll, D& dice) const {
        const unsigned mask = tactics::all_applicable(s, side, roll);
        // A Quick Reload is played or not (N9a: one a ship): one choice, whatever the hand holds.
        if (roll.kind == Roll::kReload) return below(dice, 2) ? mask & (~mask + 1) : 0u;
        return mask & static_cast<unsigned>(dice.word());
    }
    template <class D>
    int discard(const State& s, int side, D& dice) const {
        return static_cast<int>(below(dice, static_cast<std::uint32_t>(s.hand_n[side])));
    }
};

// Gunnery first: stand off abeam and shoot; board only when clearly stronger.
struct Gunner {
    bool grapeshot = true;  // false: roundshot where grapeshot would be fired (gunner-no-grape)

    // Discard order: Crows Nest first, boarding cards next, gunnery cards last.
    static constexpr std::array<int, kCardKinds> kKeep{5, 5, 5, 1, 1, 1, 6, 8, 6, 9, 0, 7, 4, 6};

    template <class D>
    int flagship(const State& s, int side, D&) const {
        return tactics::flagship_by(s, side, kCannon);
    }
    template <class D>
    bool move_first(const State&, int, D&) const {
        return false;
    }  // moving second sees more
    template <class D>
    int pick_mover(const State& s, int side, D&) const {
        return tactics::first_unmoved(s, side);
    }
    template <class D>
    int move(const State& s, int i, const Reach& r, D&) const {
        const Ship& me = s.ship[i];
        const tactics::Enemies enemies(s, me.side);
        tactics::GunneryScore gunnery(s, enemies, me.crew, r);
        return tactics::best_end(r, [&](const Reach::End& e) { return gunnery(e) * 4 - e.cost; });
    }
    // The target nearest to sinking (lowest Cannon), then the nearest; chainshot at a fast ship
    // (Movement 3 or more) within 4, grapeshot within 2, roundshot beyond.
    template <class D>
    Shot broadside(const State& s, int i, int, D&) const {
        const int best =
            tactics::best_target(s, i, [](const Ship& t, int d) { return -(t.cannon * 16 + d); });
        if (best < 0) return {};
        const Ship& t = s.ship[best];
        const int d = hex::distance(s.ship[i].pos, t.pos);
        // N6: within each ammunition's range (options broadside.range.*).
        const std::uint8_t ammo = t.movement >= 3 && d <= s.range[kChainshot] ? kChainshot
                                  : d <= s.range[kGrapeshot] && grapeshot     ? kGrapeshot
                                                                              : kRoundshot;
        return {static_cast<std::int8_t>(best), ammo};
    }
    template <class D>
    bool board(const State& s, int i, int j, D&) const {
        return s.ship[i].crew >= s.ship[j].crew + 2;
    }
    template <class D>
    bool take(const State& s, int w, int, D&) const {
        return s.ship[w].crew >= 3;
    }
    template <class D>
    unsigned cards(const State& s, int side, const Roll& roll, D&) const {
        return tactics::all_applicable(s, side, roll);
    }
    template <class D>
    int discard(const State& s, int side, D&) const {
        return tactics::worst_card(s, side, kKeep);
    }
};

// Boarding first: close to a mutual broadside with the weakest crew in reach and board.
struct Boarder {
    static constexpr std::array<int, kCardKinds> kKeep{6, 6, 6, 9, 9, 9, 5, 3, 2, 4, 0, 5, 6, 2};

    template <class D>
    int flagship(const State& s, int side, D&) const {
        return tactics::flagship_by(s, side, kCrew);
    }
    template <class D>
    bool move_first(const State&, int, D&) const {
        return false;
    }
    template <class D>
    int pick_mover(const State& s, int side, D&) const {
        // The best crew moves first (ties: line order): it picks its prize before the others
        // crowd the water.
        int best = -1;
        for (int i = 0; i < s.n_ships; ++i) {
            const Ship& sh = s.ship[i];
            if (!sh.afloat || sh.side != side || s.moved[i]) continue;
            if (best < 0 || sh.crew > s.ship[best].crew) best = i;
        }
        return best;
    }
    template <class D>
    int move(const State& s, int i, const Reach& r, D&) const {
        const Ship& me = s.ship[i];
        const tactics::Enemies enemies(s, me.side);
        return tactics::best_end(r, [&](const Reach::End& e) {
            const hex::Hex pos = e.pos();
            int score = 0, near = 1000, weaker = 1000;
            for (int m = 0; m < enemies.n; ++m) {
                const hex::Hex& t = enemies.pos[m];
                const int d = hex::distance(pos, t);
                const int edge = me.crew - enemies.crew[m];
                if (d == 1 && hex::in_broadside(pos, e.facing, t))
                    score = std::max(
                        score,
                        300 + 20 * edge + (hex::in_broadside(t, enemies.facing[m], pos) ? 200 : 0));
                near = std::min(near, d);
                if (edge >= 0) weaker = std::min(weaker, d);
            }
            score -= 12 * (weaker < 1000 ? weaker : near);
            return score * 4 - e.cost;
        });
    }
    // The target with the most Crew in reach (it is the hardest to board): grapeshot within 2,
    // roundshot beyond.
    template <class D>
    Shot broadside(const State& s, int i, int, D&) const {
        const int best =
            tactics::best_target(s, i, [](const Ship& t, int d) { return t.crew * 16 - d; });
        if (best < 0) return {};
        const int d = hex::distance(s.ship[i].pos, s.ship[best].pos);
        return {static_cast<std::int8_t>(best), d <= s.range[kGrapeshot] ? kGrapeshot : kRoundshot};
    }
    template <class D>
    bool board(const State& s, int i, int j, D&) const {
        return s.ship[i].crew >= s.ship[j].crew;
    }
    template <class D>
    bool take(const State& s, int w, int, D&) const {
        return s.ship[w].crew >= 2;
    }
    template <class D>
    unsigned cards(const State& s, int side, const Roll& roll, D&) const {
        return tactics::all_applicable(s, side, roll);
    }
    template <class D>
    int discard(const State& s, int side, D&) const {
        return tactics::worst_card(s, side, kKeep);
    }
};

// Gunner with each first broadside searched: every legal (target, ammunition) and holding fire,
// each simulated `budget` times from a copy of the game at this decision point (Game: the choice
// applied, then the rest of this turn, the broadsides declared so far as declared, the ships
// still to declare by gunner, all rolled, then the boarding; then `horizon` more whole turns;
// gunner on both sides), scored by
// the result or, when the horizon comes first, by material. Common random numbers: the k-th
// simulation of every choice uses the same dice. Its simulations draw on their own dice, seeded
// from one word of the game's. Horizon 0 is the default: a whole turn more costs about 30 times as
// much (the movement search) and wins no more often against gunner.
struct Rollout : Gunner {
    int budget = 8;
    int horizon = 0;

    template <class D>
    Shot broadside(const State& s, int i, int nth, D& dice) const {
        Shot base = Gunner::broadside(s, i, nth, dice);
        if (s.rules.barred[s.ship[i].side] != 0) base = unbarred_shot(s, i, base);  // N6b
        if (nth != 0 || base.target < 0) return base;
        std::array<Shot, kMaxShips * kAmmoKinds + 1> options;
        int n = 0;
        options[n++] = base;  // ties keep gunner's choice
        options[n++] = Shot{};
        for (int j = 0; j < s.n_ships; ++j)
            for (int a = 0; a < kAmmoKinds; ++a)
                if (may_fire(s, i, j, a) && !(j == base.target && a == base.ammo))  // N6b
                    options[n++] = {static_cast<std::int8_t>(j), static_cast<std::uint8_t>(a)};
        const int side = s.ship[i].side;
        const std::uint64_t seed = dice.word();
        int best = 0;
        long best_score = 0;
        for (int o = 0; o < n; ++o) {
            long score = 0;
            for (int k = 0; k < budget; ++k) {
                throw_if_stop_requested(k);  // a stop abandons the game (engine/stop.hpp)
                Dice sim(stream_seed(seed, static_cast<std::uint64_t>(k)));
                State copy = s;  // at ship i's first declaration (Game: State::step)
                copy.max_turns = std::min(s.max_turns, s.turn + horizon);
                Game::apply(copy, {},
                            {options[o].target, static_cast<std::int8_t>(options[o].ammo)}, sim);
                Gunner both;
                odds::play_from<Game>(copy, {}, sim, both, both);
                if (!copy.timeout || copy.turn >= s.max_turns)
                    score += copy.winner == side ? 100000 : copy.winner == -1 ? 0 : -100000;
                else
                    score += material(copy, side);
            }
            if (o == 0 || score > best_score) {
                best_score = score;
                best = o;
            }
        }
        return options[best];
    }
};

// The policies that do not search: what mcts may roll out with (the table's first rows, in
// order).
using Basic = std::variant<Random, Gunner, Boarder>;
inline constexpr std::string_view kRollouts[] = {"gunner", "gunner-no-grape", "boarder", "random"};
inline constexpr std::string_view kHands[] = {"hidden", "open"};

// UCT over the game's decision points (policies/mcts.hpp, Game), maximising the side's win
// probability (draws half, Game::reward). Each iteration rolls out with one of the Basic
// policies on both sides, for `horizon` turns after the current one (0: to the end), a game cut
// short scored by material. Cards: by default it does not rely on N9c's open hands; every
// iteration deals the opponent's hand again, with the deck, from the cards it cannot see
// (Game::determinize); hands=open lets it see the hand as the rule-of-thumb policies do (the deck's
// order stays unknown). A question with more choices than a quarter of the iterations (where a
// move may end, often hundreds) cannot be weighed: the rollout policy answers it.
struct Mcts : odds::Mcts<Game, Basic> {
    Mcts(int iterations, double exploration, Basic rollout, int horizon_turns, bool open_hands)
        : odds::Mcts<Game, Basic>(iterations, exploration, std::move(rollout)),
          horizon(horizon_turns) {
        options.open_hands = open_hands;
    }
    int horizon = 1;
    Game::Options options;

    // The answer to the question `s` asks (a decision point, Game).
    template <class D>
    Answer choose(const State& s, D& dice) {
        Answer legal[Game::kMaxChoices];
        if (Game::legal(s, options, legal) > iterations() / 4)
            return std::visit([&](const auto& p) { return ask(s, p, dice); }, rollout());
        if (horizon == 0) return search(s, options, dice);
        State root = s;
        Game::Options o = options;
        o.max_turns = s.max_turns;
        root.max_turns = std::min(s.max_turns, s.turn + horizon);
        return search(root, o, dice);
    }

    template <class D>
    int flagship(const State& s, int, D& dice) {
        return choose(s, dice).a;
    }
    template <class D>
    bool move_first(const State& s, int, D& dice) {
        return choose(s, dice).a != 0;
    }
    template <class D>
    int pick_mover(const State& s, int, D& dice) {
        return choose(s, dice).a;
    }
    template <class D>
    int move(const State& s, int, const Reach& r, D& dice) {
        const Answer a = choose(s, dice);
        for (int k = 0; k < r.n; ++k) {
            const Reach::End& e = r.end[static_cast<std::size_t>(k)];
            if (e.q == a.a && e.r == a.b && e.facing == a.c) return k;
        }
        return -1;  // not an end: the kernel refuses it (a search bug)
    }
    template <class D>
    Shot broadside(const State& s, int, int, D& dice) {
        const Answer a = choose(s, dice);
        return {a.a, static_cast<std::uint8_t>(a.b)};
    }
    template <class D>
    bool board(const State& s, int, int, D& dice) {
        return choose(s, dice).a != 0;
    }
    template <class D>
    bool take(const State& s, int, int, D& dice) {
        return choose(s, dice).a != 0;
    }
    template <class D>
    unsigned cards(const State& s, int, const Roll&, D& dice) {
        return static_cast<std::uint8_t>(choose(s, dice).a);
    }
    template <class D>
    int discard(const State& s, int, D& dice) {
        return choose(s, dice).a;
    }
};

using Policy = std::variant<Random, Gunner, Boarder, Rollout, Mcts>;

// rollout[:N[:H]]: N simulations of each choice, H more turns each.
inline constexpr PolicyParam kRolloutParams[] = {{"N", "simulations", 1, 100000, 8},
                                                 {"H", "turns", 0, 60, 0}};
// mcts[:N[:C[:H]]][:rollout=NAME][:hands=hidden|open]
Policy make_mcts(const Options& o, const PolicyArgs& a);
inline constexpr PolicyParam kMctsParams[] = {odds::mcts_iterations_param(),
                                              odds::mcts_c_param(),
                                              {"H", "turns", 0, 60, 1},
                                              odds::mcts_rollout_param(kRollouts, 0),
                                              {"hands", "cards", 0, 0, 0, 0, kHands}};

// The policies, the default first: name, help and factory.
inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
    {"gunner",
     "keep enemies abeam at 2-4 hexes, clear of stronger crews; roundshot long, grapeshot close, "
     "chainshot at fast ships",
     made<Gunner>},
    {"gunner-no-grape",
     "gunner, but roundshot where gunner fires grapeshot (is grapeshot worth firing?)",
     [](const Options&, const PolicyArgs&) -> Policy { return Gunner{.grapeshot = false}; }},
    {"boarder", "close in and board with high-crew ships; grapeshot to thin the enemy crew",
     made<Boarder>},
    {"random", "uniform over the legal choices", made<Random>},
    {"rollout",
     "gunner, but each broadside's target and ammunition chosen by simulating every choice to the "
     "end of the turn (rollout:N: N simulations each, default 8; rollout:N:H: H more turns)",
     [](const Options&, const PolicyArgs& a) -> Policy {
         Rollout r;
         r.budget = static_cast<int>(a[0]);
         r.horizon = static_cast<int>(a[1]);
         return r;
     },
     kRolloutParams},
    {"mcts",
     "UCT tree search for the side's win probability (draws half): N iterations, exploration C, "
     "rolling out H turns past the current one (0: to the end; cut short: scored by material) "
     "with the named policy; samples the opponent's hand unless hands=open; the rollout policy "
     "answers questions with more than N/4 choices",
     make_mcts, kMctsParams},
};
inline constexpr auto kPolicyInfos = infos_of(kPolicies);

// Every policy the table can make plays the kernel's policy interface.
static_assert(every_alternative<Policy>([]<class P> { return PolicyFor<P, odds::Dice>; }));
static_assert(PolicyFor<Mcts, ScriptedDice>);
static_assert(std::size(kRollouts) == std::variant_size_v<Basic> + 1);  // gunner twice
static_assert(odds::ResumableGame<Game, odds::Dice> && odds::ResumableGame<Game, ScriptedDice>);

inline Policy make_mcts(const Options& o, const PolicyArgs& a) {
    return Mcts(
        static_cast<int>(a[0]), static_cast<double>(a[1]) / 100,
        narrow_policy<Basic>(kPolicies[static_cast<std::size_t>(a[3])].make(o, PolicyArgs{})),
        static_cast<int>(a[2]), a[4] == 1);
}

}  // namespace odds::naval
