// Naval Duel random simulation: thousands of games with the `random` policy (and the others),
// invariants checked at every decision and after every phase; and its statistics against values
// known exactly.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "engine/dice.hpp"
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::naval;

namespace {

// The invariants of a game state; returns the first one broken, or nullptr.
const char* broken(const State& s) {
    int in_cells = 0;
    for (int c = 0; c < kGridCells; ++c) {
        const int i = s.at[c] - 1;
        if (i < 0) continue;
        ++in_cells;
        if (i >= s.n_ships || !s.ship[i].afloat) return "a cell holds a ship that is not afloat";
        if (s.cell(s.ship[i].pos) != c) return "a cell and its ship disagree";
    }
    for (int c = -1; c <= s.cols; ++c)  // the ring of land round the map
        if (!s.land[s.cell(c, -1)] || !s.land[s.cell(c, s.rows)]) return "the map's ring broken";
    for (int r = 0; r < s.rows; ++r)
        if (!s.land[s.cell(-1, r)] || !s.land[s.cell(s.cols, r)]) return "the map's ring broken";
    int afloat = 0;
    for (int i = 0; i < s.n_ships; ++i) {
        const Ship& sh = s.ship[i];
        if (!sh.afloat) continue;
        ++afloat;
        if (!s.in_bounds(sh.pos)) return "a ship off the map";
        if (s.is_land(sh.pos)) return "a ship on land";
        if (s.ship_at(sh.pos) != i) return "two ships in a hex";
        if (sh.cannon <= kSinkingCannon) return "a ship afloat at Cannon -2";
        if (sh.side != 0 && sh.side != 1) return "a ship with no side";
    }
    if (in_cells != afloat) return "ships counted twice or lost";
    // Ships counted once: every ship afloat under one side, or sunk.
    if (s.afloat(0) + s.afloat(1) + s.sunk[0] + s.sunk[1] != s.n_ships)
        return "afloat + sunk != ships";
    if (s.deck_n + s.discards_n + s.hand_n[0] + s.hand_n[1] != s.deck_total)
        return "cards lost or made";
    std::array<int, kCardKinds> count{};
    for (int k = 0; k < s.deck_n; ++k) ++count[s.deck[k]];
    for (int k = 0; k < s.discards_n; ++k) ++count[s.discards[k]];
    for (int side = 0; side < kSides; ++side)
        for (int k = 0; k < s.hand_n[side]; ++k) ++count[s.hand[side][k]];
    for (int c = 0; c < kCardKinds; ++c)
        if (count[c] != s.deck_of[c]) return "not the deck's cards (deck.*)";
    if (s.hand_n[0] > kHandMax || s.hand_n[1] > kHandMax) return "a hand over the limit";
    return nullptr;
}

// How often each decision the rules leave to a side came out each way (issue 14: every one is
// the policy's, and `random` must explore every legal choice).
struct Choices {
    std::array<long, 2> move_first{}, board{}, take{};
    long mover_not_first = 0;  // pick_mover chose a ship other than the first unmoved one
    long flagship_not_first = 0;
    long cards_held = 0, cards_some = 0, cards_all = 0;  // of the cards that apply
    long discard_not_first = 0;
};

// Any policy, with the invariants checked whenever it is asked to decide.
template <class P>
struct Checked : P {
    long* checks;
    Choices* seen = nullptr;
    explicit Checked(long* c, P p = P{}, Choices* tally = nullptr) : P(p), checks(c), seen(tally) {}
    template <class D>
    int flagship(const State& s, int side, D& d) const {
        const int f = P::flagship(s, side, d);
        if (seen) seen->flagship_not_first += f != side * (s.n_ships / 2);
        return f;
    }
    template <class D>
    bool move_first(const State& s, int side, D& d) const {
        const bool first = P::move_first(s, side, d);
        if (seen) ++seen->move_first[first];
        return first;
    }
    template <class D>
    int pick_mover(const State& s, int side, D& d) const {
        check(s);
        const int i = P::pick_mover(s, side, d);
        if (seen) seen->mover_not_first += i != tactics::first_unmoved(s, side);
        return i;
    }
    template <class D>
    bool take(const State& s, int w, int l, D& d) const {
        const bool t = P::take(s, w, l, d);
        if (seen) ++seen->take[t];
        return t;
    }
    template <class D>
    unsigned cards(const State& s, int side, const Roll& roll, D& d) const {
        const unsigned mask = P::cards(s, side, roll, d);
        if (seen && roll.kind != Roll::kReload) {
            const unsigned apply = tactics::all_applicable(s, side, roll), played = mask & apply;
            if (played == 0)
                ++seen->cards_held;
            else if (played == apply)
                ++seen->cards_all;
            else
                ++seen->cards_some;
        }
        return mask;
    }
    void check(const State& s) const {
        ++*checks;
        if (const char* why = broken(s)) FAIL(why);
    }
    template <class D>
    int move(const State& s, int i, const Reach& r, D& d) const {
        check(s);
        for (int k = 0; k < r.n; ++k) {  // every end offered is open sea within the allowance
            const hex::Hex h = r.end[k].pos();
            if (!s.in_bounds(h) || s.is_land(h) || (s.ship_at(h) >= 0 && s.ship_at(h) != i))
                FAIL("an end on land, a ship or off the map");
        }
        return P::move(s, i, r, d);
    }
    template <class D>
    Shot broadside(const State& s, int i, int nth, D& d) const {
        check(s);
        if (s.declaring != i) FAIL("asked for a broadside out of turn");
        return P::broadside(s, i, nth, d);
    }
    template <class D>
    bool board(const State& s, int i, int j, D& d) const {
        check(s);
        if (!can_board(s, i, j)) FAIL("asked to board out of reach");
        const bool b = P::board(s, i, j, d);
        if (seen) ++seen->board[b];
        return b;
    }
    template <class D>
    int discard(const State& s, int side, D& d) const {
        if (s.hand_n[side] != kHandLimit + 1) FAIL("a discard with room in the hand");
        const int k = P::discard(s, side, d);
        if (seen) seen->discard_not_first += k != 0;
        return k;
    }
};

template <class A, class B>
void play_checked(const Options& o, A& a, B& b, Dice& dice, long& phases) {
    State s = setup(o, a, b, dice);
    REQUIRE(broken(s) == nullptr);
    while (s.winner == -2) {
        ++s.turn;
        draw_phase(s, a, b, dice);
        REQUIRE(broken(s) == nullptr);
        move_phase(s, a, b, dice);
        REQUIRE(broken(s) == nullptr);
        for (int i = 0; i < s.n_ships; ++i)
            if (s.ship[i].afloat) REQUIRE(s.moved[i]);
        broadside_phase(s, a, b, dice);
        REQUIRE(broken(s) == nullptr);
        boarding_phase(s, a, b, dice);
        REQUIRE(broken(s) == nullptr);
        end_check(s);
        phases += 4;
    }
    REQUIRE(s.turn <= o.max_turns);
    std::int32_t m[kMaxMetrics];
    to_metrics(s, m);
    REQUIRE(m[kAWin] + m[kBWin] + m[kDraw] == 1);
    REQUIRE(m[kAfloatA] + m[kAfloatB] + m[kSunkA] + m[kSunkB] == 2 * o.ships);
}

}  // namespace

