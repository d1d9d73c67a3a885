#include "sim/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace odds {

bool ProgressBar::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::uint64_t total, bool enabled, std::string_view unit)
    : total_(total), enabled_(enabled), unit_(unit), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { finish(); }

const char* human_count(double v, char* buf, std::size_t n) {
    const char* unit = "";
    if (v >= 1e9) {
        v /= 1e9;
        unit = "G";
    } else if (v >= 1e6) {
        v /= 1e6;
        unit = "M";
    } else if (v >= 1e3) {
        v /= 1e3;
        unit = "k";
    }
    std::snprintf(buf, n, *unit ? "%.2f%s" : "%.0f%s", v, unit);
    return buf;
}

double weighted_work(std::span<const double> cost, std::span<const std::uint64_t> games,
                     std::size_t current, std::uint64_t done_in_current) {
    const bool weighted = !cost.empty() && cost.size() == games.size() &&
                          std::all_of(cost.begin(), cost.end(), [](double c) { return c > 0; });
    double total = 0, done = 0;
    for (std::size_t i = 0; i < games.size(); ++i) {
        const double w = weighted ? cost[i] : 1.0;
        const double g = static_cast<double>(games[i]);
        total += w * g;
        if (i < current) done += w * g;
        if (i == current) done += w * static_cast<double>(std::min(done_in_current, games[i]));
    }
    return total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0.0;
}

std::string progress_line(const ProgressView& v) {
    const double work = v.work >= 0
                            ? std::min(v.work, 1.0)
                            : (v.total > 0 ? static_cast<double>(std::min(v.done, v.total)) /
                                                 static_cast<double>(v.total)
                                           : 0.0);
    constexpr int kWidth = 30;
    std::string line = "[";
    const int filled = static_cast<int>(work * kWidth);
    for (int i = 0; i < kWidth; ++i) line += i < filled ? '#' : '.';
    char buf[160], d[32], t[32], r[32];
    std::snprintf(buf, sizeof buf, "] %5.1f%%  %s/%s %.*s  ", 100 * work,
                  human_count(static_cast<double>(v.done), d, sizeof d),
                  human_count(static_cast<double>(v.total), t, sizeof t),
                  static_cast<int>(v.unit.size()), v.unit.data());
    line += buf;
    const bool finished = v.total > 0 && v.done >= v.total;
    const bool known = v.done > 0 && work > 0 && v.seconds > 0 &&
                       (work >= kEstimateAfterWork || v.seconds >= kEstimateAfterSeconds);
    if (!known && !finished) return line + "estimating...";
    std::snprintf(
        buf, sizeof buf, "%s %.*s/s  ETA ",
        human_count(v.seconds > 0 ? static_cast<double>(v.done) / v.seconds : 0, r, sizeof r),
        static_cast<int>(v.unit.size()), v.unit.data());
    line += buf;
    const long left =
        finished ? 0 : std::lround(std::min(v.seconds * (1 - work) / work, 359999.0));  // < 100 h
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", left / 3600, left / 60 % 60, left % 60);
    return line + buf;
}

void ProgressBar::update(std::uint64_t done) { update(done, -1); }

void ProgressBar::update(std::uint64_t done, double work) {
    if (!enabled_ || total_ == 0) return;
    ProgressView v;
    v.done = done;
    v.total = total_;
    v.work = work;
    v.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    v.unit = unit_;
    std::fprintf(stderr, "\r%s \x1b[K", progress_line(v).c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void ProgressBar::restart() { start_ = std::chrono::steady_clock::now(); }

void ProgressBar::finish() {
    if (drawn_) {
        std::fprintf(stderr, "\r\x1b[K");
        std::fflush(stderr);
        drawn_ = false;
    }
}

}  // namespace odds
