// Ctrl-C (SIGINT) and SIGTERM as a stop request: the first one sets the flag of engine/stop.hpp,
// which the runner reads at chunk boundaries and search policies and exact solvers read inside
// their loops; a second one ends the process at once (the default action).
#pragma once

#include <atomic>

namespace odds {

class InterruptGuard {
public:
    InterruptGuard();   // installs the handlers
    ~InterruptGuard();  // restores the previous ones
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    static const std::atomic<bool>& flag();
    // The signal that set the flag (SIGINT or SIGTERM); 0 when none did.
    static int signal();
    // The exit code of a command stopped by signal(): 128 + its number (130 for SIGINT, 143 for
    // SIGTERM); 130 when the flag was set otherwise.
    static int exit_code();
    static void reset();

private:
    using Handler = void (*)(int);
    Handler old_int_, old_term_;  // what this guard replaced (a nested guard: the outer's)
};

}  // namespace odds
