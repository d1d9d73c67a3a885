// Naval Duel: games per second, gunner against gunner (one thread), and the search policy's
// cost: rollout (8 simulations a choice, to the end of the turn) against gunner.
#include <benchmark/benchmark.h>

#include "benchmarks/versus_book.hpp"
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

// A variant against the book (issue 45), gunner against gunner: length, turns played.
namespace {
void versus_book(benchmark::State& state, const Settings& settings) {
    const auto book = naval::parse_options({});
    const auto variant = naval::parse_options(settings);
    naval::Gunner a, b;
    Dice da(1), db(1);
    bench::versus_book(
        state, [&] { return naval::play(book, a, b, da).turn; },
        [&] { return naval::play(variant, a, b, db).turn; });
}
const int registered =
    bench::register_variants("BM_NavalVariant",
                             {"broadside.table=4:1,6:2,8:3", "broadside.roll=2d6-3",
                              "attribute.roll=1d8", "fleet.cannon=2-4"},
                             versus_book);
}  // namespace
