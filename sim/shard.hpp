// Sharing a command's work across processes and machines (docs/cluster.md). A command's work is a
// list of jobs, each a run of chunks: run and baseline have one job, sweep one per combination,
// tournament one per pairing, compare one (every policy at once). Numbered job after job, the
// chunks are the command's work units; shard I of N plays the units [(I-1)U/N, IU/N). Chunk k of
// a job plays with the dice it plays in one process, and a state is exact integers (counts,
// histograms, paired sums), so the shards' states add up to one process's state, whatever N, and
// the files written from that sum are byte for byte one process's.
//
// A WorkShare is how one command invocation shares out its work: all of it here (the default),
// one shard of it (--shard I/N, or one MPI rank's share), or none of it, the state being the sum
// of shards already played (odds merge, or MPI's rank 0 after the reduction).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/cli_common.hpp"
#include "sim/shard_file.hpp"

namespace odds::cli {

// Checks that the shards are of one invocation (command, game, rules version, seed, playouts,
// scenarios, policies and options) and that their units tile the command's work exactly (no
// overlap; with allow_gaps false, nothing missing): a UsageError naming the shards and what
// differs, the overlapping or the missing chunks. Sorts them by their first unit.
void check_shards(std::vector<Shard>& shards, bool allow_gaps = false);

// A command's run as one of its jobs: its scenario, policies and chunks.
ShardJob job_of(const PreparedRun& run, std::uint64_t playouts);

// "3/8" -> {3, 8}; throws UsageError unless 1 <= I <= N <= 1e6.
std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& text);
// A command's arguments rebuilt from what was parsed, the same however they were typed: GAME (or
// FILE...) first, then --NAME=VALUE in name order (a repeated option's values in their order),
// defaults left out, and none of the options that only say how the work is shared or where it
// goes (--shard, --out, --threads, --no-progress). What a shard records, and provenance.csv's
// command line, so that a merged folder and one process's are byte for byte the same.
std::vector<std::string> canonical_args(const po::variables_map& vm);

class WorkShare {
public:
    enum class Mode { whole, shard, merge };
    WorkShare() = default;  // the whole work, here
    // Shard I of N (1-based); in_memory: kept for MPI instead of written into --out.
    static WorkShare shard(std::uint64_t index, std::uint64_t count, bool in_memory);
    // The sum of `shards` (checked by check_shards): nothing is played.
    static WorkShare merge(std::vector<Shard> shards, bool allow_gaps = false);

    Mode mode() const { return mode_; }
    // --shard I/N: the command's --out is the folder its shard file goes into.
    bool writes_shard_file() const { return mode_ == Mode::shard && !in_memory_; }

    // Declares the command's jobs, every input checked, before anything is played. Under
    // merge, checks they are the shards' (this build prepares what the shards played).
    void begin(const po::variables_map& vm, std::string_view command, const GameEntry& game,
               std::uint64_t seed, std::uint64_t playouts, std::vector<ShardJob> jobs, Io io);
    // The chunks a job is cut into.
    static std::uint64_t chunks_of(std::uint64_t playouts, std::uint32_t chunk_size) {
        return (playouts + chunk_size - 1) / chunk_size;
    }

    // Plays job `job` (its share of it; under merge, nothing: the shards' sum), as cli::play.
    RunResult play(std::size_t job, const PreparedRun& run, RunConfig cfg, ProgressBar* bar,
                   std::uint64_t offset = 0);
    RunResult play(std::size_t job, const PreparedRun& run, RunConfig cfg,
                   std::function<void(std::uint64_t done)> progress);
    // The same for any accumulator with write_state / add_state (run_chunks's Acc).
    template <class Acc, class PlayChunk>
    ChunkedResult<Acc> play_chunks(std::size_t job, RunConfig cfg, const Acc& empty,
                                   const PlayChunk& play_chunk, RunControl ctl) {
        return play_share(job, cfg, empty, ctl.progress, [&](const RunConfig& c, auto progress) {
            RunControl k = ctl;
            k.progress = std::move(progress);
            return run_chunks(c, empty, play_chunk, k);
        });
    }

