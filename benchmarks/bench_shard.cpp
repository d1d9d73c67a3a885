// What merging costs a shard (odds merge, MPI's rank 0; docs/cluster.md): a Bosconian-D run's
// shard file read back (its CRC-32 checked, every record parsed) and its state added into the
// merged tally. Items: shards.
#include <benchmark/benchmark.h>

#include "sim/executor.hpp"
#include "sim/registry.hpp"

static void BM_MergeShardBosconian(benchmark::State& state) {
    using namespace odds;
    const auto prepared = find_game("bosconian").prepare({}, {});
    RunConfig cfg;
    cfg.playouts = 1u << 20;  // 64 chunks: every value a long run reaches is in the histograms
    cfg.threads = 2;
    cfg.chunk_size = prepared->chunk_size;
    const Tally played = prepared->run(cfg, {}).tally;
    sim::Shard s;
    s.odds_version = "0";
    s.command = "run";
    s.game = "bosconian";
    s.rules_version = "bosconian/1";
    s.playouts = cfg.playouts;
    s.args = {"bosconian", "--playouts=1048576"};
    s.jobs = {{prepared->scenario, prepared->policy, 64, prepared->chunk_size}};
    s.last = 64;
    s.states.resize(1);
    sim::write_state(s.states[0], played);
    const std::string text = sim::shard_text(s);
    Tally merged(prepared->metrics, prepared->survivals);
    for (auto _ : state) {
        const sim::Shard read = sim::read_shard(text, "bench");
        sim::StateReader in(read.states[0], read.source);
        sim::add_state(in, merged);
        benchmark::DoNotOptimize(merged.playouts());
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["bytes"] = static_cast<double>(text.size());
}
BENCHMARK(BM_MergeShardBosconian)->Unit(benchmark::kMicrosecond);
