// Bosconian-D playouts per second: the kernel on one thread, and the whole runner (chunks,
// tallies, merging) on 1 and on all hardware threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <ctime>
#include <random>
#include <thread>
#include <vector>

#include "benchmarks/versus_book.hpp"
#include "engine/bosconian/bench_naive.hpp"
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

namespace {
// Dice that count what they roll.
struct CountingDice {
    Dice& dice;
    std::uint64_t rolled = 0;
    int d6() noexcept {
        ++rolled;
        return dice.d6();
    }
    int sum_d6(int n) noexcept {
        rolled += static_cast<std::uint64_t>(n);
        return dice.sum_d6(n);
    }
    const std::uint8_t* peek(int n) noexcept { return dice.peek(n); }  // looks, rolls nothing
    void skip(int k) noexcept {
        rolled += static_cast<std::uint64_t>(k);
        dice.skip(k);
    }
    std::uint64_t word() noexcept { return dice.word(); }  // a variant's die of other than 6 faces
};

// The bound's loop: n dice rolled and summed as BM_D6 rolls them. Out of line and aligned to a
// cache line, so that the loop sits the same way whatever the size of the kernel's code around
// it: inlined into the benchmark, its speed moved by a third from one build of the kernel to the
// next with where the loop fell across the lines of the instruction cache.
// It rolls a local copy, whose position the compiler keeps in a register.
[[gnu::noinline, gnu::aligned(64)]] int roll_dice(Dice& generator, std::uint64_t n) {
    Dice dice = generator;
    int sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) sum += dice.d6();
    generator = dice;
    return sum;
}

double thread_seconds() {  // this thread's CPU time: what other programs do is not counted
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}
}  // namespace

// The kernel against the d6 generator's bound, in one run (issue 20's target: ratio >= 0.5).
// The bound is the playouts per second if a playout cost only its dice: each iteration plays
// 4,096 playouts, then rolls as many dice as they rolled in BM_D6's loop, each timed on this
// thread's CPU clock. Counters: dice (per playout), bound (playouts/s), ratio = kernel / bound;
// ratio_best the same from the fastest batch of each (the kernel's fastest batch time a playout,
// the bound's fastest time a die): another program sharing the core only ever slows a batch, so
// on a shared machine this is the steadier figure.
static void BM_BosconianVsGenerator(benchmark::State& state) {
    const auto options = bosconian::parse_options({});
    bosconian::RulesAsWritten policy;
    Dice dice(1), generator(2);
    constexpr int kBatch = 4096;
    double t_play = 0, t_dice = 0;
    double best_play = 1e300, best_die = 1e300;  // seconds a playout, seconds a die
    std::uint64_t rolled = 0;
    for (auto _ : state) {
        // The batch's dice are counted first, untimed, on a copy of the dice: the kernel is
        // timed on the plain dice (the same playouts), not on the counting wrapper.
        state.PauseTiming();
        Dice copy = dice;
        CountingDice counted{copy};
        for (int i = 0; i < kBatch; ++i)
            benchmark::DoNotOptimize(bosconian::play(options, policy, counted));
        const std::uint64_t n = counted.rolled;
        state.ResumeTiming();
        const double t0 = thread_seconds();
        for (int i = 0; i < kBatch; ++i)
            benchmark::DoNotOptimize(bosconian::play(options, policy, dice));
        const double t1 = thread_seconds();
        benchmark::DoNotOptimize(roll_dice(generator, n));
        const double t2 = thread_seconds();
        t_play += t1 - t0;
        t_dice += t2 - t1;
        best_play = std::min(best_play, (t1 - t0) / kBatch);
        best_die = std::min(best_die, (t2 - t1) / static_cast<double>(n));
        rolled += n;
    }
    const double playouts = static_cast<double>(state.iterations()) * kBatch;
    state.SetItemsProcessed(state.iterations() * kBatch);
    state.counters["dice"] = static_cast<double>(rolled) / playouts;
    state.counters["kernel"] = playouts / t_play;
    state.counters["bound"] = playouts / t_dice;
    state.counters["ratio"] = t_dice / t_play;
    state.counters["ratio_best"] = best_die * static_cast<double>(rolled) / playouts / best_play;
}
BENCHMARK(BM_BosconianVsGenerator);

