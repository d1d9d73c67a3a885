// The game registry: every game by name, with its options and policies, and the one place where
// a (game, policies) choice becomes a compiled kernel instantiation. Nothing below this seam is
// virtual: PreparedRun::run is the only dynamic call, once per run.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/text.hpp"
#include "policies/policy_info.hpp"
#include "reports/exact_report.hpp"
#include "reports/stats.hpp"
#include "sim/runner.hpp"

namespace odds {

namespace shape {
class Sampler;  // sim/shape_run.hpp
}

// A game with its options and policies checked: ready to play any number of playouts.
class PreparedRun {
public:
    virtual ~PreparedRun() = default;
    virtual RunResult run(const RunConfig& cfg, const RunControl& ctl) const = 0;
    // Plays playouts first .. first+n-1, playout j on its own dice, Dice(stream_seed(seed, j)),
    // writing metric m of the i-th into out[i * metrics.size() + m]. Two runs given the same
    // seed play every playout from the same dice: common random numbers, playout by playout.
    virtual void play_each(std::uint64_t seed, std::uint64_t first, std::uint64_t n,
                           std::int32_t* out) const = 0;

    std::string game;
    std::string scenario;  // every effective rule option
    std::string policy;    // e.g. "rules", or "tau=dice kaon=dice"
    // Two-seat games whose scenario depends on the seats' policies: each seat's part of it, as
    // NAME=VALUE words (msc: the ships each side builds, "ships_a=E3S3T3W3+E3S2T3W1@25%", which
    // `scenario` holds as ships=A/B). Empty when the policies decide no part of the scenario.
    std::vector<std::string> seat_scenario;
    std::vector<MetricSpec> metrics;
    std::vector<SurvivalSpec> survivals;
    std::uint32_t chunk_size = kChunkSize;  // sim/runner.hpp; the registration may say otherwise
    std::vector<std::string> warnings;      // printed on stderr before the run (one line each)
};

// A game's registration: engine/GAME/register.cpp writes its text with designated initializers
// (.title = ..., .rules_version = ...) and entry_of (sim/register_game.hpp) fills the rest from the
// traits of its kernel; checked by validate() when the program starts.
struct GameEntry {
    std::string_view name = {};  // as typed: odds run NAME
    std::string_view title = {};
    std::string_view summary = {};  // one line
    std::span<const OptionInfo> options = {};
    std::span<const PolicyInfo> policies = {};  // the first is the default
    // Checks the options and policy arguments (throws UsageError) and binds them to the kernel.
    // A std::function, as canonical: a game written as a script (sim/script_game.hpp) carries
    // its loaded script in them.
    std::function<std::unique_ptr<PreparedRun>(const Settings& settings,
                                               const std::vector<std::string>& policies)>
        prepare = {};
    // The settings checked (throws UsageError) and written as the game reads them back: each
    // given name once, in name order, with its value as `odds list` writes values (hull=0100 is
    // hull=100, swap_homes=0 is swap_homes=false), so that a variant given as a file, as --set
    // or spelt another way is recorded alike (provenance, shards) and compared with the book.
    std::function<Settings(const Settings& settings)> canonical = {};
    // Seats, for games with more than one ({"tau", "kaon"}); empty for solo games.
    std::span<const std::string_view> seats = {};
    // The exact solver, for games that have one (else null). Throws UsageError for bad input.
    std::function<ExactReport(const Settings& settings, const std::vector<std::string>& policies)>
        exact = {};
    // Bumped by hand whenever the kernel or a policy is meant to play differently: `odds check`
    // demands identical counts from a baseline of the same version and seed.
    std::string_view rules_version = {};  // "NAME/N"
    // The metrics a baseline records and a sweep's table shows.
    std::span<const std::string_view> headline = {};
    // Two-seat games: the metrics of the first seat's win, the second's, and a draw (entry_of's
    // default: SEAT_win for each seat, then draw).
    std::span<const std::string_view> versus = {};
    // odds skill's default ladder (docs/skill.md): rules of thumb, random and the solved policy,
    // weakest first, then the search policy with {n} where its budget goes; empty: the game
    // gives none (the user names the rungs).
    std::span<const std::string_view> ladder = {};
    std::string_view search = {};
    // The exact solver as a command asks it beside its plays (compare's exact column, run
    // --report's exact laws, tune's exact points): the same answers within a smaller budget of
    // work, so that a game too large to solve costs seconds, not the minutes odds exact would
    // spend before refusing; null: exact itself (a kernel's solver refuses at once). Use
    // exact_beside(game).
    std::function<ExactReport(const Settings& settings, const std::vector<std::string>& policies)>
        exact_beside = {};
    // Why a game without an exact solver has none, when it says (odds exact's message).
    std::string no_exact = {};
    // The policy that plays the solution the exact solver states (its ExactReport::value), for
    // odds restrict --exact; empty: none.
    std::string_view solved = {};
    // What the exact solver cannot handle, for `odds list` (from the constants it checks).
    std::string exact_limits = {};
    // Positions (docs/positions.md), for games whose state can be written down; null for others.
    // The opening position under these options, in the game's position format (odds state
    // GAME). The CLI checks the options first (prepare), so this may assume they are valid.
    // (std::function, as prepare: a script's carry the script.)
    std::function<std::string(const Settings& settings)> opening_position = {};
    // prepare, with every playout starting from the position `text` read from `file` instead of
    // a fresh game (odds run GAME --state FILE). A malformed or illegal position throws
    // UsageError "FILE:LINE: WHAT (RULE)" (engine/line_reader.hpp). Playing from the text that
    // opening_position wrote plays exactly as a fresh game, playout for playout.
    std::function<std::unique_ptr<PreparedRun>(const Settings& settings,
                                               const std::vector<std::string>& policies,
                                               std::string_view text, std::string_view file)>
        prepare_from = {};
    // exact, from a position (odds exact GAME --state FILE); null where the solver has no such
    // entry.
    std::function<ExactReport(const Settings& settings, const std::vector<std::string>& policies,
                              std::string_view text, std::string_view file)>
        exact_from = {};
    // The shape of cfg.games sampled games, game i on Dice(stream_seed(cfg.seed, i)), on
    // cfg.threads threads (sim/shape_run.hpp), for games that can follow a game's odds step by
    // step (odds shape); else null. `games` plays them (all, a shard's, or the sum of shards:
    // sim/shape_run.hpp). Throws UsageError; stopped, the report is partial.
    // (std::function, as prepare: a script's carries its script.)
    std::function<ShapeReport(const Settings& settings, const std::vector<std::string>& policies,
                              const shape::Config& cfg, shape::Sampler& games)>
        shape = {};
    // The default -n of odds shape (games sampled) and odds skill (games a group) for this game:
    // sized so that each finishes in about two minutes on 2 cores (docs/performance.md, the
    // cost before the run), where a game's steps or its search rungs are slow.
    std::uint64_t shape_games = 10'000;
    std::uint64_t skill_games = 100;
    // The default -n of odds run and odds baseline, sized the same way (a game whose playouts
    // are slow plays fewer); compare, tournament, sweep and tune play 100k a run.
    std::uint64_t run_playouts = 1'000'000;
    // The default -n of each run of odds compare, tournament and sweep: a tenth of odds run's
    // (100k for most games), since they play several runs.
    std::uint64_t each_run_playouts() const { return run_playouts / 10; }
};

// The solver a command asks beside its plays: GameEntry::exact_beside, else exact (may be null).
inline const std::function<ExactReport(const Settings&, const std::vector<std::string>&)>&
exact_beside(const GameEntry& game) {
    return game.exact_beside ? game.exact_beside : game.exact;
}

// Every registered game, each checked by validate() on first use (odds_main uses it first).
std::span<const GameEntry> games();
// The games odds lists and finds by name: the kernels (games()), then the engine's scripted
// games (engine/NAME/NAME.lua with no kernel: sim/script_game.hpp, scripted_games).
std::vector<std::reference_wrapper<const GameEntry>> listed_games();
// Checks a registration against itself: a name, a prepare function, at least one policy and a
// well-formed policy table (policy_table_error), a rules version "NAME/N", two seats or none,
// and every headline and versus name one of the metrics its default scenario reports (three
// versus names for two seats). Throws std::logic_error naming the game and what is wrong: a
// registration mistake, found when the program starts.
void validate(const GameEntry& game);
// The game called `name`; throws UsageError listing the games.
const GameEntry& find_game(std::string_view name);

}  // namespace odds
