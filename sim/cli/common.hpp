// What the odds commands share: option sets, their checking, output directories, and playing a
// prepared run under a progress bar and Ctrl-C. Every check throws UsageError (exit code 2).
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rule_options.hpp"
#include "sim/executor.hpp"
#include "sim/progress.hpp"
#include "sim/registry.hpp"
#include "sim/team.hpp"

namespace odds::cli {

// The command line's wing sees the machinery of sim/ (the executor, shards, file formats), which
// sees nothing of it.
using namespace odds::sim;

namespace po = boost::program_options;

// One option's value as the command line gave it, or as its declaration defaults it.
struct Value {
    std::optional<std::string> text;
    bool defaulted = false;  // the declaration's default, not typed

    explicit operator bool() const noexcept { return text.has_value(); }
    const std::string& operator*() const { return *text; }
    const std::string* operator->() const { return &*text; }
    // Typed by the user (a default does not count).
    bool given() const noexcept { return text && !defaulted; }
    std::string value_or(std::string fallback) const { return text ? *text : fallback; }
};

// Every option and argument of every command, parsed once by the dispatcher from the command's
// declaration (args_of, the one place that reads them by name): a command reads these fields,
// never the parsed options' text by name. An option a command does not declare stays empty.
struct Args {
    Value game;                      // GAME (odds completion: the shell)
    std::vector<std::string> files;  // FILE... (check, dice's expressions, report's DIR), DIR...
    std::vector<std::string> set, policy, fixed, vary, target, tolerance, restrict;
    std::vector<std::string> variant;  // compare --variant
    Value rules, state, out, format;   // the game's variant; where a run starts; where files go
    Value playouts, seed, threads, shard;
    Value rank_by, metrics, metric;                                    // compare, skill, restrict
    Value search, budgets, budget;                                     // skill, restrict, tune
    Value rollouts, estimator;                                         // shape
    Value seat, play, opponent;                                        // restrict
    Value trial_playouts, finalists, explore, neighbours, deviations;  // tune's NTBEA
    Value junit, json_file, false_alarm, miss, max_playouts;           // check (--json FILE)
    bool no_progress = false, report = false, exact = false, no_exact = false;
    bool sequential = false, update = false;  // check
    bool dry_run = false;                     // every command that shares its work
    bool json = false;                        // odds list --json
    // canonical_args: the command line rebuilt, what a shard and provenance.csv record.
    std::vector<std::string> command_line;
    // How the command's work is shared out when it is not the command's own to say (--shard I/N,
    // or all of it): set by odds merge (the shards' sum) and under MPI (the rank's share), and
    // for odds tune under MPI the ranks that play each evaluation together.
    struct Sharing {
        Executor* executor = nullptr;
        const Team* team = nullptr;
    } sharing;
};

// Where a command speaks: its table on `out`, its notes and errors on `err`.
struct Io {
    std::ostream& out;
    std::ostream& err;
};

// A command without options besides --help.
void no_options(po::options_description& d);
// --out DIR (-o), `what` its help: what the command writes there.
void out_option(po::options_description& d, const char* what);
// --set and --policy.
void add_game_options(po::options_description& d);
// --playouts, --seed, --threads, --no-progress, --shard (`shard_help`: its help where the command
// refuses it, saying why).
// default_playouts null: the game's own (GameEntry::run_playouts, filled in by the command).
// `playouts_help`: --playouts' help where the default is another of the game's (below).
void add_run_options(po::options_description& d, const char* default_playouts = nullptr,
                     const char* shard_help = nullptr, const char* playouts_help = nullptr);
// --playouts' help for a command of several runs (compare, tournament, sweep), whose runs take
// GameEntry::each_run_playouts by default.
inline constexpr const char* kEachRunPlayouts =
    "playouts of each run: 1000000, 1e6 and 1M all work (suffixes k, M, G); default: the "
    "game's, a tenth of odds run's (100k for most games; 'odds list GAME' says)";
// --shard I/N; `note` (may be null) added to its help: what the command shares out.
void add_shard_option(po::options_description& d, const char* note = nullptr);

// Parses a command's arguments: its options, and GAME (or FILE...) as positional.
po::variables_map parse(const std::vector<std::string>& args, const po::options_description& d,
                        const char* positional = "game", int max_positional = 1);

const GameEntry& game_of(const Args& opt);  // "which game?" when missing
// --rules FILE's options (sim/rules_file.hpp), then --set's on top.
Settings settings_of(const Args& opt);
// The game's settings (settings_of) as the game reads them back, in name order (GameEntry::
// canonical): what provenance.csv and a shard record of --rules and --set alike.
Settings canonical_settings(const Args& opt);
// --rules FILE, for the commands that take --set.
void add_rules_option(po::options_description& d);
// --set NAME=VALUE, repeatable, with `help` (by default a run's: the rule option it changes).
void add_set_option(po::options_description& d,
                    const char* help =
                        "a rule option NAME=VALUE; repeatable ('odds list GAME' "
                        "shows them)");
// --state FILE (odds run, odds exact; docs/positions.md).
void add_state_option(po::options_description& d, const char* what);
// The position named by --state, when given: its path and its text. The game must have
// positions (`hook` is its prepare_from or exact_from); a file that cannot be read, or a game
// without positions, is a UsageError naming it and what is valid.
struct StateFile {
    std::string path, text;
};
std::optional<StateFile> state_of(const Args& opt, const GameEntry& game, bool has_hook,
                                  std::string_view command);
// The games with positions (opening_position), comma-separated.

std::uint64_t parse_playouts(const std::string& s);
std::uint64_t parse_seed(const std::string& s);
// Worker threads a run may ask for: every hardware thread of a large machine, not more.
inline constexpr int kMaxThreads = 256;
unsigned parse_threads(const std::string& s);

// Checks, without creating anything, that `dir` exists as a writable directory or could be
// made (its nearest existing ancestor is a writable directory).
void check_out_dir(const std::string& dir);
// Makes `dir` (and its parents), checks a file can be created in it, and locks it for this
// command (flock on the folder, released when the command ends: release_out_dirs): exclusively,
// so that a second command writing the same folder is refused (UsageError) instead of mixing its
// files with this one's; or `shared`, for shards, which each write their own file and may run side
// by side into one folder.
void prepare_out_dir(const std::string& dir, bool shared = false);
// Releases every folder prepare_out_dir locked (odds_main_sharing, when a command ends).
void release_out_dirs();
// --out DIR when given, checked (not yet created) by check_out_dir.
std::optional<std::string> out_dir_of(const Args& opt);
// Checks, creating nothing, that a file could be written at `path`: not a directory, and its
// folder exists as a writable directory or could be made. Messages name `option` (--out, --junit).
void check_out_file(const std::string& path, std::string_view option = "--out");
// Makes the file's folder (and its parents) and checks the file can be created there.
void prepare_out_file(const std::string& path, std::string_view option = "--out");

// A range of whole numbers for --vary (odds sweep and odds tune): LO..HI or LO..HI:STEP, and
// the same as LO:HI:STEP (sweep's older spelling, kept as an alias, its STEP always given); each
// end from -1e9 to 1e9, STEP from 1 to 1e9 (1 when not given). Its values: LO, LO+STEP, ... up to
// HI.
struct IntRange {
    std::int64_t lo = 0, hi = 0, step = 1;
};
// What the --vary messages say is valid.
inline constexpr std::string_view kRangeForms =
    "LO..HI or LO..HI:STEP (alias LO:HI:STEP), whole numbers, STEP > 0";
// Whether `spec` is written as a range: it holds ".." or ':'.
bool is_range(std::string_view spec);
// The range `spec` spells, LO <= HI; else nullopt with `why` set to what is wrong.
std::optional<IntRange> parse_range(std::string_view spec, std::string& why);

// --format table|csv|json (run, exact, compare, tournament, sweep): what the command prints on
// stdout. table (the default) is the table for people; csv is the CSV the command writes with
// --out (run, exact: summary.csv; compare: policies.csv; tournament: ratings.csv; sweep:
// sweep.csv), byte for byte; json is the same rows as a JSON array of objects, one a row, each
// cell a number where it reads as one, null where empty, else a string.
enum class Format { table, csv, json };
void add_format_option(po::options_description& d, const char* csv_file);
Format format_of(const Args& opt);
// Prints `csv` on stdout as `f` says (csv or json).
void print_rows(std::ostream& out, Format f, const std::string& csv);

// The games, comma-separated: every one, or those `has` (a test below) says yes to.
std::string game_names(bool (*has)(const GameEntry&) = nullptr);
bool has_exact(const GameEntry& g);         // an exact solver (odds exact)
bool has_positions(const GameEntry& g);     // positions (odds state, --state)
bool has_shape(const GameEntry& g);         // odds shape
bool has_two_seats(const GameEntry& g);     // two seats (odds tournament)
bool has_restrictions(const GameEntry& g);  // restrict options (odds restrict)

// The words (space-separated NAME=VALUE) of the first scenario that every one of `scenarios`
// holds, in its order: what several runs share, for a header.
std::string common_scenario(const std::vector<std::string>& scenarios);
// The words of `scenario` that `common` lacks, in order: what one run adds to the shared part.
std::string scenario_rest(const std::string& scenario, const std::string& common);

// `v` with `digits` decimals, for the tables.
std::string fixed(double v, int digits = 4);

// OPTION's comma list of names ("--metrics 'win,damage'"): every name between commas, in order;
// an empty one ('', 'win,', 'a,,b') or one named twice is a UsageError.
std::vector<std::string> comma_names(const std::string& option, const std::string& list);

}  // namespace odds::cli
