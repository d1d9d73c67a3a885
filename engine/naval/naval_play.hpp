// Naval Duel's turn loop (N4-N8), as templates over the two sides' policies and the dice.
// Included by naval.hpp; read that first.
//
// A policy is a plain struct satisfying PolicyFor below. All its choices are validated, and a
// choice outside the rules is a policy bug: std::logic_error.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <stdexcept>

#include "engine/dice.hpp"
#include "engine/stop.hpp"

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

// N6 in the book: a ship at Cannon -2 or below blows its hold and sinks (option sinking.cannon).
inline constexpr int kSinkingCannon = -2;
// N5: the most movement points a ship can have (a move's cost is kept in a signed byte).
inline constexpr int kMaxAllowance = 120;

// N2 and N6: the attribute tables, as State::rules holds them (options fleet.*, attribute.*). In
// the book the character tables give +1 to Movement on 1-2, Cannon on 3-4, Crew on 5-6; the damage
// table takes a point from the same attributes, 5-7 being Crew (grapeshot adds 1 to that roll).
// The book's broadside table (1-4 nothing, 5-6 one point, 7-8 two, 9+ three) is option
// broadside.table's default.
constexpr Attribute attribute_of(const Rules& r, int roll) noexcept {
    return roll <= r.movement_up_to ? kMovement : roll <= r.cannon_up_to ? kCannon : kCrew;
}

// A variant's dice (a d8, a sum of sizes), kept out of line: roll_of stays small enough to
// inline where the book's d6 rolls.
template <class D>
[[gnu::noinline]] int roll_variant(const DiceExpr& e, D& dice) {
    return e.roll(dice);
}
// The total of a dice option: the book's d6 rolls through the dice's own d6 and sum_d6, so that
// the faces are drawn as before, in the same order.
template <class D>
[[gnu::always_inline]] inline int roll_of(const DiceExpr& e, D& dice) {
    if (e.only_d6) [[likely]]
        return (e.d6 == 1 ? dice.d6() : dice.sum_d6(e.d6)) + e.constant;
    return roll_variant(e, dice);
}

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

// N2: the result `face` of a character table for ship s: fleet.bonus to each attribute whose
// faces (options fleet.*) hold it.
inline void character_result(const Rules& r, Ship& s, int face) noexcept {
    s.movement += r.fleet_movement.has(face) ? r.fleet_bonus : 0;
    s.cannon += r.fleet_cannon.has(face) ? r.fleet_bonus : 0;
    s.crew += r.fleet_crew.has(face) ? r.fleet_bonus : 0;
}

// N2: one roll on a character table for ship s.
template <class D>
void character_roll(const Rules& r, Ship& s, D& dice) {
    character_result(r, s, dice.d6());
}

// The turn as a state machine.
//
// A game is a sequence of steps (Step, in naval.hpp): decision points, where the side
// State::actor answers one question, and steps the dice play. The fields of State the step
// under way needs live in State, so a state copied at a decision point can take any legal
// choice and play on (search, policies/mcts.hpp; Rollout). Everything below, the phase
// functions the rule tests call and whole games, drives this one machine: there is no second
// copy of the rules.
//
// The order of the rolls and questions (each rule's paragraph in RULES.md):
//   setup       islands (N1a); side A's National, Fleet and ship rolls (N2a); A names its
//               flagship; its three extra rolls; the same for B; the deck shuffled (N4)
//   draw        A draws, discards to the hand limit; then B (N4)
//   move        fastest ship's side chooses to move first or second (ties: d6 each, A first,
//               until they differ); then the sides alternate, one ship at a time: the side picks
//               a ship, the cards on its roll (the mover's side, then the other: N9), 2d6, the
//               end (N5)
//   broadsides  each ship afloat in index order declares (N6a), and after a shot may play a
//               Quick Reload and declare again (N9a); then the declared shots in order: the
//               cards (firer's side, then the target's), the roll, the damage rolls; then all
//               damage at once (N6)
//   boarding    pairs in order of the lower index, then the higher (N7a): the lower ship's side
//               asked first, the other's only if it declines; each side's boarding cards (lower
//               ship's first); the rolls until they differ; the winner takes or sinks (N7)
//   end         N8