    // After the jobs: under --shard, writes the shard file into `out_dir` (or keeps it, for MPI)
    // and returns the command's exit code (0; 130 when interrupted, and no file). Otherwise
    // nothing: the command writes its own files.
    std::optional<int> finish(const std::optional<std::string>& out_dir, Io io,
                              std::string_view who);
    // The shard played (shard mode, after finish), and the --out the command was given.
    const Shard& result() const { return shard_; }
    const std::optional<std::string>& out() const { return out_; }
    // MPI: rank 0 draws the bar, its share scaled to the whole run.
    void show_progress(bool show, bool scale_to_whole) {
        show_bar_ = show;
        scale_ = scale_to_whole;
    }

private:
    // Job `job` under this share: `play(cfg, progress)` plays the chunks cfg names (all of them,
    // or the share's); under merge nothing is played: the shards' states are added to `empty`.
    template <class Acc, class Play>
    ChunkedResult<Acc> play_share(std::size_t job, RunConfig cfg, const Acc& empty,
                                  std::function<void(std::uint64_t)> progress, const Play& play) {
        if (mode_ == Mode::merge) {
            ChunkedResult<Acc> r{empty, false, 0, 0};
            for_each_state(job, [&](StateReader& in) { add_state(in, r.tally); });
            r.partial = merged_partial(job);
            return r;
        }
        std::tie(cfg.chunk_begin, cfg.chunk_end) = range_of(job);
        if (mode_ == Mode::shard) progress = progress_for(job);
        ChunkedResult<Acc> r = play(cfg, std::move(progress));
        if (mode_ == Mode::shard) {
            std::vector<std::string> lines;
            if (r.chunks > 0) write_state(lines, r.tally);
            record(job, r.chunks, r.partial, std::move(lines));
        }
        return r;
    }
    std::pair<std::uint64_t, std::uint64_t> range_of(std::size_t job) const;
    // A shard's progress: its own bar (the command's is off, progress_wanted).
    std::function<void(std::uint64_t)> progress_for(std::size_t job);
    void record(std::size_t job, std::uint64_t chunks, bool partial,
                std::vector<std::string> lines);
    void for_each_state(std::size_t job, const std::function<void(StateReader&)>& f) const;
    bool merged_partial(std::size_t job) const;

    Mode mode_ = Mode::whole;
    bool in_memory_ = false;
    bool show_bar_ = false, scale_ = false;
    Shard shard_;                       // shard: what this process plays; merge: the header
    std::vector<Shard> shards_;         // merge: the shards
    std::vector<std::uint64_t> unit0_;  // the first unit of each job
    std::vector<std::uint64_t> share_playouts_;  // shard: each job's playouts in this share
    std::uint64_t job_playouts_ = 0;             // playouts a job
    std::uint64_t done_before_ = 0;              // shard: playouts of the jobs played so far
    std::optional<ProgressBar> bar_;
    std::optional<std::string> out_;
    bool interrupted_ = false;
};

// The WorkShare a command plays under: the one it was handed (odds merge, MPI), else its own
// (--shard I/N, or the whole work).
class ShareOf {
public:
    ShareOf(const po::variables_map& vm, Io io);
    ShareOf(const ShareOf&) = delete;
    ShareOf& operator=(const ShareOf&) = delete;
    WorkShare* operator->() { return p_; }
    WorkShare& operator*() { return *p_; }

private:
    std::optional<WorkShare> own_;
    WorkShare* p_;
};

// odds_main (sim/cli.hpp), every command playing under `share` (MPI's share of the work); null:
// by the command's own options.
int odds_main_sharing(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                      WorkShare* share);

// Runs the command the shards played, in merge mode, writing its files into `out` (when given):
// odds merge, and MPI's rank 0.
int run_merged(std::vector<Shard> shards, const std::optional<std::string>& out, Io io,
               bool allow_gaps = false);

}  // namespace odds::cli
