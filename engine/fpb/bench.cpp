// Full Plastic Bodybag: playouts per second for each strategy, decisions per second for rollout.
#include <benchmark/benchmark.h>

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