namespace {
// Faces rolled before the clock starts, read back in order: the kernel without its generator.
struct TapeDice {
    const std::uint8_t* faces;
    std::size_t pos = 0;
    int d6() noexcept { return faces[pos++]; }
    int sum_d6(int n) noexcept {
        int s = 0;
        for (int i = 0; i < n; ++i) s += d6();
        return s;
    }
    const std::uint8_t* peek(int) noexcept { return faces + pos; }
    void skip(int k) noexcept { pos += static_cast<std::size_t>(k); }
    std::uint64_t word() noexcept { return 0; }  // never reached: the bench plays the book's dice
};
// n faces and 64 Ki more, for the last mission begun before the n-th face. A mission rolls about
// 160 faces; 65,536 would take over 4,600 base-combat rounds (at most 14 faces each) in which at
// most 72 cannons fall (12 bases of 6), each round losing one with chance 1/2: below 2^-4000.
std::vector<std::uint8_t> roll_tape(std::uint64_t seed, std::size_t n) {
    Dice dice(seed);
    std::vector<std::uint8_t> faces(n + (std::size_t{1} << 16));
    for (auto& f : faces) f = static_cast<std::uint8_t>(dice.d6());
    return faces;
}
}  // namespace

// Where a playout's time goes, with BM_BosconianPlayout (generator, kernel, mispredicts).
// Fresh: new missions on faces rolled before the clock starts (a tape of 1 MiB, rolled again
// untimed when spent), so the generator's share is the difference from BM_BosconianPlayout.
static void BM_BosconianTapeFresh(benchmark::State& state) {
    const auto options = bosconian::parse_options({});
    bosconian::RulesAsWritten policy;
    constexpr std::size_t kTape = std::size_t{1} << 20;
    std::uint64_t seed = 1;
    std::int64_t played = 0;
    for (auto _ : state) {
        state.PauseTiming();
        const auto faces = roll_tape(seed++, kTape);
        TapeDice tape{faces.data()};
        state.ResumeTiming();
        for (; tape.pos < kTape; ++played)
            benchmark::DoNotOptimize(bosconian::play(options, policy, tape));
    }
    state.SetItemsProcessed(played);
}
BENCHMARK(BM_BosconianTapeFresh);

// Learned: the same 64 missions replayed in turn from their faces (about 10 KiB, in L1), so the
// branch predictor learns the dice's branches; the difference from Fresh is what mispredicts
// cost. What remains is the kernel's chain, each step's faces read where the last one's ended.
static void BM_BosconianTapeLearned(benchmark::State& state) {
    const auto options = bosconian::parse_options({});
    bosconian::RulesAsWritten policy;
    constexpr int kMissions = 64;
    const auto faces = roll_tape(1, 64 << 10);
    std::array<std::size_t, kMissions> starts{};
    TapeDice tape{faces.data()};
    for (auto& start : starts) {
        start = tape.pos;
        bosconian::play(options, policy, tape);
    }
    int next = 0;
    for (auto _ : state) {
        tape.pos = starts[static_cast<std::size_t>(next)];
        next = (next + 1) % kMissions;
        benchmark::DoNotOptimize(bosconian::play(options, policy, tape));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianTapeLearned);

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

// The kernel against the straightforward hand-written mission of bench_naive.hpp (issue 20's
// target: the kernel at least 1.25x it), one thread, playouts per second:
//   BM_BosconianNaiveStd     the hand-written loop on std::mt19937_64 and
//                            std::uniform_int_distribution, as one would write it
//   BM_BosconianNaiveDice    the same loop on odds::Dice: the code alone is compared
static void BM_BosconianNaiveStd(benchmark::State& state) {
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<int> die(1, 6);
    auto d6 = [&] { return die(rng); };
    for (auto _ : state) benchmark::DoNotOptimize(naive::play_mission(d6));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianNaiveStd);

static void BM_BosconianNaiveDice(benchmark::State& state) {
    odds::Dice dice(1);
    auto d6 = [&] { return dice.d6(); };
    for (auto _ : state) benchmark::DoNotOptimize(naive::play_mission(d6));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_BosconianNaiveDice);

// A variant against the book (issue 45): each table variant plays in the same loop as the book,
// its tables in the same arrays, so it should play at the book's speed where its missions are
// as long. Length: sectors entered.
namespace {
void versus_book(benchmark::State& state, const Settings& settings) {
    const auto book = bosconian::parse_options({});
    const auto variant = bosconian::parse_options(settings);
    bosconian::RulesAsWritten policy;
    Dice a(1), b(1);
    bench::versus_book(
        state, [&] { return bosconian::play(book, policy, a).sectors_entered; },
        [&] { return bosconian::play(variant, policy, b).sectors_entered; });
}
const int registered = bench::register_variants(
    "BM_BosconianVariant",
    {"cosmo_mine.damage=3d6", "cosmo_mine.damage=2d8+1", "asteroid.damage=2d6",
     "encounter.i_missile=1,3", "base_combat.cannon_destroyed_on=1,3", "cannon_fire.shots=2d6"},
    versus_book);
}  // namespace
