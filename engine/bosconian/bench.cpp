// Bosconian-D playouts per second: the kernel on one thread, and the whole runner (chunks,
// tallies, merging) on 1 and on all hardware threads.
#include <benchmark/benchmark.h>

#include <thread>

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/dice.hpp"
#include "sim/registry.hpp"

using namespace odds;

static void BM_BosconianPlayout(benchmark::State& state) {
    const auto options = bosconian::parse_options({});
    bosconian::RulesAsWritten policy;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(bosconian::play(options, policy, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianPlayout);

// The whole runner: state.range(0) threads, 2^20 playouts a run (64 chunks).
static void BM_BosconianRunner(benchmark::State& state) {
    const auto prepared = find_game("bosconian").prepare({}, {});
    RunConfig cfg;
    cfg.playouts = 1u << 20;
    cfg.threads = static_cast<unsigned>(state.range(0));
    cfg.chunk_size = prepared->chunk_size;
    for (auto _ : state) {
        benchmark::DoNotOptimize(prepared->run(cfg, {}).tally.playouts());
        ++cfg.seed;
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cfg.playouts));
}
BENCHMARK(BM_BosconianRunner)
    ->Arg(1)
    ->Arg(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())))
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The exact solver: a fixed layout (the table-side question) and the random 2d6 layout.
static void BM_BosconianExactFixed(benchmark::State& state) {
    const auto options = bosconian::parse_options({{"layout", "4,9,17,22,30"},
                                                   {"start_sector", "14"},
                                                   {"start_damage", "38"},
                                                   {"start_alert", "2"}});
    for (auto _ : state) benchmark::DoNotOptimize(exact::bosconian::solve(options));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianExactFixed)->Unit(benchmark::kMillisecond);

static void BM_BosconianExactFixedFullLap(benchmark::State& state) {
    const auto options = bosconian::parse_options({{"layout", "1"}});
    for (auto _ : state) benchmark::DoNotOptimize(exact::bosconian::solve(options));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianExactFixedFullLap)->Unit(benchmark::kMillisecond);

static void BM_BosconianExactRandom(benchmark::State& state) {
    const auto options = bosconian::parse_options({});
    for (auto _ : state) benchmark::DoNotOptimize(exact::bosconian::solve(options));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianExactRandom)->Unit(benchmark::kMillisecond);
