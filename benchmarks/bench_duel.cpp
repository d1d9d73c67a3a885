// Dimension Duel: playouts per second for dice against dice (kernel alone, one thread), and the
// exact solver's time at hp=75.
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"
#include "engine/dimension_duel/duel.hpp"
#include "policies/dimension_duel/policies.hpp"
#include "sim/exact/duel.hpp"

using namespace odds;

static void BM_DuelPlayoutDiceVsDice(benchmark::State& state) {
    const duel::Options options;
    duel::DicePolicy tau, kaon;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(duel::play(options, tau, kaon, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DuelPlayoutDiceVsDice);

static void BM_DuelPlayoutAggressorVsSurvivor(benchmark::State& state) {
    const duel::Options options;
    duel::Aggressor tau;
    duel::Survivor kaon;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(duel::play(options, tau, kaon, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DuelPlayoutAggressorVsSurvivor);

static void BM_DuelExactHp75(benchmark::State& state) {
    const duel::Options options;
    for (auto _ : state)
        benchmark::DoNotOptimize(exact::duel::solve(options, duel::DicePolicy{}, duel::DicePolicy{}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DuelExactHp75)->Unit(benchmark::kMillisecond);

static void BM_DuelBestResponseHp75(benchmark::State& state) {
    const duel::Options options;
    for (auto _ : state)
        benchmark::DoNotOptimize(exact::duel::best_response(options, duel::kTau, duel::DicePolicy{}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DuelBestResponseHp75)->Unit(benchmark::kMillisecond);