// The N9 roll the current card step is about, from the asked side's (State::actor's) view.
inline Roll pending_roll(const State& s) noexcept {
    Roll roll;
    switch (s.step) {
        case Step::kMoveCards:
            roll.kind = Roll::kMove;
            roll.own = s.card_turn == 0;
            roll.ship = s.mover;
            break;
        case Step::kReloadCards:
            roll.kind = Roll::kReload;
            roll.ship = static_cast<std::int8_t>(s.declaring);
            break;
        case Step::kFireCards: {
            const Declared& d = s.declared[static_cast<std::size_t>(s.resolving)];
            const Ship& target = s.ship[d.shot.target];
            roll.kind = Roll::kBroadside;
            roll.own = s.card_turn == 0;
            roll.ship = d.firer;
            roll.target = d.shot.target;
            roll.ammo = d.shot.ammo;
            // N9: the bearing is worked out only for a hand that could play Rake the Bow.
            const auto& hand = s.hand[s.actor];
            const auto end = hand.begin() + s.hand_n[s.actor];
            roll.rake = roll.own && std::find(hand.begin(), end, kRakeTheBow) != end &&
                        hex::in_bow_or_stern(target.pos, target.facing, s.ship[d.firer].pos);
            break;
        }
        default:  // kBoardCards: each side's own roll
            roll.kind = Roll::kBoard;
            roll.ship = s.asked == 0 ? s.board_i : s.board_j;
            roll.target = s.asked == 0 ? s.board_j : s.board_i;
            break;
    }
    return roll;
}

// Does the actor hold a card that applies to the pending roll (else it is not asked: N9)? The
// common answer, an empty or useless hand, without working out the roll.
inline bool any_card(const State& s) noexcept {
    const int n = s.hand_n[s.actor];
    if (n == 0) return false;
    const auto& hand = s.hand[s.actor];
    const Roll roll = pending_roll(s);
    for (int k = 0; k < n; ++k)
        if (applicable(hand[k], roll)) return true;
    return false;
}

