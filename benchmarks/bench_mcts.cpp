// The generic tree search (policies/mcts.hpp) on race, the tests' game (its header-only resumable
// form; nothing of race is registered here): decisions per second at N iterations, rolling out at
// random, from the opening position.
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"
#include "engine/race/policies.hpp"
#include "policies/mcts.hpp"

using namespace odds;

static void BM_MctsRaceDecision(benchmark::State& state) {
    const race::Options options;
    race::Mcts mcts(static_cast<int>(state.range(0)), 1.41, race::Basic{race::Random{}});
    Dice dice(1);
    const race::State opening;
    for (auto _ : state) benchmark::DoNotOptimize(mcts.choose(opening, options, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MctsRaceDecision)->Arg(64)->Arg(512)->Arg(4096);
