// The generic tree search (policies/mcts.hpp), proven where the answers are known exactly: on race
// against its backward induction (`best`), and on a two-seat take-away game written here, whose
// losing positions are the multiples of 4. Fixed seeds; tolerances from standard errors. (No
// allocation: tests/test_alloc.cpp.)
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/dice.hpp"
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "policies/mcts.hpp"
#include "tests/helpers.hpp"

using namespace odds;

namespace {

// P(win) after `m` from (square, turn), playing best from there on (race::best_plan's values).
double value_after(const race::Plan& plan, const race::Options& o, int square, int turn,
                   race::Move m) {
    auto at = [&](int sq) { return plan.value[sq < o.goal ? sq : o.goal][turn + 1]; };
    if (m == race::Move::walk) return at(square + 2);
    double v = at(square > 3 ? square - 3 : 0) / 6;
    for (int f = 2; f <= 6; ++f) v += at(square + f) / 6;
    return v;
}

race::Mcts make_mcts(const race::Options& o, int n, double c, std::size_t rollout) {
    return race::Mcts(n, c, narrow_policy<race::Basic>(race::make_policy(rollout, o)));
}

// Take-away: a pile of counters; each turn the seat to move takes 1, 2 or 3; who takes the last
// wins. A pile that is a multiple of 4 loses for the seat to move; otherwise taking pile % 4
// wins. Two seats, no dice: the search must score each node for the seat that chose it.
struct TakeAway {
    struct Options {};
    struct State {
        int pile = 0, mover = 0, winner = -1;
        bool operator==(const State&) const = default;
    };
    using Choice = int;
    static constexpr int kMaxChoices = 3;
    static bool over(const State& s, const Options&) { return s.pile == 0; }
    static int to_move(const State& s, const Options&) { return s.mover; }
    static int legal(const State& s, const Options&, Choice* out) {
        int n = 0;
        for (int k = 1; k <= 3 && k <= s.pile; ++k) out[n++] = k;
        return n;
    }
    template <class Dice>
    static void apply(State& s, const Options&, Choice c, Dice&) {
        s.pile -= c;
        if (s.pile == 0) s.winner = s.mover;
        s.mover = 1 - s.mover;
    }
    static double reward(const State& s, const Options&, int seat) { return s.winner == seat; }
    template <class P, class Dice>
    static Choice decide(const State& s, const Options& o, P& p, Dice& dice) {
        return p.choose(s, o, dice);
    }
};
struct RandomTake {
    template <class Dice>
    int choose(const TakeAway::State& s, const TakeAway::Options&, Dice& dice) {
        const int most = s.pile < 3 ? s.pile : 3;
        return static_cast<int>(below(dice, static_cast<std::uint32_t>(most))) + 1;
    }
};
static_assert(ResumableGame<TakeAway, Dice>);
// The same game searched open-loop, and with a determinize hook that counts its calls.
struct TakeAwayOpen : TakeAway {
    static constexpr bool kOpenLoop = true;
};
struct TakeAwayHidden : TakeAwayOpen {
    static inline int samples = 0;
    template <class Dice>
    static void determinize(State&, const Options&, int, Dice&) {
        ++samples;
    }
};
static_assert(Mcts<TakeAway, RandomTake>::kClosedLoop &&
              !Mcts<TakeAwayOpen, RandomTake>::kClosedLoop);

}  // namespace

TEST_CASE("mcts on race picks the exactly best move wherever the two moves differ by 5% or more",
          "[race][mcts]") {
    race::Options o;  // goal 20 in 8 turns
    const race::Plan plan = race::best_plan(o);
    Dice dice(41);
    int tested = 0;
    for (int turn = 0; turn < o.max_turns; ++turn)
        for (int square = 0; square < o.goal; ++square) {
            const double walk = value_after(plan, o, square, turn, race::Move::walk);
            const double roll = value_after(plan, o, square, turn, race::Move::roll);
            // Closer calls need more iterations (UCT's means carry its exploration).
            if (std::abs(walk - roll) < 0.05) continue;
            ++tested;
            race::State s;
            s.square = square;
            s.turn = turn;
            auto mcts = make_mcts(o, 20000, 1.41, 3);  // rolls out at random
            INFO("square " << square << ", turn " << turn << ": walk " << walk << ", roll "
                           << roll);
            const race::Move best = roll > walk ? race::Move::roll : race::Move::walk;
            CHECK(plan.roll[square][turn] == (best == race::Move::roll));
            CHECK(mcts.choose(s, o, dice) == best);
            CHECK(race::Mcts::root_stats(best).visits > 20000 / 2);  // most of the search
        }
    CHECK(tested >= 50);
}