// Is the step a question to State::actor?
inline bool asks(const State& s) noexcept {
    switch (s.step) {
        case Step::kFlagship:
        case Step::kDiscard:
        case Step::kMoveFirst:
        case Step::kPickMover:
        case Step::kMoveEnd:
        case Step::kDeclare:
        case Step::kBoard:
        case Step::kTake:
            return true;
        case Step::kMoveCards:
        case Step::kReloadCards:
        case Step::kFireCards:
        case Step::kBoardCards:
            return any_card(s);
        default:
            return false;
    }
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

// N9: `side` plays the cards of `mask` (hand slots) that apply to `roll`, any number (N9b), at
// most one Quick Reload (N9a); the rest stay in hand. Returns their total modifier (a Quick
// Reload counts 1: a second broadside).
inline int play_mask(State& s, int side, const Roll& roll, unsigned mask) noexcept {
    auto& h = s.hand[side];
    int& n = s.hand_n[side];
    int mod = 0, kept = 0;
    bool reloaded = false;
    for (int k = 0; k < n; ++k) {
        const std::uint8_t card = h[k];
        const bool play =
            (mask >> k & 1u) && applicable(card, roll) && !(card == kQuickReload && reloaded);
        if (play) {
            mod += card == kQuickReload ? 1 : card_modifier(s.rules, card, roll);
            reloaded |= card == kQuickReload;
            s.discards[s.discards_n++] = card;
        } else {
            h[kept++] = card;
        }
    }
    n = kept;
    return mod;
}

inline void sink(State& s, int i) noexcept {
    Ship& sh = s.ship[i];
    sh.afloat = false;
    s.at[static_cast<std::size_t>(s.cell(sh.pos))] = 0;
    ++s.sunk[sh.side];
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

// Does `side` have a ship afloat still to move this turn (N5)?
inline bool waiting(const State& s, int side) noexcept {
    for (int i = 0; i < s.n_ships; ++i) {
        const Ship& sh = s.ship[i];
        if (sh.afloat && sh.side == side && !s.moved[i]) return true;
    }
    return false;
}

// What the metrics compare (kMovementEdge...): a ship's ratings as play starts, by its side.
inline void count_start_rating(State& s, const Ship& sh) noexcept {
    auto& r = s.start_rating[sh.side];
    r[0] += sh.movement;
    r[1] += sh.cannon;
    r[2] += sh.crew;
}

// N2: a side's National and Fleet rolls, then each of its ships' Ship, Captain and Crew rolls.
template <class D>
void fleet_roll(State& s, int side, int ships, D& dice) {
    const int national = dice.d6(), fleet = dice.d6();  // N2: once per side
    s.n_ships = (side + 1) * ships;  // the policy names its flagship among its own ships
    for (int k = 0; k < ships; ++k) {
        Ship& sh = s.ship[side * ships + k];
        character_result(s.rules, sh, national);
        character_result(s.rules, sh, fleet);
        for (int t = 0; t < 3; ++t) character_roll(s.rules, sh, dice);  // Ship, Captain, Crew
    }
    s.actor = static_cast<std::int8_t>(side);
    s.step = Step::kFlagship;
}

// A question's answer (Game::Choice): flagship, discard, pick_mover: a is the ship or slot;
// move_first, board, take: a is 0 or 1; cards: a is the mask of hand slots; the move's end: a, b
// the hex (q, r), c the heading; a broadside: a the target (-1: hold fire), b the ammunition.
struct Answer {
    std::int8_t a = 0, b = 0, c = 0;
    bool operator==(const Answer&) const = default;
};

// N9: the card step's answer: the asked side plays `mask`, then the step moves on.
inline void apply_cards(State& s, unsigned mask) noexcept {
    const int side = s.actor;
    const int m = mask ? play_mask(s, side, pending_roll(s), mask) : 0;
    switch (s.step) {
        case Step::kMoveCards:  // the mover's side, then the other (N9)
        case Step::kFireCards:  // the firer's side, then the target's
            s.mod += m;
            if (s.card_turn == 0) {
                s.card_turn = 1;
                s.actor = static_cast<std::int8_t>(1 - side);
            } else {
                s.step = s.step == Step::kMoveCards ? Step::kMoveRoll : Step::kFireRoll;
            }
            return;
        case Step::kReloadCards:  // N9a: a Quick Reload played: a second broadside
            if (m > 0) {
                s.reloaded[static_cast<std::size_t>(s.declaring)] = true;
                s.nth = 1;
                s.step = Step::kDeclare;
            } else {
                ++s.declaring;
                s.step = Step::kNextDeclarer;
            }
            return;
        default:  // kBoardCards: the lower ship's side, then the other's (N7a)
            if (s.asked == 0) {
                s.mod = m;
                s.asked = 1;
                s.actor = s.ship[s.board_j].side;
            } else {
                s.mod_j = m;
                s.step = Step::kBoardRoll;
            }
            return;
    }
}

// The answer to the question State::step asks State::actor, then on to the next step.
template <class D>
void answer(State& s, const Answer& c, D& dice) {
    const int side = s.actor;
    switch (s.step) {
        case Step::kFlagship: {  // N2: the flagship's three extra rolls; then B's fleet roll
            const int ships = s.n_ships / (side + 1), f = c.a;
            if (f < side * ships || f >= (side + 1) * ships)
                policy_error("flagship not of the side");
            Ship& flag = s.ship[f];
            flag.flagship = true;
            for (int t = 0; t < 3; ++t) character_roll(s.rules, flag, dice);
            for (int k = 0; k < ships; ++k) count_start_rating(s, s.ship[side * ships + k]);
            if (side == 0) {
                fleet_roll(s, 1, ships, dice);
            } else {  // N4: the deck (two of each card in the book), shuffled
                s.deck_n = 0;
                for (int card = 0; card < kCardKinds; ++card)
                    for (int k = 0; k < s.deck_of[card]; ++k)
                        s.deck[s.deck_n++] = static_cast<std::uint8_t>(card);
                shuffle(s.deck.data(), s.deck_n, dice);
                s.step = Step::kTurnStart;
            }
            return;
        }
        case Step::kDiscard:  // N4: down to the hand limit (hand.max); then the next draw
            discard_slot(s, side, c.a);
            if (s.hand_n[side] > s.rules.hand_max) return;
            s.step = Step::kDraw;
            return;
        case Step::kMoveFirst:
            s.first_mover = c.a ? side : 1 - side;
            s.next_side = static_cast<std::int8_t>(s.first_mover);
            s.step = Step::kNextMover;
            return;
        case Step::kPickMover: {
            const int i = c.a;
            if (i < 0 || i >= s.n_ships || !s.ship[i].afloat || s.ship[i].side != side ||
                s.moved[i])
                policy_error("mover not an unmoved ship of the side");
            s.mover = static_cast<std::int8_t>(i);
            s.card_turn = 0;
            s.mod = 0;
            s.step = Step::kMoveCards;
            return;
        }
        case Step::kMoveEnd: {  // from Game::legal or ask(): an end of the ship's reach
            const hex::Hex to{c.a, c.b};
            const int i = s.mover;
            if (!s.in_bounds(to) || s.is_land(to) || (s.ship_at(to) >= 0 && s.ship_at(to) != i) ||
                c.c < 0 || c.c >= 6)
                policy_error("move outside the reach");
            s.at[static_cast<std::size_t>(s.cell(s.ship[i].pos))] = 0;
            place(s, i, to, c.c);
            s.moved[i] = true;
            s.next_side = static_cast<std::int8_t>(1 - side);
            s.step = Step::kNextMover;
            return;
        }
        case Step::kDeclare: {  // N6a; after a Quick Reload, the second broadside (N9a)
            const int i = s.declaring;
            if (c.a >= 0) {
                const Shot shot{c.a, static_cast<std::uint8_t>(c.b)};
                if (c.b < 0 || shot.ammo >= kAmmoKinds || !can_fire(s, i, shot.target, shot.ammo))
                    policy_error("illegal broadside");
                s.declared[static_cast<std::size_t>(s.n_declared++)] = {static_cast<std::int8_t>(i),
                                                                        shot};
                if (s.nth == 0) {
                    s.step = Step::kReloadCards;
                    return;
                }
            }
            ++s.declaring;
            s.step = Step::kNextDeclarer;
            return;
        }
        case Step::kBoard:  // N7a: the lower ship's side, then (if it declines) the other's
            if (c.a) {
                ++s.boardings;
                s.boarded[s.board_i] = s.boarded[s.board_j] = true;
                s.asked = 0;
                s.actor = s.ship[s.board_i].side;
                s.step = Step::kBoardCards;
            } else if (s.asked == 0) {
                s.asked = 1;
                s.actor = s.ship[s.board_j].side;
            } else {
                s.step = Step::kNextPair;
            }
            return;
        case Step::kTake: {  // N7: taken, one of the winner's crew points moves across
            const int w = s.prize_winner, l = s.prize_loser;
            if (c.a) {  // boarding.prize_crew points
                s.ship[w].crew -= s.rules.prize_crew;
                s.ship[l].crew = s.rules.prize_crew;
                s.ship[l].side = static_cast<std::int8_t>(side);
                ++s.captures[side];
            } else {
                sink(s, l);
            }
            s.step = Step::kNextPair;
            return;
        }
        default:  // the card steps
            apply_cards(s, static_cast<std::uint8_t>(c.a));
            return;
    }
}

// The question State::step asks, put to `policy` (the members PolicyFor lists).
template <class P, class D>
Answer ask(const State& s, P& policy, D& dice) {
    const int side = s.actor;
    const auto yes = [](bool b) { return Answer{static_cast<std::int8_t>(b)}; };
    const auto index = [](int i) { return Answer{static_cast<std::int8_t>(i)}; };
    switch (s.step) {
        case Step::kFlagship:
            return index(policy.flagship(s, side, dice));
        case Step::kDiscard:
            return index(policy.discard(s, side, dice));
        case Step::kMoveFirst:
            return yes(policy.move_first(s, side, dice));
        case Step::kPickMover:
            return index(policy.pick_mover(s, side, dice));
        case Step::kMoveEnd: {
            Reach r;
            reach(s, s.mover, s.allowance, r);
            const int k = policy.move(s, s.mover, r, dice);
            if (k < 0 || k >= r.n) policy_error("move outside the reach");
            const Reach::End& e = r.end[static_cast<std::size_t>(k)];
            return {e.q, e.r, e.facing};
        }
        case Step::kDeclare: {
            Shot shot = policy.broadside(s, s.declaring, s.nth, dice);
            if (s.rules.barred[side] != 0) shot = unbarred_shot(s, s.declaring, shot);  // N6b
            return {shot.target, static_cast<std::int8_t>(shot.target < 0 ? 0 : shot.ammo)};
        }
        case Step::kBoard:  // N7b: a side barred from boarding is not asked: no
            if (s.rules.bars(side, Rules::kBarBoard)) return yes(false);
            return s.asked == 0 ? yes(policy.board(s, s.board_i, s.board_j, dice))
                                : yes(policy.board(s, s.board_j, s.board_i, dice));
        case Step::kTake:  // N7b: a side barred from taking prizes is not asked: it sinks
            if (s.rules.bars(side, Rules::kBarTake)) return yes(false);
            return yes(policy.take(s, s.prize_winner, s.prize_loser, dice));
        default: {  // the card steps: the slots of the hand
            const unsigned mask = policy.cards(s, side, pending_roll(s), dice);
            return index(static_cast<int>(mask & ((1u << s.hand_n[side]) - 1)));
        }
    }
}

// One step the dice play (not a question; not kOver).
template <class D>
void play_step(State& s, D& dice) {
    switch (s.step) {
        case Step::kTurnStart:
            ++s.turn;
            s.actor = 0;
            s.step = Step::kDraw;
            return;
        case Step::kDraw:  // N4: hand.draw cards one at a time, each down to hand.max; A then B
            if (s.drawn < s.rules.hand_draw) {
                ++s.drawn;
                draw_card(s, s.actor, dice);
                if (s.hand_n[s.actor] > s.rules.hand_max) s.step = Step::kDiscard;
                return;
            }
            s.drawn = 0;
            if (s.actor == 0)
                s.actor = 1;
            else
                s.step = Step::kMovePhase;
            return;
        case Step::kMovePhase: {
            // N5: the side with the fastest ship chooses (tie: a die each, A first, until they
            // differ; the higher chooses).
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
            s.actor = static_cast<std::int8_t>(chooser);
            s.step = Step::kMoveFirst;
            return;
        }
        case Step::kNextMover: {
            int side = s.next_side;
            if (!waiting(s, side)) {
                side = 1 - side;
                if (!waiting(s, side)) {
                    s.step = Step::kBroadsidePhase;
                    return;
                }
            }
            s.actor = static_cast<std::int8_t>(side);
            s.step = Step::kPickMover;
            return;
        }
        case Step::kMoveRoll:
            // N5: the allowance, 2d6 - 4 (move.roll) + Movement and the cards, never below 0.
            s.allowance =
                std::clamp(roll_of(s.rules.move_roll, dice) + s.ship[s.mover].movement + s.mod, 0,
                           kMaxAllowance);
            s.actor = s.ship[s.mover].side;
            s.step = Step::kMoveEnd;
            return;
        case Step::kBroadsidePhase:
            s.reloaded.fill(false);
            s.n_declared = 0;
            s.declaring = 0;
            s.step = Step::kNextDeclarer;
            return;
        case Step::kNextDeclarer:
            while (s.declaring < s.n_ships && !s.ship[s.declaring].afloat) ++s.declaring;
            if (s.declaring == s.n_ships) {
                s.resolving = 0;
                for (auto& l : s.loss) l = {};
                s.step = Step::kFire;
            } else {
                s.nth = 0;
                s.actor = s.ship[s.declaring].side;
                s.step = Step::kDeclare;
            }
            return;
        case Step::kFire:
            if (s.resolving == s.n_declared) {
                s.step = Step::kDamage;
            } else {
                s.actor = s.ship[s.declared[static_cast<std::size_t>(s.resolving)].firer].side;
                s.card_turn = 0;
                s.mod = 0;
                s.step = Step::kFireCards;
            }
            return;
        case Step::kFireRoll: {
            // N6: d6 + Cannon - 1 a hex beyond 2 + 1 for roundshot + the cards; a damage roll a
            // point (chainshot: Movement; grapeshot adds 1).
            // The book's numbers are options: broadside.roll, broadside.range_penalty.*,
            // broadside.*.modifier, broadside.table, attribute.*.
            const Rules& r = s.rules;
            const Declared& d = s.declared[static_cast<std::size_t>(s.resolving)];
            const Ship& firer = s.ship[d.firer];
            const Ship& target = s.ship[d.shot.target];
            const auto ammo = static_cast<std::size_t>(d.shot.ammo);
            const int range = hex::distance(firer.pos, target.pos);
            const int total = roll_of(r.broadside_roll, dice) + firer.cannon -
                              std::max(0, range - r.penalty_beyond) * r.penalty_per_hex +
                              r.ammo_modifier[ammo] + s.mod;
            ++s.broadsides[firer.side][ammo];
            const int takes = r.takes[ammo];
            for (int p = r.broadside_table.of(total); p > 0; --p) {
                const int attr = takes != kTakesTable
                                     ? takes - kTakesMovement + kMovement
                                     : attribute_of(r, roll_of(r.attribute_roll, dice) +
                                                           r.attribute_modifier[ammo]);
                ++s.loss[static_cast<std::size_t>(d.shot.target)][static_cast<std::size_t>(attr)];
            }
            ++s.resolving;
            s.step = Step::kFire;
            return;
        }
        case Step::kDamage:
            for (int i = 0; i < s.n_ships; ++i) {
                Ship& sh = s.ship[i];
                const auto& l = s.loss[static_cast<std::size_t>(i)];
                sh.movement -= l[kMovement];
                sh.cannon -= l[kCannon];
                sh.crew -= l[kCrew];
                if (sh.afloat && sh.cannon <= s.rules.sinking_cannon) sink(s, i);
            }
            s.step = Step::kBoardingPhase;
            return;
        case Step::kBoardingPhase:
            s.boarded.fill(false);
            s.board_i = 0;
            s.board_j = 0;
            s.step = Step::kNextPair;
            return;
        case Step::kNextPair: {
            // N7a: the pair after (board_i, board_j); a ship already in an action is passed over.
            int i = s.board_i, j = s.board_j + 1;
            for (; i < s.n_ships; ++i, j = i + 1)
                for (; j < s.n_ships; ++j) {
                    if (s.boarded[i]) break;
                    if (s.boarded[j] || !can_board(s, i, j)) continue;
                    s.board_i = static_cast<std::int8_t>(i);
                    s.board_j = static_cast<std::int8_t>(j);
                    s.asked = 0;
                    s.actor = s.ship[i].side;
                    s.step = Step::kBoard;
                    return;
                }
            s.step = Step::kEndCheck;
            return;
        }
        case Step::kBoardRoll: {
            // N7: d6 (boarding.roll) + Crew + the cards each; ties are rolled again, the cards
            // still counting (or, boarding.ties=nobody, the ships part with no prize).
            const int i = s.board_i, j = s.board_j;
            const DiceExpr& roll = s.rules.boarding_roll;
            int w;
            for (;;) {
                const int x = roll_of(roll, dice) + s.ship[i].crew + s.mod;
                const int y = roll_of(roll, dice) + s.ship[j].crew + s.mod_j;
                if (x != y) {
                    w = x > y ? i : j;
                    break;
                }
                if (!s.rules.ties_reroll) {
                    s.step = Step::kNextPair;
                    return;
                }
            }
            s.prize_winner = static_cast<std::int8_t>(w);
            s.prize_loser = static_cast<std::int8_t>(w == i ? j : i);
            s.actor = s.ship[w].side;
            s.step = Step::kTake;
            return;
        }
        case Step::kEndCheck:
            end_check(s);
            s.step = s.winner == -2 ? Step::kTurnStart : Step::kOver;
            return;
        default:  // a card step the actor holds no card for: nothing played (N9)
            apply_cards(s, 0u);
            return;
    }
}

// Runs the dice's steps until a question, the end, or the step `stop`.
template <class D>
void advance(State& s, D& dice, Step stop = Step::kOver) {
    while (s.step != stop && s.step != Step::kOver && !asks(s)) play_step(s, dice);
}

// Where play starts (a position, naval.hpp Start), up to the first question or the first turn.
// At turn 0: the islands (N1a) and side A's fleet roll (N2), up to A's flagship; later: the deck
// of the cards in no hand and not among the discards, shuffled (N4: its order is unknown at the
// table), at the start of the next turn.
template <class D>
State enter(const Start& start, D& dice) {
    State s = start.state;
    if (s.turn > 0) {
        std::array<int, kCardKinds> out{};
        for (int side = 0; side < kSides; ++side)
            for (int k = 0; k < s.hand_n[side]; ++k) ++out[s.hand[side][k]];
        for (int k = 0; k < s.discards_n; ++k) ++out[s.discards[k]];
        s.deck_n = 0;
        for (int card = 0; card < kCardKinds; ++card)
            for (int k = 0; k < s.deck_of[card]; ++k)
                if (out[card]-- <= 0) s.deck[s.deck_n++] = static_cast<std::uint8_t>(card);
        shuffle(s.deck.data(), s.deck_n, dice);
        s.start_rating = {};
        for (int i = 0; i < s.n_ships; ++i) count_start_rating(s, s.ship[i]);
        s.step = Step::kTurnStart;
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
    fleet_roll(s, 0, start.state.n_ships / 2, dice);
    return s;
}

// Runs the machine with `a` deciding for side A and `b` for side B until the step `stop` (or the
// end).
template <class A, class B, class D>
void drive(State& s, A& a, B& b, D& dice, Step stop) {
    unsigned steps = 0;
    for (advance(s, dice, stop); s.step != stop && s.step != Step::kOver; advance(s, dice, stop)) {
        if (++steps % kStopCheckPlay == 0) [[unlikely]]  // max_turns, a large sea: long games
            throw_if_stop_requested();
        answer(s, with_policy(s.actor, a, b, [&](auto& p) { return ask(s, p, dice); }), dice);
    }
}

// Material from `side`'s view: each ship afloat, by its Cannon above sinking (N6), Crew and
// Movement; the enemy's counting against. What search scores a game cut short by.
inline int material(const State& s, int side) noexcept {
    int v = 0;
    for (int i = 0; i < s.n_ships; ++i) {
        const Ship& sh = s.ship[i];
        if (!sh.afloat) continue;
        const int worth =
            40 + 8 * (sh.cannon - s.rules.sinking_cannon) + 2 * sh.crew + 2 * sh.movement;
        v += sh.side == side ? worth : -worth;
    }
    return v;
}

// Naval Duel as a resumable game (engine/decision.hpp): the machine above, every question a
// decision point. Search samples what it cannot see (determinize).
struct Game {
    // What search assumes of the cards: N9c makes hands open (every rule-of-thumb policy reads
    // both); hidden, the searcher samples the opponent's hand too.
    //
    // A search may also cut its games short (policies.hpp, Mcts): it lowers State::max_turns on
    // its copy and says the real cap here; a game ended by the lowered cap is scored by material.
    struct Options {
        bool open_hands = false;
        int max_turns = 0;  // the real turn cap (N8) when a search lowered its copy's; 0: none
    };
    using State = naval::State;
    using Choice = Answer;
    static constexpr int kMaxChoices = kMaxCells * 6;  // the ends of a move, at most
    static constexpr bool kOpenLoop = true;

    static bool over(const State& s, const Options&) noexcept { return s.winner != -2; }
    static int to_move(const State& s, const Options&) noexcept { return s.actor; }
    // Two seats: 1 a win, 0.5 a draw (N8), 0 a loss; a game a search cut short, from 0 to 1 by
    // material (a whole ship, about 100, is worth about 0.2).
    static double reward(const State& s, const Options& o, int seat) noexcept {
        if (s.timeout && s.turn < o.max_turns)
            return 0.5 + 0.5 * std::tanh(material(s, seat) / 250.0);
        return s.winner == seat ? 1.0 : s.winner == -1 ? 0.5 : 0.0;
    }

    // Every answer the rules allow here. Slots holding the same card are one choice (a discard,
    // or which copy of a card to play); a Quick Reload is played or not (N9a: at most one).
    static int legal(const State& s, const Options&, Choice* out) noexcept {
        int n = 0;
        const auto add = [&](int a, int b = 0, int c = 0) {
            out[n++] = {static_cast<std::int8_t>(a), static_cast<std::int8_t>(b),
                        static_cast<std::int8_t>(c)};
        };
        const int side = s.actor;
        const auto& hand = s.hand[side];
        const auto copy_before = [&](int k) {  // an earlier slot holds the same card
            for (int j = 0; j < k; ++j)
                if (hand[j] == hand[k]) return j;
            return -1;
        };
        switch (s.step) {
            case Step::kFlagship: {
                const int ships = s.n_ships / (side + 1);
                for (int i = side * ships; i < (side + 1) * ships; ++i) add(i);
                break;
            }
            case Step::kDiscard:
                for (int k = 0; k < s.hand_n[side]; ++k)
                    if (copy_before(k) < 0) add(k);
                break;
            case Step::kBoard:  // N7b: no boarding when barred
            case Step::kTake:   // N7b: no prize taken when barred
                if (!s.rules.bars(side,
                                  s.step == Step::kBoard ? Rules::kBarBoard : Rules::kBarTake))
                    add(1);
                add(0);
                break;
            case Step::kMoveFirst:
                add(1);
                add(0);
                break;
            case Step::kPickMover:
                for (int i = 0; i < s.n_ships; ++i)
                    if (s.ship[i].afloat && s.ship[i].side == side && !s.moved[i]) add(i);
                break;
            case Step::kMoveEnd: {
                Reach r;
                reach(s, s.mover, s.allowance, r);
                for (int k = 0; k < r.n; ++k) {
                    const Reach::End& e = r.end[static_cast<std::size_t>(k)];
                    add(e.q, e.r, e.facing);
                }
                break;
            }
            case Step::kDeclare:
                add(-1);
                for (int j = 0; j < s.n_ships; ++j)
                    for (int a = 0; a < kAmmoKinds; ++a)  // N6b: no barred ammunition
                        if (may_fire(s, s.declaring, j, a)) add(j, a);
                break;
            default: {  // the card steps: every set of the cards that apply
                const Roll roll = pending_roll(s);
                unsigned usable = 0;
                for (int k = 0; k < s.hand_n[side]; ++k)
                    if (applicable(hand[k], roll)) usable |= 1u << k;
                if (s.step == Step::kReloadCards) {
                    add(0);
                    add(static_cast<int>(usable & (~usable + 1)));
                    break;
                }
                // Every subset of `usable`, a card's second copy only with its first.
                for (unsigned sub = 0;; sub = (sub - usable) & usable) {
                    bool canonical = true;
                    for (int k = 0; k < s.hand_n[side]; ++k)
                        if (sub >> k & 1u) {
                            const int j = copy_before(k);
                            canonical &= j < 0 || (sub >> j & 1u);
                        }
                    if (canonical) add(static_cast<int>(sub));
                    if (sub == usable) break;
                }
                break;
            }
        }
        return n;
    }

    template <class P, class D>
    static Choice decide(const State& s, const Options&, P& policy, D& dice) {
        return ask(s, policy, dice);
    }
    // Plays the answer and every roll up to the next decision point (or the end).
    template <class D>
    static void apply(State& s, const Options&, const Choice& c, D& dice) {
        answer(s, c, dice);
        advance(s, dice);
    }
    // What `seat` cannot see, sampled: the deck's order, and with hands hidden the other side's
    // hand, dealt again from those cards.
    template <class D>
    static void determinize(State& s, const Options& o, int seat, D& dice) {
        std::array<std::uint8_t, kMaxDeck> pool;
        const int other = 1 - seat;
        const int held = o.open_hands ? 0 : s.hand_n[other];
        std::copy_n(s.hand[other].begin(), held, pool.begin());
        std::copy_n(s.deck.begin(), s.deck_n, pool.begin() + held);
        shuffle(pool.data(), held + s.deck_n, dice);
        std::copy_n(pool.begin(), held, s.hand[other].begin());
        std::copy_n(pool.begin() + held, s.deck_n, s.deck.begin());
    }
    // The first decision point of a game from `start`.
    template <class D>
    static State start(const Start& start, D& dice) {
        State s = enter(start, dice);
        advance(s, dice);
        return s;
    }
};

// N1-N4 from a start: up to the first turn, the flagships named by the policies (`enter`).
template <class A, class B, class D>
State begin(const Start& start, A& a, B& b, D& dice) {
    State s = enter(start, dice);
    drive(s, a, b, dice, Step::kTurnStart);
    return s;
}

// A fresh game's setup: begin from the opening.
template <class A, class B, class D>
State setup(const Options& o, A& a, B& b, D& dice) {
    return begin(opening(o), a, b, dice);
}

// The phases, each on its own (the rule tests): each runs the machine from the phase's first
// step to the next phase's.
template <class A, class B, class D>
void draw_phase(State& s, A& a, B& b, D& dice) {  // N4
    s.actor = 0;
    s.step = Step::kDraw;
    drive(s, a, b, dice, Step::kMovePhase);
}
template <class A, class B, class D>
void move_phase(State& s, A& a, B& b, D& dice) {  // N5
    s.step = Step::kMovePhase;
    drive(s, a, b, dice, Step::kBroadsidePhase);
}
template <class A, class B, class D>
void broadside_phase(State& s, A& a, B& b, D& dice) {  // N6, N6a
    s.step = Step::kBroadsidePhase;
    drive(s, a, b, dice, Step::kBoardingPhase);
}
// The broadside phase on from a copy taken at one of its decision points.
template <class A, class B, class D>
void resume_broadsides(State& s, A& a, B& b, D& dice) {
    drive(s, a, b, dice, Step::kBoardingPhase);
}
template <class A, class B, class D>
void boarding_phase(State& s, A& a, B& b, D& dice) {  // N7, N7a
    s.step = Step::kBoardingPhase;
    drive(s, a, b, dice, Step::kEndCheck);
}

// One whole turn (N4-N8).
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D>
void play_turn(State& s, A& a, B& b, D& dice) {
    s.step = Step::kTurnStart;
    play_step(s, dice);
    drive(s, a, b, dice, Step::kTurnStart);
}

// Whole turns until the game ends.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D>
void play_turns(State& s, A& a, B& b, D& dice) {
    while (s.winner == -2) play_turn(s, a, b, dice);
}

// One game from a start (a position) to the end.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D> State play(const Start& start, A& a, B& b, D& dice) {
    State s = enter(start, dice);
    drive(s, a, b, dice, Step::kOver);
    return s;
}

// One game, from the fleet rolls to the end.
template <class A, class B, class D>
requires PolicyFor<A, D> && PolicyFor<B, D> State play(const Options& o, A& a, B& b, D& dice) {
    return play(opening(o), a, b, dice);
}

}  // namespace odds::naval
