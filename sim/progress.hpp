// A progress bar on stderr (only when stderr is a terminal): the share of the work done, the
// games (or playouts) played, their rate, and the time left. The line itself is made by
// progress_line, a pure function of what is known (tested without a clock).
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace odds {

// The rate and the time left are "estimating..." until something is done and either this share
// of the work is done or this many seconds have passed: before that, one chunk more or less
// would swing them wildly.
inline constexpr double kEstimateAfterWork = 0.03;
inline constexpr double kEstimateAfterSeconds = 1.0;

// What the bar knows at one moment.
struct ProgressView {
    std::uint64_t done = 0;   // games (or playouts) played
    std::uint64_t total = 0;  // games (or playouts) to play
    // The share of the work done, 0..1, with items weighted by their cost (a rollout pairing
    // costs far more a game than a rule-of-thumb one); negative: done / total.
    double work = -1;
    double seconds = 0;  // since the work started
    std::string_view unit = "playouts";
};

// "[#########.....................]  30.0%  3.00k/10.0k games  1.50k games/s  ETA 0:00:05":
// the bar and the percentage are the work done, the count and the rate are in `unit`s, and the
// time left is the time so far times the work left over the work done.
std::string progress_line(const ProgressView& v);

// The share of the work done when item i costs cost[i] a game and plays games[i] games: the
// items before `current` are done, and `done_in_current` games of item `current`. Without costs
// (cost empty, or not all positive) every game counts alike.
double weighted_work(std::span<const double> cost, std::span<const std::uint64_t> games,
                     std::size_t current, std::uint64_t done_in_current);

class ProgressBar {
public:
    ProgressBar(std::uint64_t total, bool enabled, std::string_view unit = "playouts");
    ~ProgressBar();
    void update(std::uint64_t done);               // every game alike
    void update(std::uint64_t done, double work);  // work: the weighted share done (0..1)
    void restart();  // the clock starts again (after a calibration that is not the work)
    void finish();   // clears the line

    // True when stderr is a terminal.
    static bool stderr_is_terminal();

private:
    std::uint64_t total_;
    bool enabled_;
    std::string unit_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_;
};

// 1234567 -> "1.23M"
const char* human_count(double v, char* buf, std::size_t n);

}  // namespace odds