TEST_CASE("naval random simulation: invariants at every decision and after every phase",
          "[naval][sim]") {
    long checks = 0, phases = 0;
    Dice dice(2026);
    Options o;
    Choices random_chose;
    Checked<Random> ra(&checks, Random{}, &random_chose), rb(&checks, Random{}, &random_chose);
    for (int g = 0; g < 1500; ++g) play_checked(o, ra, rb, dice, phases);
    // Small seas crowded with islands, short fleets, the other policies.
    Options crowded;
    crowded.length = 10;
    crowded.breadth = 8;
    crowded.islands = 16;
    crowded.ships = 5;
    for (int g = 0; g < 1000; ++g) play_checked(crowded, ra, rb, dice, phases);
    Checked<Gunner> ga(&checks), gb(&checks);
    Checked<Boarder> ba(&checks), bb(&checks);
    for (int g = 0; g < 300; ++g) {
        play_checked(o, ga, bb, dice, phases);
        play_checked(crowded, ba, gb, dice, phases);
        play_checked(o, ra, gb, dice, phases);
    }
    Checked<Rollout> sa(&checks, Rollout{}), sb(&checks, Rollout{});
    for (int g = 0; g < 4; ++g) play_checked(g % 2 ? crowded : o, sa, sb, dice, phases);
    INFO(checks << " decisions, " << phases << " phases");
    CHECK(checks > 1'000'000);
    // `random` made every decision each way it can go.
    const Choices& c = random_chose;
    CHECK((c.move_first[0] > 0 && c.move_first[1] > 0));
    CHECK((c.board[0] > 0 && c.board[1] > 0));
    CHECK((c.take[0] > 0 && c.take[1] > 0));
    CHECK(c.mover_not_first > 0);
    CHECK(c.flagship_not_first > 0);
    CHECK((c.cards_held > 0 && c.cards_some > 0 && c.cards_all > 0));
    CHECK(c.discard_not_first > 0);
}

