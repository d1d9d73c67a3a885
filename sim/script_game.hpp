// A game written as a Lua script (engine/script.hpp, docs/scripting.md) in the registry:
// named by its path wherever a game is named (odds run path/to/game.lua), loaded and checked
// once, then played by every command that prepares a run, as a kernel's entry is.
// sim/script_game.cpp; in a build without scripts (-DODDS_SCRIPTS=OFF: no LuaJIT, as the web
// build), sim/no_script_game.cpp.
#pragma once

#include <string_view>

#include "sim/registry.hpp"

namespace odds {

// Whether `name` names a script (it ends in .lua) rather than a registered game.
inline bool is_script_name(std::string_view name) {
    return name.size() > 4 && name.substr(name.size() - 4) == ".lua";
}

// The registry entry of the script at `path`, loaded on first use and kept for the process;
// throws UsageError "FILE:LINE: message" for a script that cannot be read or is malformed.
const GameEntry& script_game(std::string_view path);

// The games kept as scripts in the engine, engine/NAME/NAME.lua, whose declared name no kernel
// has (a kernel's rules written again as a script is not one):
// built into the program when it was compiled, each named by its declared name and
// listed after the kernels by odds list and odds version.
std::span<const GameEntry* const> scripted_games();

}  // namespace odds
