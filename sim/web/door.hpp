// The web page's door to odds (docs/web.md): a command and its options by the command line's own
// names, answered as `odds` answers them, with no command line parsed. The page's workers call it
// through WebAssembly (sim/web/door.cpp's odds_call); the tests call it natively and hold it to
// the CLI's bytes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace odds::web {

// What a command said: its exit code (the CLI's: 0, 1, 2, 130), stdout and stderr.
struct Answer {
    int code = 0;
    std::string out, err;
};

// `request`: the command's name on the first line, then one option a line as NAME=VALUE (the
// long name without its dashes; a list's values one a line; a flag as NAME alone; GAME as
// game=NAME), as typed: an option the command does not declare, a value for a flag or a second
// value for a single option is refused in one line, exit 2. Files (--out, --state, --rules) are
// paths in the module's file system. Every option is recorded as the CLI records it (a shard file,
// the provenance's command line), so a shard the page plays is the CLI's for the same options.
//
// The command "merge" takes dir=DIR (shard files, as odds merge reads them), out=DIR and the
// flag allow-gaps: the shards played so far when the page was stopped (the merged files then
// say partial).
Answer call(std::string_view request);

// The commands the page runs (run, exact, compare, list, state), each with the options it declares
// and their declared defaults, which the door fills as the command line's parser does.
struct DoorCommand {
    std::string_view name;
    std::vector<std::string_view> options;
    std::vector<std::pair<std::string_view, std::string_view>> defaults;
};
std::span<const DoorCommand> door_commands();

// The answer as one JSON object {"code": N, "out": "...", "err": "..."}.
std::string answer_json(const Answer& a);

}  // namespace odds::web