TEST_CASE("naval islands fall on open sea between the fleets' edges, as many as asked",
          "[naval][N1]") {
    Options o;
    o.islands = 40;
    Dice dice(7);
    Random a, b;
    for (int g = 0; g < 50; ++g) {
        const State s = setup(o, a, b, dice);
        int land = 0;
        for (int row = 0; row < s.rows; ++row)
            for (int c = 0; c < s.cols; ++c) {
                const bool is_land = s.land[s.cell(c, row)];
                land += is_land;
                if (is_land) CHECK((row > 0 && row < s.rows - 1));
            }
        CHECK(land == 40);
    }
}

// The fleet roll's law is known exactly: a side's Cannon bonus is 7 from each of the two
// fleet-wide tables (each with probability 1/3) plus Binomial(24, 1/3) from the 3 x 7 ship rolls
// and the flagship's 3. The edge is the difference of two such sides: enumerated here, then its
// mean, variance and P(edge > 0) checked against 20,000 fleet rolls within 4 standard errors.
TEST_CASE("naval the fleet roll's Cannon edge matches its exact law", "[naval][N2][stats]") {
    std::vector<double> side(7 + 7 + 24 + 1, 0.0);
    for (int x1 = 0; x1 < 2; ++x1)
        for (int x2 = 0; x2 < 2; ++x2)
            for (int k = 0; k <= 24; ++k) {
                const double p = (x1 ? 1.0 / 3 : 2.0 / 3) * (x2 ? 1.0 / 3 : 2.0 / 3) *
                                 std::tgamma(25.0) /
                                 (std::tgamma(k + 1.0) * std::tgamma(25.0 - k)) *
                                 std::pow(1.0 / 3, k) * std::pow(2.0 / 3, 24 - k);
                side[7 * x1 + 7 * x2 + k] += p;
            }
    double mean = 0, var = 0, mu4 = 0, ahead = 0;
    for (std::size_t i = 0; i < side.size(); ++i)
        for (std::size_t j = 0; j < side.size(); ++j) {
            const double d = static_cast<double>(i) - static_cast<double>(j), p = side[i] * side[j];
            mean += p * d;
            var += p * d * d;
            mu4 += p * d * d * d * d;
            ahead += d > 0 ? p : 0;
        }
    const std::uint64_t n = 20000;
    const Tally t = test::monte_carlo("naval", {{"max_turns", "1"}}, {"random"}, n, 11);
    const auto counts = t.counts(kCannonEdge);
    const auto specs = metric_specs(parse_options({{"max_turns", "1"}}));
    double sum = 0, sum2 = 0, pos = 0;
    for (std::size_t k = 0; k < counts.size(); ++k) {
        const double v = specs[kCannonEdge].lo + static_cast<double>(k),
                     c = static_cast<double>(counts[k]);
        sum += v * c;
        sum2 += v * v * c;
        pos += v > 0 ? c : 0;
    }
    const double N = static_cast<double>(n);
    CHECK(mean == Approx(0).margin(1e-12));
    CHECK(std::abs(sum / N - mean) < 4 * std::sqrt(var / N));
    CHECK(std::abs(sum2 / N - var) < 4 * std::sqrt((mu4 - var * var) / N));
    CHECK(std::abs(pos / N - ahead) < 4 * std::sqrt(ahead * (1 - ahead) / N));
}

