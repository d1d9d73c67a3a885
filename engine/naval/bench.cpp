// Naval Duel: games per second, gunner against gunner (one thread), and the search policy's
// cost: rollout (8 simulations a choice, to the end of the turn) against gunner.
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"

using namespace odds;

static void BM_NavalGunnerVsGunner(benchmark::State& state) {
    const naval::Options options;
    naval::Gunner a, b;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(naval::play(options, a, b, dice).winner);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NavalGunnerVsGunner)->Unit(benchmark::kMicrosecond);

static void BM_NavalRolloutVsGunner(benchmark::State& state) {
    const naval::Options options;
    naval::Rollout a;
    naval::Gunner b;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(naval::play(options, a, b, dice).winner);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NavalRolloutVsGunner)->Unit(benchmark::kMillisecond);
