#include "sim/interrupt.hpp"

#include <csignal>

namespace odds {

namespace {
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_signal(int sig) {
    g_stop.store(true, std::memory_order_relaxed);
    std::signal(sig, SIG_DFL);  // a second signal ends the process
}

using Handler = void (*)(int);
Handler g_old_int = SIG_DFL;
Handler g_old_term = SIG_DFL;
}  // namespace

InterruptGuard::InterruptGuard() {
    g_old_int = std::signal(SIGINT, on_signal);
    g_old_term = std::signal(SIGTERM, on_signal);
}

InterruptGuard::~InterruptGuard() {
    std::signal(SIGINT, g_old_int);
    std::signal(SIGTERM, g_old_term);
}

const std::atomic<bool>& InterruptGuard::flag() { return g_stop; }
void InterruptGuard::reset() { g_stop.store(false); }

}  // namespace odds