namespace {

// The movement search and gunner's scoring as first written, straight from N5 and the policy's
// description (modulo turns, bounds tests, a cleared `seen`, the exact bearing tests): the fast
// forms (reach, tactics::GunneryScore) must list the same ends in the same order and score them
// the same, or play would change.
void plain_reach(const State& s, int i, int allowance, std::vector<Reach::End>& out) {
    std::vector<std::uint8_t> seen(static_cast<std::size_t>(kGridCells * 6), 0);
    out.clear();
    const auto push = [&](const hex::Hex& h, int facing, int cost) {
        auto& mark = seen[static_cast<std::size_t>(s.cell(h) * 6 + facing)];
        if (mark) return;
        mark = 1;
        out.push_back({static_cast<std::uint16_t>(s.cell(h)), static_cast<std::int8_t>(h.q),
                       static_cast<std::int8_t>(h.r), static_cast<std::int8_t>(facing),
                       static_cast<std::int8_t>(cost)});
    };
    push(s.ship[i].pos, s.ship[i].facing, 0);
    for (std::size_t head = 0; head < out.size(); ++head) {
        const Reach::End e = out[head];
        if (e.cost >= allowance) continue;
        push(e.pos(), hex::turn(e.facing, 1), e.cost + 1);
        push(e.pos(), hex::turn(e.facing, -1), e.cost + 1);
        const hex::Hex ahead = hex::neighbour(e.pos(), e.facing);
        if (!s.in_bounds(ahead) || s.is_land(ahead)) continue;
        if (const int other = s.ship_at(ahead); other >= 0 && other != i) continue;
        push(ahead, e.facing, e.cost + 1);
    }
}

int plain_gunnery(const State& s, int i, const hex::Hex& pos, int facing) {
    const Ship& me = s.ship[i];
    int near = 1000, score = 0;
    for (int j = 0; j < s.n_ships; ++j) {
        const Ship& e = s.ship[j];
        if (!e.afloat || e.side == me.side) continue;
        const int d = hex::distance(pos, e.pos);
        near = std::min(near, d);
        if (d > 5) continue;
        if (hex::in_broadside(pos, facing, e.pos))
            score += d >= 2 && d <= 4 ? 100 - 10 * (d - 2) : 40;
        if (d == 1) score += e.crew >= me.crew ? -120 : 20;
        if (d <= 4) {
            if (hex::in_broadside(e.pos, e.facing, pos)) score -= 35;
            if (hex::in_bow_or_stern(e.pos, e.facing, pos)) score += 10;
        }
    }
    return score - 8 * std::max(0, near - 3);
}

// Random play, checking every move's search and scores against the plain forms.
struct Compared : Random {
    long* moves;
    template <class D>
    int move(const State& s, int i, const Reach& r, D& d) const {
        ++*moves;
        std::vector<Reach::End> plain;
        const int allowance = r.end[static_cast<std::size_t>(r.n - 1)].cost + (d.word() & 1);
        Reach again;
        reach(s, i, allowance, again);
        plain_reach(s, i, allowance, plain);
        REQUIRE(static_cast<std::size_t>(again.n) == plain.size());
        const tactics::Enemies enemies(s, s.ship[i].side);
        const tactics::GunneryScore gunnery(s, enemies, s.ship[i].crew, again);
        for (int k = 0; k < again.n; ++k) {
            const Reach::End a = again.end[static_cast<std::size_t>(k)],
                             b = plain[static_cast<std::size_t>(k)];
            REQUIRE((a.cell == b.cell && a.q == b.q && a.r == b.r && a.facing == b.facing &&
                     a.cost == b.cost));
            REQUIRE(gunnery(a) == plain_gunnery(s, i, a.pos(), a.facing));
        }
        return Random::move(s, i, r, d);
    }
};

}  // namespace

TEST_CASE("naval the movement search and gunner's scoring agree with their plain forms",
          "[naval][N5]") {
    long moves = 0;
    Compared a, b;
    a.moves = b.moves = &moves;
    Dice dice(99);
    Options crowded;
    crowded.length = 12;
    crowded.breadth = 9;
    crowded.islands = 20;
    crowded.ships = 6;
    for (int g = 0; g < 30; ++g) play(g % 2 ? crowded : Options{}, a, b, dice);
    CHECK(moves > 3000);
}

