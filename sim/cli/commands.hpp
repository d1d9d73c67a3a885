// The odds commands, one function each (sim/cli*.cpp).
#pragma once

#include <string>
#include <vector>

#include "sim/cli/common.hpp"

namespace odds::cli {

// A command: its arguments parsed by its declaration into Args (sim/cli/spec.cpp; --help answered
// before it is called), the command line rebuilt among them (Args::command_line).
using CommandFn = int(const Args& opt, Io io);

CommandFn cmd_list, cmd_run, cmd_exact, cmd_state, cmd_rules, cmd_version;  // sim/cli/cli.cpp
CommandFn cmd_dice;                                                         // sim/cli/dice.cpp
CommandFn cmd_sweep;                                                        // sim/cli/sweep.cpp
CommandFn cmd_tune;                                                         // sim/cli/tune.cpp
CommandFn cmd_baseline;                                                     // sim/cli/baseline.cpp
CommandFn cmd_check;                                                        // sim/cli/check.cpp
CommandFn cmd_compare;                                                      // sim/cli/compare.cpp
CommandFn cmd_tournament;  // sim/cli/tournament.cpp
CommandFn cmd_skill;       // sim/cli/skill.cpp
CommandFn cmd_shape;       // sim/cli/shape.cpp
CommandFn cmd_restrict;    // sim/cli/restrict.cpp
CommandFn cmd_merge;       // sim/cli/merge.cpp
CommandFn cmd_report;      // sim/cli/report.cpp

// odds_main (sim/cli/cli.hpp), every command playing under `share` (MPI's share of the work);
// null: by the command's own options. `team`: odds tune's ranks under MPI (else null).
int odds_main_sharing(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                      Executor* share, const Team* team = nullptr);

// Runs the command the shards played, in merge mode, writing its files into `out` (when given):
// odds merge (sim/cli/merge.cpp), and MPI's rank 0.
int run_merged(std::vector<Shard> shards, const std::optional<std::string>& out,
               std::ostream& out_stream, std::ostream& err, bool allow_gaps = false);

}  // namespace odds::cli
