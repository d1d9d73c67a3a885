// Minimal Space Combat: campaigns per second on one thread, on the seed's map: balanced/expand
// against itself, and the balanced/strike mirror (issue 20's target: the fleet lookups and the
// map's tables).
#include <benchmark/benchmark.h>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"

using namespace odds;

namespace {

template <class Strategy>
void campaigns(benchmark::State& state) {
    const msc::Options options;
    const msc::Plan d(msc::doctrine_main(msc::Doctrine::balanced),
                      msc::doctrine_escort(msc::Doctrine::balanced), msc::kDefaultEscortShare);
    Strategy a, b;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(msc::play(options, {d, d}, a, b, dice));
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

static void BM_MscCampaignBalancedExpand(benchmark::State& state) {
    campaigns<msc::strategy::Expand>(state);
}
BENCHMARK(BM_MscCampaignBalancedExpand)->Unit(benchmark::kMicrosecond);

static void BM_MscCampaignBalancedStrike(benchmark::State& state) {
    campaigns<msc::strategy::Strike>(state);
}
BENCHMARK(BM_MscCampaignBalancedStrike)->Unit(benchmark::kMicrosecond);