namespace {

// FNV-1a over the words of a finished game that play decides: every ship (hex, heading, side,
// afloat, flagship, ratings), the turn, the result, the tallies, the deck, discards and hands;
// then the next word of the dice (so the dice each game consumed are pinned too).
struct Digest {
    std::uint64_t h = 1469598103934665603ull;
    void add(std::int64_t v) {
        for (int k = 0; k < 8; ++k) {
            h ^= static_cast<std::uint64_t>(v >> (8 * k)) & 0xffu;
            h *= 1099511628211ull;
        }
    }
    void add(const State& s) {
        for (int i = 0; i < s.n_ships; ++i) {
            const Ship& sh = s.ship[i];
            for (int v : {sh.pos.q, sh.pos.r, int{sh.facing}, int{sh.side}, int{sh.origin},
                          int{sh.afloat}, int{sh.flagship}, sh.movement, sh.cannon, sh.crew})
                add(v);
        }
        for (int v :
             {s.turn, s.winner, int{s.timeout}, s.boardings, s.sunk[0], s.sunk[1], s.captures[0],
              s.captures[1], s.deck_n, s.discards_n, s.hand_n[0], s.hand_n[1]})
            add(v);
        for (const auto& side : s.broadsides)
            for (int v : side) add(v);
        for (int k = 0; k < s.deck_n; ++k) add(s.deck[k]);
        for (int k = 0; k < s.discards_n; ++k) add(s.discards[k]);
        for (int side = 0; side < kSides; ++side)
            for (int k = 0; k < s.hand_n[side]; ++k) add(s.hand[side][k]);
    }
};

template <class A, class B>
std::uint64_t digest_of_games(const Options& o, A a, B b, int games, std::uint64_t seed) {
    Digest d;
    Dice dice(seed);
    for (int g = 0; g < games; ++g) {
        d.add(play(o, a, b, dice));
        d.add(static_cast<std::int64_t>(dice.word()));
    }
    return d.h;
}

}  // namespace

// Like Stockfish's bench node count: what the policies play from fixed seeds, pinned by a digest
// of every final state (and the dice consumed). Any change in play, intended or not, shows here;
// an intended one (a rules version bump) updates the digests in review.
TEST_CASE("naval play is pinned: digests of fixed-seed games", "[naval][pin]") {
    Options o;
    Options crowded;
    crowded.length = 10;
    crowded.breadth = 8;
    crowded.islands = 16;
    crowded.ships = 5;
    Rollout quick;
    quick.budget = 2;
    CHECK(digest_of_games(o, Random{}, Random{}, 400, 1) == 0xe8167786fbca057eull);
    CHECK(digest_of_games(crowded, Random{}, Random{}, 400, 2) == 0x9ede137393c96057ull);
    CHECK(digest_of_games(o, Gunner{}, Boarder{}, 100, 3) == 0x305feb3701b8330aull);
    CHECK(digest_of_games(crowded, Boarder{}, Gunner{}, 100, 4) == 0x63e26321ba56edfbull);
    CHECK(digest_of_games(o, Random{}, Gunner{}, 100, 5) == 0xadbe77e2dd3e5787ull);
    CHECK(digest_of_games(crowded, quick, Boarder{}, 10, 6) == 0x869fc8e18113c671ull);
}

namespace {

// Two answers to the question of `s` alike in effect: the same cards played, or discarded (which
// copy of a card is the same choice: Game::legal lists one), else the same answer.
bool same_effect(const State& s, const Game::Choice& x, const Game::Choice& y) {
    const auto& hand = s.hand[s.actor];
    const int n = s.hand_n[s.actor];
    switch (s.step) {
        case Step::kDiscard:
            return hand[x.a] == hand[y.a];
        case Step::kMoveCards:
        case Step::kReloadCards:
        case Step::kFireCards:
        case Step::kBoardCards: {
            const Roll roll = pending_roll(s);
            const auto played = [&](unsigned mask) {
                std::array<int, kCardKinds> count{};
                for (int k = 0; k < n; ++k)
                    if ((mask >> k & 1u) && applicable(hand[k], roll) &&
                        !(hand[k] == kQuickReload && count[kQuickReload] > 0))
                        ++count[hand[k]];
                return count;
            };
            return played(static_cast<std::uint8_t>(x.a)) == played(static_cast<std::uint8_t>(y.a));
        }
        default:
            return x == y;
    }
}

}  // namespace

