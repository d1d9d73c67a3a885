// odds version: the version, each game's rules version, and how this binary was built.
#include <algorithm>
#include <iomanip>

#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

int cmd_version(const Args&, Io io) {
    io.out << "odds " << ODDS_VERSION << " (" << ODDS_BUILD_TYPE << " build)\n";
    std::size_t wide = 0;
    for (const GameEntry& g : listed_games()) wide = std::max(wide, g.name.size());
    for (const GameEntry& g : listed_games())
        io.out << "  " << std::left << std::setw(static_cast<int>(wide) + 2) << g.name
               << g.rules_version << '\n';
    return 0;
}
const CommandSpec version_spec = {
    "version",
    "the version, each game's rules version, and the build",
    "odds version",
    "The version of odds, the rules version of each game (a baseline records it: 'odds check' "
    "compares counts exactly only within one rules version), and how this binary was built. "
    "'odds --version' says the same.",
    {"odds version", "odds --version"},
    "none",
    0,
    no_options,
    cmd_version};

}  // namespace odds::cli
