#include "sim/interrupt.hpp"

#include <csignal>

#include "engine/stop.hpp"

namespace odds {

namespace {
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_signal(int sig) {
    int none = 0;
    g_signal.compare_exchange_strong(none, sig, std::memory_order_relaxed);
    g_stop_requested.store(true, std::memory_order_relaxed);
    std::signal(sig, SIG_DFL);  // a second signal ends the process
}
}  // namespace

InterruptGuard::InterruptGuard()
    : old_int_(std::signal(SIGINT, on_signal)), old_term_(std::signal(SIGTERM, on_signal)) {}

InterruptGuard::~InterruptGuard() {
    // A nested guard hands back to the outer one, unless a signal came: then the default action
    // stays, so that a second signal still ends the process at once.
    const bool stopped = g_stop_requested.load(std::memory_order_relaxed);
    if (!(stopped && old_int_ == on_signal)) std::signal(SIGINT, old_int_);
    if (!(stopped && old_term_ == on_signal)) std::signal(SIGTERM, old_term_);
}

const std::atomic<bool>& InterruptGuard::flag() { return g_stop_requested; }
int InterruptGuard::signal() { return g_signal.load(std::memory_order_relaxed); }
int InterruptGuard::exit_code() {
    const int sig = signal();
    return sig > 0 ? 128 + sig : 130;
}
void InterruptGuard::reset() {
    g_stop_requested.store(false);
    g_signal.store(0);
}

}  // namespace odds
