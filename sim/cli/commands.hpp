// The odds commands: each a module of sim/cli/ (its declaration, its arguments, what it plays and
// writes), listed in sim/cli/commands.inc.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cli/common.hpp"

namespace odds::cli {

// A command: its arguments parsed by its declaration into Args (sim/cli/spec.cpp; --help answered
// before it is called), the command line rebuilt among them (Args::command_line).
using CommandFn = int(const Args& opt, Io io);

// A command, declared once in its module: its synopsis, description, examples and options, from
// which parsing, --help (wrapped to the terminal), the error messages, the shell completions and
// the man page are all made (sim/cli/spec.hpp), and the function that runs it.
struct CommandSpec {
    std::string_view name;
    std::string_view summary;      // one line, for `odds --help`
    std::string_view synopsis;     // "odds run GAME [options]"
    std::string_view description;  // paragraphs separated by blank lines
    std::array<std::string_view, 2> examples;
    const char* positional;  // what the bare arguments are: "game", "file" or "none"
    int max_positional;      // 1, -1 (any number) or 0
    void (*add_options)(po::options_description&);  // the command's options, --help aside
    CommandFn* run;  // called by run_command once the arguments are parsed
};

// Every command's declaration, NAME_spec in its module (sim/cli/NAME.cpp), listed once in
// sim/cli/commands.inc: adding a command is its module and one line there.
#define ODDS_COMMAND(NAME) extern const CommandSpec NAME##_spec;
#include "sim/cli/commands.inc"
#undef ODDS_COMMAND

// odds_main (sim/cli/cli.hpp), every command playing under `share` (MPI's share of the work);
// null: by the command's own options. `team`: odds tune's ranks under MPI (else null).
int odds_main_sharing(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                      Executor* share, const Team* team = nullptr);

// Runs `command` as a command of odds, `who` ("odds run") naming it in its errors: a bad input's
// UsageError as one line on io.err and exit code 2, a failure 1, a stop 130 (or 143), and the
// --out folders it locked released however it ends. odds_main's dispatch, and the web page's
// (sim/web/).
int guarded(const std::string& who, Io io, const std::function<int()>& command);

// Runs the command the shards played, in merge mode, writing its files into `out` (when given):
// odds merge (sim/cli/merge.cpp), and MPI's rank 0.
int run_merged(std::vector<Shard> shards, const std::optional<std::string>& out,
               std::ostream& out_stream, std::ostream& err, bool allow_gaps = false);

}  // namespace odds::cli