TEST_CASE("naval Game: every policy's answer is among Game::legal's, and any legal choice plays on",
          "[naval][sim][resumable]") {
    static_assert(ResumableGame<Game, Dice> && ResumableGame<Game, ScriptedDice>);
    Options crowded;
    crowded.length = 10;
    crowded.breadth = 8;
    crowded.islands = 16;
    crowded.ships = 5;
    const Game::Options go;
    std::vector<Game::Choice> legal(Game::kMaxChoices);
    std::array<long, static_cast<int>(Step::kOver) + 1> asked{};
    Dice dice(99);
    Random random;
    Gunner gunner;
    Boarder boarder;
    long decisions = 0;
    for (int g = 0; g < 120; ++g) {
        const Options& o = g % 2 ? crowded : Options{};
        State s = Game::start(opening(o), dice);
        while (!Game::over(s, go)) {
            const int n = Game::legal(s, go, legal.data());
            REQUIRE(n >= 1);
            ++asked[static_cast<std::size_t>(s.step)];
            // Each policy's answer here is one of the listed choices.
            const auto listed = [&](const Game::Choice& c) {
                return std::any_of(legal.begin(), legal.begin() + n,
                                   [&](const Game::Choice& l) { return same_effect(s, c, l); });
            };
            Dice probe(static_cast<std::uint64_t>(decisions));
            CHECK(listed(Game::decide(s, go, random, probe)));
            CHECK(listed(Game::decide(s, go, gunner, probe)));
            CHECK(listed(Game::decide(s, go, boarder, probe)));
            // Play on with a choice drawn from the list: the invariants hold after it.
            const Step was = s.step;
            const Game::Choice pick = legal[below(dice, static_cast<std::uint32_t>(n))];
            Game::apply(s, go, pick, dice);
            INFO("after step " << static_cast<int>(was) << " answered " << int{pick.a} << " "
                               << int{pick.b} << " " << int{pick.c});
            if (s.turn > 0) REQUIRE(broken(s) == nullptr);  // the deck is dealt with the fleets
            ++decisions;
        }
    }
    INFO(decisions << " decisions");
    for (Step step : {Step::kFlagship, Step::kDiscard, Step::kMoveFirst, Step::kPickMover,
                      Step::kMoveCards, Step::kMoveEnd, Step::kDeclare, Step::kReloadCards,
                      Step::kFireCards, Step::kBoard, Step::kBoardCards, Step::kTake}) {
        INFO("step " << static_cast<int>(step));
        CHECK(asked[static_cast<std::size_t>(step)] > 0);
    }
}

TEST_CASE("naval Game: a copy taken at any decision point plays on exactly as the game did",
          "[naval][resumable]") {
    // Gunner against boarder, islands; at every 23rd decision the state and the dice are copied;
    // each copy, played on, ends in the game's final state with the same dice consumed: nothing
    // of the game lives outside State.
    Options o;
    o.islands = 6;
    const Game::Options go;
    Gunner a;
    Boarder b;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        Dice dice(seed);
        State s = Game::start(opening(o), dice);
        std::vector<std::pair<State, Dice>> copies;
        for (int k = 1; !Game::over(s, go); ++k) {
            if (k % 23 == 0) copies.emplace_back(s, dice);
            const Game::Choice c =
                s.actor == 0 ? Game::decide(s, go, a, dice) : Game::decide(s, go, b, dice);
            Game::apply(s, go, c, dice);
        }
        Digest game;
        game.add(s);
        const std::uint64_t next = dice.word();
        REQUIRE(copies.size() > 10);
        for (auto& [copy, d] : copies) {
            odds::play_from<Game>(copy, go, d, a, b);
            Digest resumed;
            resumed.add(copy);
            CHECK(resumed.h == game.h);
            CHECK(d.word() == next);
        }
    }
}
