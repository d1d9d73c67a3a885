// Minimal Space Combat: campaigns per second on one thread, on the seed's map: balanced/expand
// against itself, and the balanced/strike mirror (issue 20's target: the fleet lookups and the
// map's tables).
#include <benchmark/benchmark.h>

#include "benchmarks/versus_book.hpp"
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

// A variant against the book (issue 45), balanced/expand against itself: length, turns played.
namespace {
void versus_book(benchmark::State& state, const Settings& settings) {
    const auto book = msc::parse_options({});
    const auto variant = msc::parse_options(settings);
    const msc::Plan d(msc::doctrine_main(msc::Doctrine::balanced),
                      msc::doctrine_escort(msc::Doctrine::balanced), msc::kDefaultEscortShare);
    msc::strategy::Expand a, b;
    Dice da(1), db(1);
    bench::versus_book(
        state,
        [&] {
            return msc::play(book, {d, d}, a, b, da).turn;
        },
        [&] {
            return msc::play(variant, {d, d}, a, b, db).turn;
        });
}
const int registered = bench::register_variants(
    "BM_MscVariant", {"combat.hits_on=4-6", "combat.saves_on=6", "combat.offense_bp_per_die=5"},
    versus_book);
}  // namespace
