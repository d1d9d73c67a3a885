// odds rules: a game's rule options as a variant file (sim/rules_file.hpp, docs/variants.md).
#include <string>

#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/registry.hpp"
#include "sim/rules_file.hpp"

namespace odds::cli {

int cmd_rules(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    const Settings settings = settings_of(opt);
    (void)game.prepare(settings, {});  // every value checked, as a run would
    io.out << rules_file_text(game, settings);
    return 0;
}

namespace {
void rules_options(po::options_description& d) {
    add_rules_option(d);
    add_set_option(d, "a rule option NAME=VALUE, written into the file; repeatable");
}
}  // namespace

const CommandSpec rules_spec = {
    "rules",
    "the rule options of a game as a variant file to edit and give to --rules",
    "odds rules GAME [--rules FILE] [--set NAME=VALUE ...]",
    "Prints every rule option of GAME as a commented TOML variant file (docs/variants.md): each "
    "option with its value, what it means and the ruling it implements, grouped by the rule "
    "book's tables. Edit the values and give the file to any command that takes --set with "
    "--rules FILE; --set applies on top of it. With --set (or --rules), the file holds those "
    "values, checked first. Printed unedited and given back, it plays exactly the rule book.",
    {"odds rules bosconian > mine.toml", "odds run bosconian --rules mine.toml --set hull=120"},
    "game",
    1,
    rules_options,
    cmd_rules};

}  // namespace odds::cli
