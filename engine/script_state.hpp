// A scripted game's state written down as bytes and read back (engine/script.hpp, odds exact on
// a script): two states are the same state when they hold the same values, whatever order their
// keys were set in, so the bytes are the state's name in the solver's tables.
#pragma once

#include <lua.hpp>

#include <string>
#include <string_view>

namespace odds::script {

// The most a state's bytes may take, and how deep its tables may nest.
inline constexpr std::size_t kMaxStateBytes = 64 * 1024;
inline constexpr int kMaxStateDepth = 16;

// The table at `index` as bytes, its keys in order: numbers, booleans, strings and tables of
// them. Anything else (a function, a userdata), a table nested deeper than kMaxStateDepth, a NaN
// or more than kMaxStateBytes throws std::runtime_error saying which key holds it.
std::string write_state(lua_State* L, int index);
// The table write_state wrote, pushed.
void read_state(lua_State* L, std::string_view bytes);

}  // namespace odds::script
