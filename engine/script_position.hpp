// A scripted game's state as a position (docs/positions.md): the text `odds state` prints and
// `--state FILE` reads, written from the state's bytes (engine/script_state.hpp) and read back
// into them, so a position plays as the state it was written from.
//
// One line a value, `PATH VALUE`, in the state's key order: PATH the keys from the state down,
// joined by dots (a name, or a whole number for a list's place: `used.1.bluff`); VALUE a
// number, `true` or `false`, a string in double quotes (one word: no blank, quote or #), or
// `{}` for an empty table. `#` starts a comment.
#pragma once

#include <string>
#include <string_view>

namespace odds::script {

// The state's bytes as a position. Throws UsageError, naming the game's file `path`, for a key
// that is neither a name nor a whole number or a string that is not one word.
std::string position_text(std::string_view bytes, const std::string& path);
// The bytes of the state the position `text`, read from `file`, writes down. Throws
// UsageError "FILE:LINE: what" for a malformed line.
std::string position_bytes(std::string_view text, std::string_view file);

}  // namespace odds::script
