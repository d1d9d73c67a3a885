// How a game declares what one playout reports: a fixed list of integer metrics, each with a
// name, a kind and a value range known before the run (so the runner can tally exact histograms
// without knowing any rule).
#pragma once

#include <cstdint>
#include <string>

namespace odds {

enum class MetricKind {
    rate,   // 0 or 1 per playout: reported as a proportion with a Wilson interval
    count,  // a whole number per playout: reported as a mean with a normal interval
};

struct MetricSpec {
    std::string name;
    std::string help;
    MetricKind kind = MetricKind::count;
    std::int32_t lo = 0;     // smallest value a playout can report
    std::int32_t hi = 0;     // largest value a playout can report
    std::int32_t scale = 1;  // the metric's value is the stored integer divided by this
};

// Which metrics make up the survival table: `time` is when a playout ended; it ended by the
// event (e.g. the ship was lost) when metric `event` equals `event_value`, and was censored
// otherwise (e.g. the mission was completed). event < 0: every playout ends by the event.
struct SurvivalSpec {
    int time = -1;  // metric index; -1: the game has no survival table
    int event = -1;
    std::int32_t event_value = 1;
    std::string time_name = "step";
    std::string subject;  // who survives, when a game has several tables ("lt", "squad"...)

    bool operator==(const SurvivalSpec&) const = default;
};

// The most metrics a game may declare: playouts write them into a fixed array.
inline constexpr int kMaxMetrics = 32;

}  // namespace odds