TEST_CASE("mcts on race wins as often as best, within 4 standard errors", "[race][mcts]") {
    const Settings settings{{"goal", "12"}, {"max_turns", "5"}};
    const race::Options o = race::parse_options(settings);
    const double best = race::best_plan(o).value[0][0];
    const std::uint64_t n = 2000;
    const Tally t = test::monte_carlo("race", settings, {"mcts:400"}, n, 23);
    const double won = static_cast<double>(test::counts(t, race::kWin)[1]) / n;
    INFO("best " << best << ", mcts " << won);
    CHECK(std::abs(won - best) <= 4 * std::sqrt(best * (1 - best) / n));
    // And a flat rollout of a bad policy alone does not: walking only loses.
    const Tally walk = test::monte_carlo("race", settings, {"walk"}, 1000, 23);
    CHECK(test::counts(walk, race::kWin)[1] == 0);
}

template <class G>
void plays_take_away() {
    Dice dice(5);
    Mcts<G, RandomTake> mcts(4000, 1.41, RandomTake{});
    for (int pile = 1; pile <= 13; ++pile)
        for (int mover = 0; mover < 2; ++mover) {
            if (pile % 4 == 0) continue;  // every move loses
            INFO("pile " << pile << ", mover " << mover);
            const typename G::State s{pile, mover, -1};
            CHECK(mcts.search(s, {}, dice) == pile % 4);
            if (pile > 1) CHECK(decltype(mcts)::root_stats(pile % 4).visits > 4000 / 2);
        }
}

TEST_CASE("mcts on a two-seat game: each seat plays its own best, closed- and open-loop",
          "[mcts]") {
    plays_take_away<TakeAway>();
    plays_take_away<TakeAwayOpen>();
    // The searching seat samples what it cannot see once an iteration.
    Dice dice(6);
    Mcts<TakeAwayHidden, RandomTake> mcts(2000, 1.41, RandomTake{});
    TakeAwayHidden::samples = 0;
    CHECK(mcts.search(TakeAway::State{9, 0, -1}, {}, dice) == 1);
    CHECK(TakeAwayHidden::samples == 2000);
}

TEST_CASE("mcts depends only on the seed: the same search twice, any thread count",
          "[race][mcts]") {
    const race::Options o;
    auto a = make_mcts(o, 500, 0.5, 3), b = make_mcts(o, 500, 0.5, 3);
    Dice da(9), db(9);
    for (int i = 0; i < 20; ++i) {
        race::State s;
        s.square = i % 15;
        s.turn = i % 7;
        CHECK(a.choose(s, o, da) == b.choose(s, o, db));
    }
    CHECK(da.word() == db.word());
    const auto run = find_game("race").prepare({}, {"mcts:200:rollout=best"});
    CHECK(run->policy == "mcts:200:rollout=best");
    CHECK(test::same_on_1_and_2_threads(*run, 64, 3, 8));
}

TEST_CASE("mcts: the policy's parameters, its label and its refusals", "[race][mcts][policies]") {
    const auto label = [](const char* text) {
        return parse_policy("race", race::kPolicyInfos, text).label;
    };
    CHECK(label("mcts") == "mcts:1000");
    CHECK(label("mcts:50:0.5") == "mcts:50:0.5");
    CHECK(label("mcts:50:1.41") == "mcts:50");  // the default C is not shown
    CHECK(label("mcts:50:rollout=walk") == "mcts:50:rollout=walk");
    CHECK(label("mcts:rollout=random") == "mcts:1000");  // a default rollout is not shown
    const auto c = parse_policy("race", race::kPolicyInfos, "mcts:7:2.5:rollout=roll");
    const auto p = race::kPolicies[c.index].make(race::Options{}, c.args);
    REQUIRE(std::holds_alternative<race::Mcts>(p));
    CHECK(std::get<race::Mcts>(p).iterations() == 7);
    CHECK(std::get<race::Mcts>(p).exploration() == 2.5);
    for (const char* bad :
         {"mcts:0", "mcts:5:0.123", "mcts:5:-1", "mcts:5:1.", "mcts:rollout=mcts",
          "mcts:rollout=", "mcts:5:speed=3", "mcts:rollout=walk:5", "mcts:1:2:3"}) {
        INFO(bad);
        CHECK_THROWS_AS(parse_policy("race", race::kPolicyInfos, bad), UsageError);
    }
    CHECK_THROWS_WITH(parse_policy("race", race::kPolicyInfos, "mcts:rollout=mcts"),
                      "race: policy 'mcts:rollout=mcts' is not valid: rollout must be one of "
                      "best, walk, roll, random (mcts[:N[:C]][:rollout=NAME]: N iterations from 1 "
                      "to 1000000, default 1000; C exploration from 0 to 100, default 1.41; "
                      "rollout policy: one of best, walk, roll, random, default random)");
    CHECK_THROWS_WITH(exact::race::solve(race::Options{}, race::make_policy(4, race::Options{})),
                      Catch::Contains("mcts searches"));
}
