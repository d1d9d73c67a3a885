// How a game declares what one playout reports: a fixed list of integer metrics, each with a
// name, a kind and a value range known before the run (so the runner can tally exact histograms
// without knowing any rule).
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

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
    // What one of a count is, plural ("hull points", "sectors", "turns"): axes and tables say
    // "damage, hull points per playout". Empty for a rate (a share of playouts).
    std::string unit{};
};

// A count's kind in a row of declare_metrics, with its unit: counts("hull points").
struct CountUnit {
    const char* unit;
};
constexpr CountUnit counts(const char* unit) noexcept { return {unit}; }

// Which metrics make up the survival table: `time` is when a playout ended; it ended by the
// event (e.g. the ship was lost) when metric `event` equals `event_value`, and was censored
// otherwise (e.g. the mission was completed). event < 0: every playout ends by the event.
struct SurvivalSpec {
    int time = -1;  // metric index; -1: the game has no survival table
    int event = -1;
    std::int32_t event_value = 1;
    std::string time_name = "step";
    std::string subject;  // who survives, when a game has several tables ("lt", "squad"...)
    // The event in the game's words, as a clause: "the ship is lost" (survival.csv's event
    // column; the report's chart asks "how many STEPS until EVENT?").
    std::string event_words = "the playout ends";

    bool operator==(const SurvivalSpec&) const = default;
};

// The most metrics a game may declare: playouts write them into a fixed array.
inline constexpr int kMaxMetrics = 32;

// A game's metrics declared once (issue 41): one function template of the kernel,
//
//   template <class M> constexpr void declare_metrics(M& m) {
//       m(kWin, "win", "the goal reached within max_turns (R3)", MetricKind::rate, 0, 1,
//         [](const State& s) { return s.won; });
//       m(kTurns, "turns", "turns played (R3)", counts("turns"), 0, max_turns,
//         [](const State& s) { return s.turn; });
//   }
//
// a row a metric, in the order of the game's enum of indices: the index, the name and help
// (text, or a function making it, for rows made in a loop), the kind (MetricKind::rate, or
// counts(UNIT) for a count, which must say what it counts), the bounds (a number, or a
// function of the Options), how the value is taken from what a playout ends with, and the scale
// (optional). Three readers go over the same rows: MetricSpecs (metric_specs(o)), MetricValues
// (to_metrics: inlined, only the values' functions run, so a playout's conversion costs what
// the hand-written one did) and metrics_in_order (a static_assert that each row's index is its
// place, the enum's count the rows', and every count has its unit).
namespace metric_rows {

template <class T>
std::string text(const T& t) {
    if constexpr (std::is_invocable_v<const T&>)
        return std::string(t());
    else
        return std::string(t);
}
template <class T, class O>
std::int32_t bound(const T& b, const O& o) {
    if constexpr (std::is_invocable_v<const T&, const O&>)
        return static_cast<std::int32_t>(b(o));
    else
        return static_cast<std::int32_t>(b);
}

// A row's kind as MetricKind, and its unit ("" for a rate).
constexpr MetricKind kind(MetricKind k) noexcept { return k; }
constexpr MetricKind kind(CountUnit) noexcept { return MetricKind::count; }
inline std::string unit(MetricKind) { return {}; }
inline std::string unit(CountUnit c) { return c.unit; }

}  // namespace metric_rows

// The rows as MetricSpecs under options `o`.
template <class O>
struct MetricSpecs {
    const O& o;
    std::vector<MetricSpec> specs;
    template <class Name, class Help, class Kind, class Lo, class Hi, class Value>
    void operator()(int, const Name& name, const Help& help, Kind kind, const Lo& lo, const Hi& hi,
                    const Value&, std::int32_t scale = 1) {
        specs.push_back({metric_rows::text(name), metric_rows::text(help), metric_rows::kind(kind),
                         metric_rows::bound(lo, o), metric_rows::bound(hi, o), scale,
                         metric_rows::unit(kind)});
    }
};

// The rows' values from `r`, what a playout ends with, into out[index].
template <class R>
struct MetricValues {
    const R& r;
    std::int32_t* out;
    template <class Name, class Help, class Kind, class Lo, class Hi, class Value>
    constexpr void operator()(int index, const Name&, const Help&, Kind, const Lo&, const Hi&,
                              const Value& value, std::int32_t = 1) const noexcept {
        out[index] = static_cast<std::int32_t>(value(r));
    }
};

// Whether each row's index is its place, every count says its unit, and there are `count` rows
// (the enum's kMetricCount).
struct MetricOrder {
    int rows = 0;
    bool in_order = true;
    template <class Name, class Help, class Kind, class Lo, class Hi, class Value>
    constexpr void operator()(int index, const Name&, const Help&, Kind k, const Lo&, const Hi&,
                              const Value&, std::int32_t = 1) {
        // A count is declared counts(UNIT): MetricKind::count alone would leave its unit unsaid.
        const bool unit_said =
            std::is_same_v<Kind, CountUnit> || metric_rows::kind(k) == MetricKind::rate;
        in_order = in_order && index == rows && unit_said;
        ++rows;
    }
};
template <int count, class Declare>
constexpr bool metrics_in_order(const Declare& declare) {
    MetricOrder m;
    declare(m);
    return m.in_order && m.rows == count && count <= kMaxMetrics;
}

}  // namespace odds
