// The options every playing command shares, parsed once into types (as ripgrep's LowArgs):
// --playouts, --seed, --threads, --no-progress, --shard and --out, and the command line rebuilt.
// A command reads these, never their text; below the commands nothing sees the command line
// (sim/executor.hpp takes a Plan).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cli/common.hpp"

namespace odds::cli {

// The command's parsed options as Args: each option by its declared name, once, here.
Args args_of(const po::variables_map& vm);
// Sets the field of Args the option `name` (its long name) is bound to: a flag to true, a value to
// `value`, a list's next value; `defaulted`: the declaration's default, not typed. A name bound to
// no field is a logic_error. What args_of reads the parsed options with, and the web page's door
// (sim/web/) its requests.
void set_arg(Args& a, std::string_view name, std::string value, bool defaulted = false);
// Whether the option called `option` is a flag (--report, --json ...: given without a value).
bool is_flag(std::string_view option);
// Whether the option called `option` is a list (--set, --policy ...: given any number of times).
bool is_list(std::string_view option);
// Whether the option called `option` (its long name) has its field in Args (a test checks every
// declared option is bound).
bool bound(std::string_view option);

struct RunArgs {
    // --playouts and --seed: their defaults where the command has them; odds check's only when
    // given (a baseline's own otherwise); none where the command takes no such option.
    std::optional<std::uint64_t> playouts, seed;
    unsigned threads = 1;  // --threads, else every hardware thread
    bool no_progress = false;
    bool dry_run = false;             // --dry-run: the plan and its expected time, nothing kept
    std::optional<ShardIndex> shard;  // --shard I/N
    std::optional<std::string> out;   // --out, as given (each command checks it as its kind)
    // canonical_args: what a shard records and provenance.csv's command line.
    std::vector<std::string> command_line;
    Args::Sharing sharing;  // odds merge's shards, an MPI rank's share and team

    // A progress bar on stderr: not --no-progress, not a shard (its bar is its own, drawn by the
    // executor), and stderr a terminal.
    bool progress() const;
    // --playouts, --seed and --threads (the chunk size left to the caller).
    RunConfig config() const;
    // The plan of `jobs` for `command` on `game`: its identity (game, rules version, seed,
    // playouts, command line), --out and the shard's bar.
    Plan plan(std::string_view command, const GameEntry& game, std::vector<ShardJob> jobs) const;
    // The executor the command's plan is played by: the one handed down (odds merge, MPI), else
    // its own (all of the work, or --shard I/N's part: sim/executor.hpp).
    ExecutorOf executor() const { return ExecutorOf(shard, sharing.executor, dry_run); }
};

// One job a run, each of `playouts` playouts: `runs` holds things with a prepared `run` (a
// sweep's combinations, a tournament's pairings).
template <class Runs>
std::vector<ShardJob> jobs_of(const Runs& runs, std::uint64_t playouts) {
    std::vector<ShardJob> jobs;
    for (const auto& r : runs) jobs.push_back(job_of(*r.run, playouts));
    return jobs;
}

// The shared options of a command, typed: --playouts, --seed, --threads, --no-progress, --shard,
// --out and the command line.
RunArgs run_args_of(const Args& a);
// The same, --playouts at `default_playouts` where it is not given (the game's own default).
RunArgs run_args_of(const Args& a, std::uint64_t default_playouts);

// A command's arguments rebuilt from what was parsed, the same however they were typed: GAME (or
// FILE...) first, then --NAME=VALUE in name order (a repeated option's values in their order),
// defaults left out, --rules FILE as the --set of the options it changes (odds check, without a
// game: as --rules=FILE), and none of the options that only say how the work is shared or where
// it goes (--shard, --out, --threads, --no-progress). What a shard records, and provenance.csv's
// command line, so that a merged folder and one process's are byte for byte the same.
// `given`: the options typed (defaults left out), in name order, each with its values (a list's
// in their order; none: a flag); `files`: GAME's FILE... or DIR recorded (odds check, report).
struct Given {
    std::string name;
    std::vector<std::string> values;
    bool list = false;  // declared as a list (--set, --policy ...): its values as given
};
std::vector<std::string> canonical_args(const std::vector<Given>& given, const Args& opt,
                                        bool files);
// Throws UsageError when an argument holds a line break (a shard file or provenance.csv cannot
// record it).
void check_one_line(const std::vector<std::string>& args);

// "3/8" -> {3, 8}; throws UsageError unless 1 <= I <= N <= 1e6.
ShardIndex parse_shard(const std::string& text);

// Without a progress bar (--no-progress, or stderr not a terminal): one line on stderr as the
// work starts, "WHO: WHAT queued on N threads", so a log is never silent through a long run.
void announce_queued(const RunArgs& a, Io io, const std::string& who, const std::string& what,
                     unsigned threads);

}  // namespace odds::cli
