// Dice throughput: raw 64-bit words and fair d6 rolls, items per second.
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"

static void BM_Xoshiro256pp(benchmark::State& state) {
    odds::Xoshiro256pp g(1);
    for (auto _ : state) benchmark::DoNotOptimize(g());
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Xoshiro256pp);

static void BM_D6(benchmark::State& state) {
    odds::Dice dice(1);
    int sum = 0;
    for (auto _ : state) {
        for (int i = 0; i < 1000; ++i) sum += dice.d6();
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_D6);
