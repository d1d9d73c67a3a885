// Ctrl-C (SIGINT) and SIGTERM as a stop request: the first one sets a flag the runner reads at
// chunk boundaries; a second one ends the process at once (the default action).
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
    static void reset();
};

}  // namespace odds
