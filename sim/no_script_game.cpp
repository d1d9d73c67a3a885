// The registry's script seam in a build without game scripts (-DODDS_SCRIPTS=OFF: no LuaJIT,
// which has no WebAssembly build; issue 44): no scripted game is listed, and a script named
// where a game goes is one line saying so.
#include <string>

#include "engine/rule_options.hpp"
#include "sim/script_game.hpp"

namespace odds {

const GameEntry& script_game(std::string_view path) {
    throw UsageError(std::string(path) +
                     ": this build of odds plays no game scripts (built with -DODDS_SCRIPTS=OFF)");
}

std::span<const GameEntry* const> scripted_games() { return {}; }

}  // namespace odds
