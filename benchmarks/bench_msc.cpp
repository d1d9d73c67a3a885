// Minimal Space Combat: campaigns per second, balanced/expand against itself (one thread).
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "policies/msc/policies.hpp"

using namespace odds;

static void BM_MscCampaignBalancedExpand(benchmark::State& state) {
    const msc::Options options;
    const msc::Design d = msc::doctrine_design(msc::Doctrine::balanced, 15);
    msc::strategy::Expand a, b;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(msc::play(options, {d, d}, a, b, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MscCampaignBalancedExpand)->Unit(benchmark::kMicrosecond);
