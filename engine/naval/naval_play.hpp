// Naval Duel's turn loop (N4-N8), as templates over the two sides' policies and the dice.
// Included by naval.hpp; read that first.
//
// A policy is a plain struct satisfying PolicyFor below. All its choices are validated, and a
// choice outside the rules is a policy bug: std::logic_error.
#pragma once

#include <algorithm>
#include <concepts>
#include <stdexcept>

#include "engine/dice.hpp"

namespace odds::naval {

// What the kernel asks a side's policy, with dice of type D:
//   flagship    N2: one of the side's ships
//   move_first  N5: whether the side moves first
//   pick_mover  N5: an unmoved ship of the side
//   move        N5: an index into Reach::end
//   broadside   N6: the ship's target and ammunition (nth 1 after a Quick Reload)
//   board       N7: whether `ship` boards `enemy`
//   take        N7: whether `winner` takes its prize `loser` (true) or sinks it
//   cards       N9: a mask of hand slots to play on the roll
//   discard     N4: the hand slot to discard
template <class P, class D>
concept PolicyFor = requires(P& policy, const State& s, int side, int ship, int nth, int enemy,
                             int winner, int loser, const Reach& reach, const Roll& roll, D& dice) {
    { policy.flagship(s, side, dice) } -> std::same_as<int>;
    { policy.move_first(s, side, dice) } -> std::same_as<bool>;
    { policy.pick_mover(s, side, dice) } -> std::same_as<int>;
    { policy.move(s, ship, reach, dice) } -> std::same_as<int>;
    { policy.broadside(s, ship, nth, dice) } -> std::same_as<Shot>;
    { policy.board(s, ship, enemy, dice) } -> std::same_as<bool>;
    { policy.take(s, winner, loser, dice) } -> std::same_as<bool>;
    { policy.cards(s, side, roll, dice) } -> std::same_as<unsigned>;
    { policy.discard(s, side, dice) } -> std::same_as<int>;
};

// N2 and N6: the attribute tables. The character tables give +1 to Movement on 1-2, Cannon on
// 3-4, Crew on 5-6; the damage table takes a point from the same attributes, 5-7 being Crew
// (grapeshot adds 1 to that roll).
constexpr Attribute attribute_of(int roll) noexcept {
    return roll <= 2 ? kMovement : roll <= 4 ? kCannon : kCrew;
}
// N6: the broadside table: 1-4 nothing, 5-6 one point, 7-8 two, 9+ three.
constexpr int points_of(int roll) noexcept {
    return roll <= 4 ? 0 : roll <= 6 ? 1 : roll <= 8 ? 2 : 3;
}
// N6: a ship at Cannon -2 or below blows its hold and sinks.
inline constexpr int kSinkingCannon = -2;

inline int& rating(Ship& s, int attribute) noexcept {
    return attribute == kMovement ? s.movement : attribute == kCannon ? s.cannon : s.crew;
}

// Runs f on the policy of `side`.
template <class A, class B, class F>
decltype(auto) with_policy(int side, A& a, B& b, F&& f) {
    return side == 0 ? f(a) : f(b);
}

inline void policy_error(const char* what) {
    throw std::logic_error(std::string("naval policy: ") + what);
}

template <class D>
void shuffle(std::uint8_t* cards, int n, D& dice) {
    for (int i = n - 1; i > 0; --i)
        std::swap(cards[i], cards[below(dice, static_cast<std::uint32_t>(i + 1))]);
}

// N2: one roll on a character table for ship s.
template <class D>
void character_roll(Ship& s, D& dice) {
    ++rating(s, attribute_of(dice.d6()));
}

// N1-N4 from a start at turn 0: islands, the fleet rolls (N2a: side A, then side B: National,
// Fleet, then each ship's Ship, Captain and Crew rolls in line order, then the flagship's three
// extra rolls) and the shuffled deck. From a later turn: the deck shuffled.
template <class A, class B, class D>
State begin(const Start& start, A& a, B& b, D& dice) {
    State s = start.state;
    if (s.turn > 0) {
        // N4: every card in no hand and not among the discards is in the deck, unknown order.
        std::array<int, kCardKinds> out{};
        for (int side = 0; side < kSides; ++side)
            for (int k = 0; k < s.hand_n[side]; ++k) ++out[s.hand[side][k]];
        for (int k = 0; k < s.discards_n; ++k) ++out[s.discards[k]];
        s.deck_n = 0;
        for (int c = 0; c < kDeckSize; ++c)
            if (out[c / 2]-- <= 0) s.deck[s.deck_n++] = static_cast<std::uint8_t>(c / 2);
        shuffle(s.deck.data(), s.deck_n, dice);
        s.start_rating = {};
        for (int i = 0; i < s.n_ships; ++i) {
            const Ship& sh = s.ship[i];
            auto& r = s.start_rating[sh.side];
            r[0] += sh.movement;
            r[1] += sh.cannon;
            r[2] += sh.crew;
        }
        return s;
    }
    // N1a: islands fall uniformly on the open sea between the fleets' edge rows.
    for (int k = 0; k < start.islands; ++k) {
        for (;;) {
            const int spot = s.cols + static_cast<int>(below(
                                          dice, static_cast<std::uint32_t>(s.cols * (s.rows - 2))));
            const auto c = static_cast<std::size_t>(s.cell(spot % s.cols, spot / s.cols));
            if (!s.land[c] && !s.at[c]) {
                s.land[c] = 1;
                break;
            }
        }
    }
    const int ships = start.state.n_ships / 2;
    for (int side = 0; side < kSides; ++side) {
        const int national = dice.d6(), fleet = dice.d6();  // N2: once per side
        s.n_ships = (side + 1) * ships;  // the policy names its flagship among its own ships
        for (int k = 0; k < ships; ++k) {
            Ship& sh = s.ship[side * ships + k];
            ++rating(sh, attribute_of(national));
            ++rating(sh, attribute_of(fleet));
            for (int t = 0; t < 3; ++t) character_roll(sh, dice);  // Ship, Captain, Crew
        }
        const int f = with_policy(side, a, b, [&](auto& p) { return p.flagship(s, side, dice); });
        if (f < side * ships || f >= (side + 1) * ships) policy_error("flagship not of the side");
        Ship& flag = s.ship[f];
        flag.flagship = true;
        for (int t = 0; t < 3; ++t) character_roll(flag, dice);
        for (int k = 0; k < ships; ++k) {
            const Ship& sh = s.ship[side * ships + k];
            auto& r = s.start_rating[side];
            r[0] += sh.movement;
            r[1] += sh.cannon;
            r[2] += sh.crew;
        }
    }
    // N4: two of each card, shuffled.
    for (int c = 0; c < kDeckSize; ++c) s.deck[c] = static_cast<std::uint8_t>(c / 2);
    s.deck_n = kDeckSize;
    shuffle(s.deck.data(), s.deck_n, dice);
    return s;
}

// A fresh game's setup: begin from the opening.
template <class A, class B, class D>
State setup(const Options& o, A& a, B& b, D& dice) {
    return begin(opening(o), a, b, dice);
}

// N4: the top card to `side`'s hand; an empty deck is first refilled from the discards, shuffled.
template <class D>
void draw_card(State& s, int side, D& dice) {
    if (s.deck_n == 0) {
        if (s.discards_n == 0) return;  // every card in hand: nothing to draw
        std::copy_n(s.discards.begin(), s.discards_n, s.deck.begin());
        s.deck_n = s.discards_n;
        s.discards_n = 0;
        shuffle(s.deck.data(), s.deck_n, dice);
    }
    auto& h = s.hand[side];
    h[static_cast<std::size_t>(s.hand_n[side]++)] = s.deck[--s.deck_n];
}

inline void discard_slot(State& s, int side, int slot) {
    auto& h = s.hand[side];
    int& n = s.hand_n[side];
    if (slot < 0 || slot >= n) policy_error("discard outside the hand");
    s.discards[s.discards_n++] = h[slot];
    std::copy(h.begin() + slot + 1, h.begin() + n, h.begin() + slot);
    --n;
}

// N4: each side draws a card (A first), then discards down to the hand limit.
template <class A, class B, class D>
void draw_phase(State& s, A& a, B& b, D& dice) {
    for (int side = 0; side < kSides; ++side) {
        draw_card(s, side, dice);
        while (s.hand_n[side] > kHandLimit)
            discard_slot(s, side, with_policy(side, a, b, [&](auto& p) {
                             return p.discard(s, side, dice);
                         }));
    }
}

// N9: `side` plays the cards its policy picks for `roll`, any number (N9b); returns their total
// modifier (for a Quick Reload, 1 if one was played: N9a, at most one a ship a turn). Cards that
// do not apply stay in the hand.
template <class P, class D>
int play_cards(State& s, int side, const Roll& roll, P& policy, D& dice) {
    auto& h = s.hand[side];
    int& n = s.hand_n[side];
    bool any = false;
    for (int k = 0; k < n; ++k) any |= applicable(h[k], roll);
    if (!any) return 0;  // nothing to decide: the policy is not asked
    const unsigned mask = policy.cards(s, side, roll, dice);
    int mod = 0, kept = 0;
    bool reloaded = false;
    for (int k = 0; k < n; ++k) {
        const std::uint8_t card = h[k];
        const bool play =
            (mask >> k & 1u) && applicable(card, roll) && !(card == kQuickReload && reloaded);
        if (play) {
            mod += card == kQuickReload ? 1 : card_modifier(card, roll);
            reloaded |= card == kQuickReload;
            s.discards[s.discards_n++] = card;
        } else {
            h[kept++] = card;
        }
    }
    n = kept;
    return mod;
}

// N9: the rolling side's cards, then the enemy's "opponent" cards, on one roll.
template <class A, class B, class D>
int card_modifiers(State& s, int side, Roll roll, A& a, B& b, D& dice) {
    roll.own = true;
    int mod = with_policy(side, a, b, [&](auto& p) { return play_cards(s, side, roll, p, dice); });
    roll.own = false;
    mod += with_policy(1 - side, a, b,
                       [&](auto& p) { return play_cards(s, 1 - side, roll, p, dice); });
    return mod;
}

inline void sink(State& s, int i) noexcept {
    Ship& sh = s.ship[i];
    sh.afloat = false;
    s.at[static_cast<std::size_t>(s.cell(sh.pos))] = 0;
    ++s.sunk[sh.side];
}

// N5: one ship's move: the cards, the allowance roll 2d6 - 4 + Movement, then the policy's
// choice among the reachable ends.
template <class A, class B, class D>
void move_ship(State& s, int i, A& a, B& b, D& dice) {
    Ship& sh = s.ship[i];
    const int side = sh.side;
    Roll roll;
    roll.kind = Roll::kMove;
    roll.ship = static_cast<std::int8_t>(i);
    const int mod = card_modifiers(s, side, roll, a, b, dice);
    const int allowance = std::max(0, dice.sum_d6(2) - 4 + sh.movement + mod);
    Reach r;
    reach(s, i, allowance, r);
    const int k = with_policy(side, a, b, [&](auto& p) { return p.move(s, i, r, dice); });
    if (k < 0 || k >= r.n) policy_error("move outside the reach");
    s.at[static_cast<std::size_t>(s.cell(sh.pos))] = 0;
    place(s, i, r.end[k].pos(), r.end[k].facing);
    s.moved[i] = true;
}

// N5: the side with the fastest ship chooses to move first or second (tie: both roll a die,
// A first, until they differ; the higher chooses); then the sides alternate, one ship at a time.
template <class A, class B, class D>
void move_phase(State& s, A& a, B& b, D& dice) {
    s.moved.fill(false);
    const int ma = s.highest_movement(0), mb = s.highest_movement(1);
    int chooser = ma > mb ? 0 : 1;
    if (ma == mb)
        for (;;) {
            const int ra = dice.d6(), rb = dice.d6();
            if (ra != rb) {
                chooser = ra > rb ? 0 : 1;
                break;
            }
        }
    const bool first =
        with_policy(chooser, a, b, [&](auto& p) { return p.move_first(s, chooser, dice); });
    s.first_mover = first ? chooser : 1 - chooser;
    const auto waiting = [&](int side) {
        for (int i = 0; i < s.n_ships; ++i) {
            const Ship& sh = s.ship[i];
            if (sh.afloat && sh.side == side && !s.moved[i]) return true;
        }
        return false;
    };
    for (int side = s.first_mover;; side = 1 - side) {
        if (!waiting(side)) {
            side = 1 - side;
            if (!waiting(side)) break;
        }
        const int i = with_policy(side, a, b, [&](auto& p) { return p.pick_mover(s, side, dice); });
        if (i < 0 || i >= s.n_ships || !s.ship[i].afloat || s.ship[i].side != side || s.moved[i])
            policy_error("mover not an unmoved ship of the side");
        move_ship(s, i, a, b, dice);
    }
}

// N6, N6a: every ship declares its broadside (and, N9a, a second one after a Quick Reload), then
// all are rolled in declaration order, then all damage applies at once. The declarations live in
// the state (declared, declaring), so a policy's copy of the state can resume the phase from the
// ship now declaring, with the earlier ships' shots and Quick Reloads as they were made.
template <class A, class B, class D>
void resume_broadsides(State& s, A& a, B& b, D& dice) {
    const auto declare = [&](int i, int nth) {
        const int side = s.ship[i].side;
        const Shot shot =
            with_policy(side, a, b, [&](auto& p) { return p.broadside(s, i, nth, dice); });
        if (shot.target < 0) return false;
        if (shot.ammo >= kAmmoKinds || !can_fire(s, i, shot.target, shot.ammo))
            policy_error("illegal broadside");
        s.declared[s.n_declared++] = {static_cast<std::int8_t>(i), shot};
        return true;
    };
    for (; s.declaring < s.n_ships; ++s.declaring) {
        const int i = s.declaring;
        if (!s.ship[i].afloat || !declare(i, 0)) continue;
        Roll roll;
        roll.kind = Roll::kReload;
        roll.ship = static_cast<std::int8_t>(i);
        const int side = s.ship[i].side;
        if (with_policy(side, a, b, [&](auto& p) { return play_cards(s, side, roll, p, dice); }) >
            0) {
            s.reloaded[i] = true;
            declare(i, 1);
        }
    }
    std::array<std::array<int, 3>, kMaxShips> loss{};
    for (int k = 0; k < s.n_declared; ++k) {
        const int f = s.declared[k].firer;
        const Shot shot = s.declared[k].shot;
        const Ship& firer = s.ship[f];
        const Ship& target = s.ship[shot.target];
        Roll roll;
        roll.kind = Roll::kBroadside;
        roll.ship = static_cast<std::int8_t>(f);
        roll.target = shot.target;
        roll.ammo = shot.ammo;
        roll.rake = hex::in_bow_or_stern(target.pos, target.facing, firer.pos);  // N9
        const int mod = card_modifiers(s, firer.side, roll, a, b, dice);
        const int range = hex::distance(firer.pos, target.pos);
        const int total = dice.d6() + firer.cannon - std::max(0, range - 2) +
                          (shot.ammo == kRoundshot ? 1 : 0) + mod;
        ++s.broadsides[firer.side][shot.ammo];
        for (int p = points_of(total); p > 0; --p) {
            const int attr = shot.ammo == kChainshot
                                 ? kMovement
                                 : attribute_of(dice.d6() + (shot.ammo == kGrapeshot ? 1 : 0));
            ++loss[shot.target][attr];
        }
    }
    for (int i = 0; i < s.n_ships; ++i) {
        Ship& sh = s.ship[i];
        const auto& l = loss[i];
        sh.movement -= l[kMovement];
        sh.cannon -= l[kCannon];
        sh.crew -= l[kCrew];
        if (sh.afloat && sh.cannon <= kSinkingCannon) sink(s, i);
    }
}

template <class A, class B, class D>
void broadside_phase(State& s, A& a, B& b, D& dice) {
    s.reloaded.fill(false);
    s.n_declared = 0;
    s.declaring = 0;
    resume_broadsides(s, a, b, dice);
}

// N7, N7a: boarding actions, pairs taken in order of the lower ship index, then the higher; a
// ship already in an action this turn is passed over; the lower ship's side is asked first.
template <class A, class B, class D>
void boarding_phase(State& s, A& a, B& b, D& dice) {
    s.boarded.fill(false);
    for (int i = 0; i < s.n_ships; ++i)
        for (int j = i + 1; j < s.n_ships; ++j) {
            if (s.boarded[i]) break;
            if (s.boarded[j] || !can_board(s, i, j)) continue;
            const int si = s.ship[i].side, sj = s.ship[j].side;
            const bool want =
                with_policy(si, a, b, [&](auto& p) { return p.board(s, i, j, dice); }) ||
                with_policy(sj, a, b, [&](auto& p) { return p.board(s, j, i, dice); });
            if (!want) continue;
            ++s.boardings;
            s.boarded[i] = s.boarded[j] = true;
            Roll roll;
            roll.kind = Roll::kBoard;
            roll.ship = static_cast<std::int8_t>(i);
            roll.target = static_cast<std::int8_t>(j);
            const int mi =
                with_policy(si, a, b, [&](auto& p) { return play_cards(s, si, roll, p, dice); });
            roll.ship = static_cast<std::int8_t>(j);
            roll.target = static_cast<std::int8_t>(i);
            const int mj =
                with_policy(sj, a, b, [&](auto& p) { return play_cards(s, sj, roll, p, dice); });
            int w;
            for (;;) {  // ties are rolled again, the cards still counting
                const int x = dice.d6() + s.ship[i].crew + mi;
                const int y = dice.d6() + s.ship[j].crew + mj;
                if (x != y) {
                    w = x > y ? i : j;
                    break;
                }
            }
            const int l = w == i ? j : i;
            const int sw = s.ship[w].side;
            if (with_policy(sw, a, b, [&](auto& p) { return p.take(s, w, l, dice); })) {
                // Taken: one of the winner's crew points moves across; the prize's crew is 1.
                --s.ship[w].crew;
                s.ship[l].crew = 1;
                s.ship[l].side = static_cast<std::int8_t>(sw);
                ++s.captures[sw];
            } else {
                sink(s, l);
            }
        }
}

// N8: a side with no ship loses (both at once: a draw); at max_turns the side with more ships
// wins, equal counts are a draw.
inline void end_check(State& s) noexcept {
    const int na = s.afloat(0), nb = s.afloat(1);
    if (na == 0 || nb == 0) {
        s.winner = na ? 0 : nb ? 1 : -1;
    } else if (s.turn >= s.max_turns) {
        s.timeout = true;
        s.winner = na > nb ? 0 : nb > na ? 1 : -1;
    }
}

// One whole turn (N4-N8).
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D>
void play_turn(State& s, A& a, B& b, D& dice) {
    ++s.turn;
    draw_phase(s, a, b, dice);
    move_phase(s, a, b, dice);
    broadside_phase(s, a, b, dice);
    boarding_phase(s, a, b, dice);
    end_check(s);
}

// Whole turns until the game ends.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D>
void play_turns(State& s, A& a, B& b, D& dice) {
    while (s.winner == -2) play_turn(s, a, b, dice);
}

// The rest of the current turn from the broadside declaration under way (State::declaring),
// then whole turns to the end: what a search policy simulates when it weighs a broadside.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D>
void play_from_broadsides(State& s, A& a, B& b, D& dice) {
    resume_broadsides(s, a, b, dice);
    boarding_phase(s, a, b, dice);
    end_check(s);
    play_turns(s, a, b, dice);
}

// One game from a start (a position) to the end.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D> State play(const Start& start, A& a, B& b, D& dice) {
    State s = begin(start, a, b, dice);
    play_turns(s, a, b, dice);
    return s;
}

// One game, from the fleet rolls to the end.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D> State play(const Options& o, A& a, B& b, D& dice) {
    return play(opening(o), a, b, dice);
}

}  // namespace odds::naval
