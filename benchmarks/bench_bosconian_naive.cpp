// Bosconian-D's kernel against the straightforward hand-written mission of bosconian_naive.hpp
// (issue 20's target: the kernel at least 1.25x it), one thread, playouts per second:
//   BM_BosconianNaiveStd     the hand-written loop on std::mt19937_64 and
//                            std::uniform_int_distribution, as one would write it
//   BM_BosconianNaiveDice    the same loop on odds::Dice: the code alone is compared
// (BM_BosconianPlayout, in engine/bosconian/bench.cpp, is the kernel.)
#include <benchmark/benchmark.h>

#include <random>

#include "benchmarks/bosconian_naive.hpp"
#include "engine/dice.hpp"

static void BM_BosconianNaiveStd(benchmark::State& state) {
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<int> die(1, 6);
    auto d6 = [&] { return die(rng); };
    for (auto _ : state) benchmark::DoNotOptimize(odds::naive::play_mission(d6));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianNaiveStd);

static void BM_BosconianNaiveDice(benchmark::State& state) {
    odds::Dice dice(1);
    auto d6 = [&] { return dice.d6(); };
    for (auto _ : state) benchmark::DoNotOptimize(odds::naive::play_mission(d6));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianNaiveDice);
