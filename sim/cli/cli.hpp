// The odds command line, callable in-process (the tests drive it with string streams).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

namespace odds {

// Runs `odds ARGS...` (argv[0] is the program name) and returns the exit code.
int odds_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// The exit code once standard output is flushed: `rc`, or 1 with one line on stderr when what
// was printed could not all be written (a full disk, a closed pipe's end, /dev/full), so that a
// table lost on the way never exits 0 (issue 30).
int with_stdout_flushed(int rc);

}  // namespace odds
