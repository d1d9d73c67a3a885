// The executor: plays a command's plan on any share of its work (docs/architecture.md). A command
// parses its arguments (sim/cli/args.hpp), prepares its runs and declares them as a Plan: the
// jobs to play, each a run of chunks (run and baseline have one job, sweep one per combination,
// tournament one per pairing, compare one with every policy at once, check one per baseline). An
// Executor plays the plan's jobs and hands each job's reduced result back to the command's
// writers. Nothing here knows the command line.
//
// Numbered job after job, the chunks are the plan's work units; shard I of N plays the units
// [(I-1)U/N, IU/N). Chunk k of a job plays with the dice it plays in one process, and a job's
// result is exact integers (counts, histograms, paired sums) that reduce by addition, so the
// shards' states add up to one process's state, whatever N, and the files written from that sum
// are byte for byte one process's.
//
// An Executor plays all of the work here (the default), one shard of it (--shard I/N, or one MPI
// rank's share), or none of it, the result being the sum of shards already played (odds merge,
// or MPI's rank 0 after the reduction). A dry run (--dry-run) plays each job for about a second,
// keeps nothing, and says what the whole would take.
//
// Before a long run (the whole work, here), the executor says on stderr what it expects to take,
// once the first second of play has told it: the plan's playouts at the rate measured so far.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/progress.hpp"
#include "sim/registry.hpp"
#include "sim/shard_file.hpp"

namespace odds::sim {

// "3.2 s", "42 s", "3 min 20 s", "2 h 5 min".
std::string duration_words(double seconds);

// Checks that the shards are of one invocation (command, game, rules version, seed, playouts,
// scenarios, policies and options) and that their units tile the command's work exactly (no
// overlap; with allow_gaps false, nothing missing): a UsageError naming the shards and what
// differs, the overlapping or the missing chunks. Sorts them by their first unit.
void check_shards(std::vector<Shard>& shards, bool allow_gaps = false);

// A command's run as one of its jobs: its scenario, policies and chunks.
ShardJob job_of(const PreparedRun& run, std::uint64_t playouts);

// Shard I of N (--shard I/N, as typed in `text`).
struct ShardIndex {
    std::uint64_t index = 1, count = 1;
    std::string text;
};

// What a command plays: its jobs, and the identity its shards record (docs/output.md, shard
// files) so that only shards of one invocation merge.
struct Plan {
    std::string command;              // run, sweep, check ...
    std::string game, rules_version;  // check over several games: each one's, space-separated
    std::uint64_t seed = 0, playouts = 0;
    std::vector<ShardJob> jobs;
    // Each job's playouts, where they differ (check: each baseline's); else `playouts` each.
    std::vector<std::uint64_t> job_playouts;
    // The command line rebuilt, the same however it was typed (sim/cli/args.hpp): what a shard
    // records, to prepare the same plan again when merging.
    std::vector<std::string> args;
    std::optional<std::string> out;  // --out DIR: where a shard file goes
    bool shard_bar = false;          // --shard given without --no-progress: the shard's own bar
};

class Executor {
public:
    enum class Mode { whole, shard, merge, dry };
    Executor() = default;  // the whole work, here
    // --dry-run: each job timed, nothing kept; finish() prints the plan and its expected time.
    static Executor dry_run();
    // Shard I of N (1-based); in_memory: kept for MPI instead of written into --out.
    static Executor shard(std::uint64_t index, std::uint64_t count, bool in_memory);
    // The sum of `shards` (checked by check_shards): nothing is played.
    static Executor merge(std::vector<Shard> shards, bool allow_gaps = false);

    Mode mode() const { return mode_; }
    // --dry-run: nothing is kept, so no folder is made or file written.
    bool dry() const { return mode_ == Mode::dry; }
    // --shard I/N: the command's --out is the folder its shard file goes into.
    bool writes_shard_file() const { return mode_ == Mode::shard && !in_memory_; }

    // Takes the command's plan, every input checked, before anything is played. Under merge,
    // checks its jobs are the shards' (this build prepares what the shards played). A shard
    // says on `err` what it plays.
    void begin(Plan plan, std::ostream& err);
    // The chunks a job is cut into.
    static std::uint64_t chunks_of(std::uint64_t playouts, std::uint32_t chunk_size) {
        return (playouts + chunk_size - 1) / chunk_size;
    }

