// A stop request (Ctrl-C or SIGTERM) as the loops inside one playout or one exact solution see
// it. The command line's signal handler sets it (sim/interrupt.cpp); the runner reads it between
// chunks (sim/runner.hpp); the loops that can run long inside a single playout or solution read
// it every so often and throw StopRequested: search (policies/mcts.hpp, every kStopCheckEvery
// iterations), flat Monte Carlo policies (once every few simulated games), the exact solvers
// (once a sector, a turn or a row of states) and long playouts (every kStopCheckPlay decisions).
// The runner catches it and drops the unfinished chunk, so a stopped run keeps whole chunks only;
// `odds exact` writes nothing (docs/commands.md). It lives in the kernel's room so that policies
// and solvers read it without including sim/. A playout reads it once (the runner, before each)
// and, where a rule option can make it long, once every kStopCheckPlay decisions or turns: never
// per die.
#pragma once

#include <atomic>
#include <exception>

namespace odds {

inline std::atomic<bool> g_stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free);  // set from a signal handler

// Thrown where a long loop sees the stop request: the work in hand is abandoned, not counted.
struct StopRequested : std::exception {
    const char* what() const noexcept override { return "interrupted"; }
};

// How many search iterations (or simulated games) between two looks at the flag.
inline constexpr int kStopCheckEvery = 16;
// How many decisions, or turns, of one playout between two looks at the flag, where a rule
// option can make a playout long (a duel to a cap of a million turns, a campaign of long
// combats): engine/decision.hpp's play_from, Dimension Duel's turns, Naval Duel's steps.
inline constexpr unsigned kStopCheckPlay = 256;

inline bool stop_requested() noexcept { return g_stop_requested.load(std::memory_order_relaxed); }

inline void throw_if_stop_requested() {
    if (stop_requested()) [[unlikely]]
        throw StopRequested{};
}

// For the k-th step of a loop: looks at the flag every kStopCheckEvery steps (the first
// included).
inline void throw_if_stop_requested(int step) {
    if (step % kStopCheckEvery == 0) throw_if_stop_requested();
}

}  // namespace odds
