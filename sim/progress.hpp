// A progress bar on stderr (only when stderr is a terminal): done, rate and ETA.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace odds {

class ProgressBar {
public:
    ProgressBar(std::uint64_t total, bool enabled);
    ~ProgressBar();
    void update(std::uint64_t done);
    void finish();  // clears the line

    // True when stderr is a terminal.
    static bool stderr_is_terminal();

private:
    std::uint64_t total_;
    bool enabled_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point start_;
};

// 1234567 -> "1.23M"
const char* human_count(double v, char* buf, std::size_t n);

}  // namespace odds
