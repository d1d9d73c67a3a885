// No heap allocation inside a playout: a replaced global operator new (tests/alloc_counter.cpp)
// counts every allocation made while a batch of playouts runs (kernel, policy, dice and tally
// together).
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <new>

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "engine/race/policies.hpp"
#include "reports/tally.hpp"
#include "sim/shape_run.hpp"
#include "tests/alloc_counter.hpp"

using namespace odds;

TEST_CASE("the allocation counter sees allocations", "[alloc]") {
    // Called directly, not through new-expressions, which the optimiser may elide in pairs.
    const long before = test::allocations();
    void* p = ::operator new(16);
    ::operator delete(p);
    std::vector<int> v;
    volatile std::size_t n = 1000;
    v.resize(n);
    CHECK(v.size() == 1000u);
    CHECK(test::allocations() - before >= 2);
}

TEST_CASE("Bosconian playouts allocate nothing", "[alloc][bosconian]") {
    for (const Settings& s :
         {Settings{}, Settings{{"layout", "4,9,15,22"}, {"start_alert", "3"}}}) {
        const auto options = bosconian::parse_options(s);
        Tally tally(bosconian::metric_specs(options), bosconian::survival_spec());
        Dice dice(5);
        bosconian::RulesAsWritten policy;
        std::int32_t values[kMaxMetrics];
        const long before = test::allocations();
        for (int i = 0; i < 100'000; ++i) {
            bosconian::to_metrics(bosconian::play(options, policy, dice), values);
            tally.add(values);
        }
        CHECK(test::allocations() - before == 0);
        CHECK(tally.playouts() == 100'000u);
    }
}

TEST_CASE("Dimension Duel playouts allocate nothing", "[alloc][duel]") {
    dimension_duel::Options options;
    options.single_use = true;
    Tally tally(dimension_duel::metric_specs(options), dimension_duel::survival_spec());
    Dice dice(6);
    dimension_duel::DicePolicy tau;
    dimension_duel::Survivor kaon;
    std::int32_t values[kMaxMetrics];
    const long before = test::allocations();
    for (int i = 0; i < 50'000; ++i) {
        dimension_duel::to_metrics(dimension_duel::play(options, tau, kaon, dice), values);
        tally.add(values);
    }
    CHECK(test::allocations() - before == 0);
}

TEST_CASE("Dimension Duel playouts of a variant allocate nothing", "[alloc][duel]") {
    // A variant's path (its charts, dice and any die out of line), not the book's.
    const auto options = dimension_duel::parse_options(
        {{"damage.die", "1d8+2d4"}, {"chart.tau", "1,5"}, {"intensifier.factor", "3"}});
    REQUIRE_FALSE(options.book);
    Dice dice(6);
    dimension_duel::DicePolicy tau;
    dimension_duel::Aggressor kaon;
    std::int32_t values[kMaxMetrics];
    const long before = test::allocations();
    for (int i = 0; i < 20'000; ++i)
        dimension_duel::to_metrics(dimension_duel::play(options, tau, kaon, dice), values);
    CHECK(test::allocations() - before == 0);
}

TEST_CASE("Full Plastic Bodybag playouts allocate nothing, rollout included", "[alloc][fpb]") {
    const fpb::Options options;
    Tally tally(fpb::metric_specs(options), fpb::survival_specs());
    Dice dice(7);
    std::int32_t values[kMaxMetrics];
    fpb::CoverAndCarry cover;
    fpb::Random random;
    fpb::Rollout rollout{4, options};
    const long before = test::allocations();
    for (int i = 0; i < 20'000; ++i) {
        fpb::to_metrics(fpb::play(options, cover, dice), values);
        tally.add(values);
        fpb::to_metrics(fpb::play(options, random, dice), values);
        tally.add(values);
    }
    for (int i = 0; i < 20; ++i) {
        fpb::to_metrics(fpb::play(options, rollout, dice), values);
        tally.add(values);
    }
    CHECK(test::allocations() - before == 0);
}

TEST_CASE("Minimal Space Combat campaigns allocate nothing", "[alloc][msc]") {
    const msc::Options options;
    // Mixed fleets (M2a): the doctrine's ships and its escorts.
    const msc::Plan d(msc::doctrine_main(msc::Doctrine::balanced),
                      msc::doctrine_escort(msc::Doctrine::balanced), msc::kDefaultEscortShare);
    Tally tally(msc::metric_specs(options), msc::survival_spec());
    std::int32_t values[kMaxMetrics];
    msc::strategy::Strike a;
    msc::strategy::Raid b;
    b.loss = msc::LossRule::keep_speed;
    (void)msc::example_map();  // the map is parsed once, before any campaign
    // A tally holds the first 1,024 values of a metric's range and grows once to the largest
    // value seen (BPs produced run to thousands): the campaigns are played once to grow it, then
    // again on the same dice, counted.
    for (int pass = 0; pass < 2; ++pass) {
        Dice dice(8);
        const long before = test::allocations();
        for (int i = 0; i < 200; ++i) {
            msc::to_metrics(msc::play(options, {d, d}, a, b, dice), values);
            tally.add(values);
        }
        if (pass == 1) CHECK(test::allocations() - before == 0);
    }
}

TEST_CASE("Naval Duel games allocate nothing, rollout included", "[alloc][naval]") {
    naval::Options options;
    options.islands = 20;
    Tally tally(naval::metric_specs(options), naval::survival_spec());
    Dice dice(9);
    std::int32_t values[kMaxMetrics];
    naval::Gunner gunner;
    naval::Boarder boarder;
    naval::Random random;
    naval::Rollout rollout;
    rollout.budget = 2;
    const long before = test::allocations();
    for (int i = 0; i < 100; ++i) {
        naval::to_metrics(naval::play(options, gunner, boarder, dice), values);
        tally.add(values);
        naval::to_metrics(naval::play(options, random, gunner, dice), values);
        tally.add(values);
    }
    for (int i = 0; i < 3; ++i) {
        naval::to_metrics(naval::play(options, rollout, gunner, dice), values);
        tally.add(values);
    }
    CHECK(test::allocations() - before == 0);
}

TEST_CASE("mcts allocates nothing per decision or game once its thread's pool is grown",
          "[alloc][mcts]") {
    const race::Options options;
    // Rolls out with best: a 46 KB plan inside the policy, copied with it.
    race::Mcts mcts(300, 1.41, narrow_policy<race::Basic>(race::make_policy(0, options)));
    Dice dice(3);
    race::play(options, mcts, dice);  // grows this thread's pool
    const long before = test::allocations();
    int won = 0;
    for (int i = 0; i < 100; ++i) won += race::play(options, mcts, dice).won;
    CHECK(test::allocations() - before == 0);
    CHECK(won > 0);
    CHECK(race::Mcts::nodes_used() <= 2 * 300 + 1);
}

TEST_CASE("Dimension Duel mcts allocates nothing once its thread's pool is grown",
          "[alloc][mcts][duel]") {
    dimension_duel::Options options;
    options.hp = 20;
    dimension_duel::Mcts tau(100, 1.41, dimension_duel::Basic{dimension_duel::Survivor{}});
    dimension_duel::DicePolicy kaon;
    Dice dice(4);
    dimension_duel::play(options, tau, kaon, dice);  // grows this thread's pool
    const long before = test::allocations();
    int won = 0;
    for (int i = 0; i < 20; ++i)
        won += dimension_duel::play(options, tau, kaon, dice).winner == dimension_duel::kTau;
    CHECK(test::allocations() - before == 0);
    CHECK(won > 0);
    CHECK(dimension_duel::Mcts::nodes_used() <= 2 * 100 + 1);
}

TEST_CASE("Full Plastic Bodybag mcts allocates nothing once its thread's pool is grown",
          "[alloc][mcts][fpb]") {
    const fpb::Options options;
    fpb::Mcts mcts(60, 1.41, fpb::Basic{fpb::CoverAndCarry{}}, options);
    Dice dice(5);
    fpb::play(options, mcts, dice);  // grows this thread's pool
    const long before = test::allocations();
    int withdrawn = 0;
    for (int i = 0; i < 5; ++i)
        withdrawn += fpb::outcome_of(fpb::play(options, mcts, dice)).withdrawn;
    CHECK(test::allocations() - before == 0);
    CHECK(withdrawn > 0);
    CHECK(fpb::Mcts::nodes_used() <= 2 * 60 + 1);
}

TEST_CASE("Naval Duel mcts allocates nothing once its thread's pool is grown",
          "[alloc][mcts][naval]") {
    naval::Options options;
    options.length = 10;
    options.breadth = 8;
    options.ships = 3;
    options.max_turns = 20;
    naval::Mcts mcts(40, 1.41, naval::Basic{naval::Gunner{}}, 1, false);
    naval::Boarder boarder;
    Dice dice(5);
    naval::play(options, mcts, boarder, dice);  // grows this thread's pool
    const long before = test::allocations();
    int decided = 0;
    for (int i = 0; i < 3; ++i) decided += naval::play(options, mcts, boarder, dice).winner != -2;
    CHECK(test::allocations() - before == 0);
    CHECK(decided == 3);
    CHECK(naval::Mcts::nodes_used() <= 2 * 40 + 1);
}

TEST_CASE("Minimal Space Combat mcts allocates nothing once its thread's pool is grown",
          "[alloc][mcts][msc]") {
    const msc::Options options;
    const msc::Plan d(msc::doctrine_main(msc::Doctrine::balanced),
                      msc::doctrine_escort(msc::Doctrine::balanced), msc::kDefaultEscortShare);
    msc::Mcts mcts(40, 1.41, msc::Basic{msc::strategy::Strike{}}, 5, options);
    msc::strategy::Strike strike;
    Dice dice(5);
    (void)msc::example_map();
    msc::play(options, {d, d}, strike, mcts, dice);  // grows this thread's pool
    const long before = test::allocations();
    int decided = 0;
    for (int i = 0; i < 5; ++i)
        decided += msc::play(options, {d, d}, strike, mcts, dice).winner != -1;
    CHECK(test::allocations() - before == 0);
    CHECK(decided == 5);
    CHECK(msc::Mcts::nodes_used() <= 2 * 40 + 1);
}

TEST_CASE("odds shape's rollouts allocate nothing (naval, race)", "[alloc][shape]") {
    // The estimator (sim/shape_run.hpp): each rollout copies the state and plays it out with
    // copies of the seats' policies made once a step, outside the loop.
    {
        const race::Options o;
        const race::Random p;
        const long before = test::allocations();
        double sum = 0;
        for (int t = 0; t < 100; ++t)
            sum += shape::rollout_value<race::Game>(o, race::State{}, p, p, 1000, 7 + t,
                                                    [](const race::State& s) { return s.won; });
        CHECK(test::allocations() - before == 0);
        CHECK(sum > 0);
    }
    {
        const naval::Options o;
        Dice dice(3);
        const naval::State s = naval::Game::start(naval::opening(o), dice);
        const naval::Gunner a, b;
        const naval::Game::Options go{};
        const long before = test::allocations();
        const double p = shape::rollout_value<naval::Game>(
            go, s, a, b, 50, 11,
            [&](const naval::State& x) { return naval::Game::reward(x, go, 0); });
        CHECK(test::allocations() - before == 0);
        CHECK((p >= 0 && p <= 1));
    }
}
