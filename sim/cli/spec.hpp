// The dispatcher's side of the commands' declarations (sim/cli/commands.hpp): the table of them,
// parsing, `--help` (wrapped to the terminal), the error messages, the shell completions and the
// man page, all made from the declarations (sim/cli/spec.cpp).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"

namespace odds::cli {

std::span<const CommandSpec> commands();
// The command called `name`; throws UsageError naming the commands (and the nearest one).
const CommandSpec& find_command(std::string_view name);
// Runs `c` on `args`: parsed by its declaration (parse_command), then its function; with --help,
// the help printed instead (exit 0).
int run_command(const CommandSpec& c, const std::vector<std::string>& args, Io io,
                const Args::Sharing& sharing = {});

// The command's options, --help first, with descriptions wrapped to `columns`.
po::options_description options_of(const CommandSpec& c, unsigned columns = 80);
// Whether the command called `name` takes --shard: its work can be shared out, into shard files
// (odds merge) or among MPI's ranks (sim/cli/mpi.cpp). False for a name that is no command. odds
// tune declares --shard only to refuse it: under MPI its ranks are a team (mpi.cpp asks first).
bool shares_out(std::string_view name);

// Parses a command's arguments by its declaration. With --help: prints the help (wrapped to the
// terminal) and returns nothing. Every mistake is a UsageError in odds's own words, naming the
// bad argument, what is valid, and the nearest valid name where one is close.
std::optional<po::variables_map> parse_command(std::string_view name,
                                               const std::vector<std::string>& args, Io io);

// `odds --help`.
std::string usage_text(unsigned columns = 80);
// The help of one command, as --help prints it.
std::string help_text(const CommandSpec& c, unsigned columns = 80);

// The terminal's width for help text (COLUMNS, else the terminal's, else 80; within 60..160).
unsigned help_columns();

// `text` wrapped to `columns`, every line indented by `indent` spaces.
std::string wrap(std::string_view text, unsigned columns, unsigned indent = 0);

// The shell completion scripts and the man page, made from the declarations above and the
// registry: `odds completion bash|zsh`, `odds man`.
std::string bash_completion();
std::string zsh_completion();
std::string man_page();

}  // namespace odds::cli
