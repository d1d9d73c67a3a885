// Dimension Duel: playouts per second for dice against dice (kernel alone, one thread), and the
// exact solver's time at hp=75 and at its limit, hp=150.
#include <benchmark/benchmark.h>

#include "benchmarks/versus_book.hpp"
#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"

using namespace odds;

static void BM_DimensionDuelPlayoutDiceVsDice(benchmark::State& state) {
    const dimension_duel::Options options;
    dimension_duel::DicePolicy tau, kaon;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(dimension_duel::play(options, tau, kaon, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DimensionDuelPlayoutDiceVsDice);

static void BM_DimensionDuelPlayoutAggressorVsSurvivor(benchmark::State& state) {
    const dimension_duel::Options options;
    dimension_duel::Aggressor tau;
    dimension_duel::Survivor kaon;
    Dice dice(1);
    for (auto _ : state) benchmark::DoNotOptimize(dimension_duel::play(options, tau, kaon, dice));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DimensionDuelPlayoutAggressorVsSurvivor);

static void BM_DimensionDuelExactHp75(benchmark::State& state) {
    const dimension_duel::Options options;
    for (auto _ : state)
        benchmark::DoNotOptimize(exact::dimension_duel::solve(options, dimension_duel::DicePolicy{},
                                                              dimension_duel::DicePolicy{}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DimensionDuelExactHp75)->Unit(benchmark::kMillisecond);

// Issue 20's target: hp=150, the solver's limit, under 1 s.
static void BM_DimensionDuelExactHp150(benchmark::State& state) {
    dimension_duel::Options options;
    options.hp = 150;
    for (auto _ : state)
        benchmark::DoNotOptimize(exact::dimension_duel::solve(options, dimension_duel::DicePolicy{},
                                                              dimension_duel::DicePolicy{}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DimensionDuelExactHp150)->Unit(benchmark::kMillisecond);

static void BM_DimensionDuelBestResponseHp75(benchmark::State& state) {
    const dimension_duel::Options options;
    for (auto _ : state)
        benchmark::DoNotOptimize(exact::dimension_duel::best_response(
            options, dimension_duel::kTau, dimension_duel::DicePolicy{}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DimensionDuelBestResponseHp75)->Unit(benchmark::kMillisecond);

static void BM_DimensionDuelEquilibriumHp75(benchmark::State& state) {
    const dimension_duel::Options options;
    for (auto _ : state) benchmark::DoNotOptimize(dimension_duel::solve_equilibrium(options));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DimensionDuelEquilibriumHp75)->Unit(benchmark::kMillisecond);

// A variant against the book (issue 45), `dice` against `dice`: length, turns played.
namespace {
void versus_book(benchmark::State& state, const Settings& settings) {
    const auto book = dimension_duel::parse_options({});
    const auto variant = dimension_duel::parse_options(settings);
    dimension_duel::DicePolicy tau, kaon;
    Dice a(1), b(1);
    bench::versus_book(
        state, [&] { return dimension_duel::play(book, tau, kaon, a).turns; },
        [&] { return dimension_duel::play(variant, tau, kaon, b).turns; });
}
const int registered =
    bench::register_variants("BM_DimensionDuelVariant",
                             {"damage.die=d8", "damage.die=1d6+1", "chart.tau=1-2",
                              "chart.disruptor=2-3", "intensifier.factor=3"},
                             versus_book);
}  // namespace
