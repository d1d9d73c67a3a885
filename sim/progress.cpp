#include "sim/progress.hpp"

#include <unistd.h>

#include <cmath>

namespace odds {

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::uint64_t total, bool enabled)
    : total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

const char* human_count(double v, char* buf, std::size_t n) {
    const char* unit = "";
    if (v >= 1e9) { v /= 1e9; unit = "G"; }
    else if (v >= 1e6) { v /= 1e6; unit = "M"; }
    else if (v >= 1e3) { v /= 1e3; unit = "k"; }
    std::snprintf(buf, n, *unit ? "%.2f%s" : "%.0f%s", v, unit);
    return buf;
}

void ProgressBar::update(std::uint64_t done) {
    if (!enabled_ || total_ == 0) return;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double frac = static_cast<double>(done) / static_cast<double>(total_);
    constexpr int kWidth = 30;
    char bar[kWidth + 1];
    const int filled = static_cast<int>(frac * kWidth);
    for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '#' : '.';
    bar[kWidth] = 0;
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    char d[32], t[32], r[32], eta[32] = "--:--";
    if (rate > 0 && done < total_) {
        const auto left = static_cast<long>(std::lround(static_cast<double>(total_ - done) / rate));
        std::snprintf(eta, sizeof eta, "%ld:%02ld:%02ld", left / 3600, left / 60 % 60, left % 60);
    }
    std::fprintf(stderr, "\r[%s] %5.1f%%  %s/%s playouts  %s/s  ETA %s \x1b[K", bar, 100 * frac,
                 human_count(static_cast<double>(done), d, sizeof d),
                 human_count(static_cast<double>(total_), t, sizeof t),
                 human_count(rate, r, sizeof r), eta);
    std::fflush(stderr);
    drawn_ = true;
}

void ProgressBar::finish() {
    if (drawn_) {
        std::fprintf(stderr, "\r\x1b[K");
        std::fflush(stderr);
        drawn_ = false;
    }
}

}  // namespace odds
