// Full Plastic Bodybag: playouts per second for each strategy, decisions per second for rollout.
#include <benchmark/benchmark.h>

#include "benchmarks/versus_book.hpp"
#include "engine/dice.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"

using namespace odds;

template <class P>
static void BM_FpbPlayout(benchmark::State& state) {
    const fpb::Options options;
    P policy{};
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(fpb::play(options, policy, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK_TEMPLATE(BM_FpbPlayout, fpb::BugOut);
BENCHMARK_TEMPLATE(BM_FpbPlayout, fpb::CoverAndCarry);
BENCHMARK_TEMPLATE(BM_FpbPlayout, fpb::SmokeAndCarry);
BENCHMARK_TEMPLATE(BM_FpbPlayout, fpb::LeadFromFront);
BENCHMARK_TEMPLATE(BM_FpbPlayout, fpb::BravestFirst);
BENCHMARK_TEMPLATE(BM_FpbPlayout, fpb::Random);

// One rollout leader decision (16 playouts per candidate) from the opening position.
static void BM_FpbRolloutDecision(benchmark::State& state) {
    fpb::Rollout policy{static_cast<int>(state.range(0)), fpb::Options{}};
    Dice dice(1);
    const fpb::State s;
    for (auto _ : state) benchmark::DoNotOptimize(policy.leader(s, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FpbRolloutDecision)->Arg(16)->Unit(benchmark::kMicrosecond);

// Whole games under rollout:16.
static void BM_FpbPlayoutRollout(benchmark::State& state) {
    const fpb::Options options;
    fpb::Rollout policy{16, options};
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(fpb::play(options, policy, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FpbPlayoutRollout)->Unit(benchmark::kMillisecond);

// A variant against the book (issue 45), cover-and-carry: length, turns played.
namespace {
void versus_book(benchmark::State& state, const Settings& settings) {
    const auto book = fpb::parse_options({});
    const auto variant = fpb::parse_options(settings);
    fpb::CoverAndCarry a, b;
    Dice da(1), db(1);
    bench::versus_book(
        state, [&] { return fpb::play(book, a, da).turn; },
        [&] { return fpb::play(variant, b, db).turn; });
}
const int registered = bench::register_variants(
    "BM_FpbVariant",
    {"guts.roll=2d6+1", "guts.roll=3d6", "sniper.area1.open=5,6", "friendly_fire.wounds_on=5,6"},
    versus_book);
}  // namespace
