// Games as Lua scripts (engine/script.hpp, docs/scripting.md): a scripted game's playouts a
// second against its kernel's, in one run on one thread (benchmarks/versus_book.hpp: the item
// is one of the script's games, `ratio` the script's games a second over the kernel's), and a
// game that exists only as a script, played and solved.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/versus_book.hpp"
#include "sim/registry.hpp"

using namespace odds;

namespace {

// One game of `run` a call, each on its own dice, returning metric `length`'s value.
struct Player {
    std::unique_ptr<PreparedRun> run;
    std::size_t length = 0;
    std::uint64_t next = 0;
    std::vector<std::int32_t> out;
    Player(const std::string& game, const std::vector<std::string>& policies,
           const char* length_metric)
        : run(find_game(game).prepare({}, policies)), out(run->metrics.size()) {
        const auto& m = run->metrics;
        length = static_cast<std::size_t>(
            std::find_if(m.begin(), m.end(),
                         [&](const MetricSpec& s) { return s.name == length_metric; }) -
            m.begin());
    }
    std::int64_t operator()() {
        run->play_each(1, next++, 1, out.data());
        return out[length];
    }
};

}  // namespace

// Dimension Duel, `dice` against `dice`: the kernel against
// engine/dimension_duel/dimension_duel.lua (the same duels, die for die); length: turns.
static void BM_ScriptVsKernel_DimensionDuel(benchmark::State& state) {
    Player kernel("dimension-duel", {"dice"}, "turns");
    Player script(ODDS_SOURCE_DIR "/engine/dimension_duel/dimension_duel.lua", {"dice"}, "turns");
    bench::versus_book(
        state, [&] { return kernel(); }, [&] { return script(); });
}
BENCHMARK(BM_ScriptVsKernel_DimensionDuel)->Unit(benchmark::kMillisecond);

// Bosconian-D: the kernel against engine/bosconian/bosconian.lua (the same missions, die for
// die); length: sectors entered.
static void BM_ScriptVsKernel_Bosconian(benchmark::State& state) {
    Player kernel("bosconian", {"rules"}, "sectors_entered");
    Player script(ODDS_SOURCE_DIR "/engine/bosconian/bosconian.lua", {"rules"}, "sectors_entered");
    bench::versus_book(
        state, [&] { return kernel(); }, [&] { return script(); });
}
BENCHMARK(BM_ScriptVsKernel_Bosconian)->Unit(benchmark::kMillisecond);

// The Risk battle (engine/risk/risk.lua, built in as `risk`), 10 armies against 10, `press`.
static void BM_ScriptRiskBattle(benchmark::State& state) {
    Player risk("risk", {"press"}, "rounds");
    for (auto _ : state) benchmark::DoNotOptimize(risk());
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ScriptRiskBattle);

// odds exact risk at 5 armies against 3: every roll of every step enumerated (21 states, each
// step thrown 7,776 ways).
static void BM_ScriptExactRisk5v3(benchmark::State& state) {
    const GameEntry& risk = find_game("risk");
    const Settings settings{{"attackers", "5"}, {"defenders", "3"}};
    for (auto _ : state) benchmark::DoNotOptimize(risk.exact(settings, {"press"}));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ScriptExactRisk5v3)->Unit(benchmark::kMillisecond);