    // Plays job `job` (its share of it; under merge, nothing: the shards' sum), as sim::play.
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

    // After the jobs: under --shard, writes the shard file into the plan's --out (or keeps it, for
    // MPI) and returns the command's exit code (0; 130 when interrupted, and no file). Otherwise
    // nothing: the command writes its own files.
    std::optional<int> finish(std::ostream& out, std::ostream& err, std::string_view who);
    // A dry run's words: each job's playouts and expected time, and the whole's.
    std::string dry_run_text(std::string_view who) const;
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
        if (mode_ == Mode::dry) {  // about a second of play, timed; nothing kept (and not
                                   // partial, so that the command goes on to its next job)
            ChunkedResult<Acc> r{empty, false, 0, 0};
            std::function<void(std::uint64_t)> watch = timer(job, cfg, std::move(progress));
            play(cfg, std::move(watch));
            end_timing();
            return r;
        }
        if (mode_ == Mode::whole) progress = announcer(job, cfg, std::move(progress));
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
    // Dry run: the progress of job `job` timed (and passed on); after about a second of play, or
    // at most kDryWait with nothing done, the stop flag ends it. end_timing clears the flag it set.
    std::function<void(std::uint64_t)> timer(std::size_t job, const RunConfig& cfg,
                                             std::function<void(std::uint64_t)> progress);
    void end_timing();
    // The whole work: the progress passed on, and once, after a second of the first job played,
    // the expected time of the plan on err_ when it is more than kAnnounceAfter.
    std::function<void(std::uint64_t)> announcer(std::size_t job, const RunConfig& cfg,
                                                 std::function<void(std::uint64_t)> progress);
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
    std::vector<std::uint64_t> job_playouts_;    // each job's playouts
    std::uint64_t done_before_ = 0;              // shard: playouts of the jobs played so far
    std::optional<ProgressBar> bar_;
    std::optional<std::string> out_;
    bool interrupted_ = false;
    // What the plan plays, for a dry run's words and the expected time.
    std::string command_, game_;
    std::vector<ShardJob> jobs_;
    std::ostream* err_ = nullptr;
    bool announced_ = false;
    // Dry run: each job's timing (seconds, the share of it done, the threads, and whether the
    // stop flag was ours).
    struct Timing {
        double seconds = 0, share = 0;
        unsigned threads = 1;
        bool timed = false;
    };
    std::vector<Timing> timing_;
    std::shared_ptr<std::atomic<bool>> stopped_by_timer_ =
        std::make_shared<std::atomic<bool>>(false);
};

// The Executor a command plays under: the one it was handed (odds merge, MPI), else its own
// (--shard I/N, or the whole work).
class ExecutorOf {
public:
    // `given`: the executor handed down (odds merge, MPI), else null; `shard`: --shard I/N;
    // `dry`: --dry-run (refused with either).
    ExecutorOf(const std::optional<ShardIndex>& shard, Executor* given, bool dry = false);
    ExecutorOf(const ExecutorOf&) = delete;
    ExecutorOf& operator=(const ExecutorOf&) = delete;
    Executor* operator->() { return p_; }
    Executor& operator*() { return *p_; }

private:
    std::optional<Executor> own_;
    Executor* p_;
};

// Plays `run` with Ctrl-C as a stop request; `bar` (may be null) shows done + offset.
RunResult play(const PreparedRun& run, const RunConfig& cfg, ProgressBar* bar,
               std::uint64_t offset = 0);
// The same, telling `progress` (may be empty) the playouts done as the run goes on.
RunResult play(const PreparedRun& run, const RunConfig& cfg,
               std::function<void(std::uint64_t done)> progress);

// Plays `run` in batches until `decided(tally so far)` says enough (odds check --sequential), at
// most `cap` playouts: batch b plays a whole number of chunks on the seed stream_seed(cfg.seed,
// b), so what is played depends on the seed and the cap alone, never on --threads. The batches'
// tallies merge in order; Ctrl-C stops at a chunk boundary (partial). cfg.playouts is ignored.
RunResult play_batches(const PreparedRun& run, const RunConfig& cfg, std::uint64_t cap,
                       ProgressBar* bar, const std::function<bool(const Tally&)>& decided);
// The batch size play_batches uses: about cap / 32, a whole number of chunks, at least one.
std::uint64_t batch_size(std::uint64_t cap, std::uint32_t chunk_size);

}  // namespace odds::sim
