// odds state: a game's opening position, to edit and play from (docs/positions.md).
#include <string>

#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/cli/report.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

int cmd_state(const Args& opt, Io io) {
    if (!opt.game) throw UsageError("which game? give one of: " + game_names(has_positions));
    const GameEntry& game = game_of(opt);
    if (!game.opening_position)
        throw UsageError(
            "game '" + std::string(game.name) +
            "' has no positions yet (games with positions: " + game_names(has_positions) + ")");
    const Settings settings = settings_of(opt);
    (void)game.prepare(settings, {});  // checks the options
    io.out << game.opening_position(settings);
    return 0;
}

namespace {
void state_options(po::options_description& d) {
    add_rules_option(d);
    add_set_option(d);
}
}  // namespace

const CommandSpec state_spec = {
    "state",
    "the opening position of a game, as text to edit and give to --state",
    "odds state GAME [--set NAME=VALUE ...]",
    "Prints the opening position of GAME under the rule options given, in the game's position "
    "format (docs/positions.md; each game's RULES.md, 'Positions'): one record a line, '#' "
    "comments. Edit it to the position at your table and give it to 'odds run GAME --state "
    "FILE' (or 'odds exact GAME --state FILE' where the solver can start from a position) for "
    "the odds from there on; run with the unedited file, they are the odds of a fresh game, "
    "playout for playout. A game without positions is refused, naming the games that have "
    "them.",
    {"odds state dimension-duel > duel.txt",
     "odds run dimension-duel --state duel.txt --policy tau=survivor"},
    "game",
    1,
    state_options,
    cmd_state};

}  // namespace odds::cli
