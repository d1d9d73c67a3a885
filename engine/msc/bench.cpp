// Minimal Space Combat: campaigns per second, balanced/expand against itself (one thread).
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"

using namespace odds;

static void BM_MscCampaignBalancedExpand(benchmark::State& state) {
    const msc::Options options;
    const msc::Plan d(msc::doctrine_main(msc::Doctrine::balanced),
                      msc::doctrine_escort(msc::Doctrine::balanced), msc::kDefaultEscortShare);
    msc::strategy::Expand a, b;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(msc::play(options, {d, d}, a, b, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MscCampaignBalancedExpand)->Unit(benchmark::kMicrosecond);
