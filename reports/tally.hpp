// Tally: exact integer counts of what playouts reported, one histogram per metric plus the
// survival table's event times. A chunk of playouts fills one; chunks merge by adding counts,
// so a merged tally is exact whatever the number of threads.
//
// A metric's histogram is a dense window of counts from the metric's declared lowest value up
// to the highest value seen (at least the first kInitialBins values of its range, 1,024, held from
// the start so that an ordinary metric's add never allocates). Its memory and the cost of a merge
// follow the values playouts report, not the declared range: a metric declared 0..1,000,000
// whose playouts stay below 200 holds 1,024 counts (8 KiB). The runner holds a few tallies a
// thread (sim/runner.hpp), so this size is what bounds a run's memory (docs/commands.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/metric.hpp"

namespace odds {

class Tally {
public:
    // Values of a metric's range counted from the start; larger ones when first seen.
    static constexpr std::size_t kInitialBins = 1024;

    Tally() = default;
    Tally(std::span<const MetricSpec> metrics, std::vector<SurvivalSpec> survivals);
    Tally(std::span<const MetricSpec> metrics, SurvivalSpec survival)
        : Tally(metrics, std::vector<SurvivalSpec>{survival}) {}

    // Records one playout: values[m] is metric m's value, inside its declared range.
    void add(const std::int32_t* values) {
        for (std::size_t m = 0; m < hist_.size(); ++m) {
            const auto i = static_cast<std::size_t>(values[m] - hist_[m].lo);
            if (i >= hist_[m].bins.size()) grow(m, i + 1);
            ++hist_[m].bins[i];
        }
        for (std::size_t k = 0; k < survivals_.size(); ++k) {
            const SurvivalSpec& sv = survivals_[k];
            if (sv.event < 0 || values[sv.event] == sv.event_value)
                ++events_[k][static_cast<std::size_t>(values[sv.time] - hist_[sv.time].lo)];
        }
        ++playouts_;
    }

    void merge(const Tally& other);

    std::uint64_t playouts() const noexcept { return playouts_; }
    std::size_t metric_count() const noexcept { return hist_.size(); }
    std::int32_t lo(std::size_t m) const noexcept { return hist_[m].lo; }
    // counts(m)[i]: playouts whose metric m was lo(m) + i; values past its end were not seen.
    std::span<const std::uint64_t> counts(std::size_t m) const noexcept { return hist_[m].bins; }
    // The survival tables (none, one, or one per subject).
    const std::vector<SurvivalSpec>& survivals() const noexcept { return survivals_; }
    // events(k)[i]: playouts whose table k ended by its event at time lo(time) + i (as long as
    // counts(time)).
    std::span<const std::uint64_t> events(std::size_t k = 0) const noexcept { return events_[k]; }

    // The exact state, value by value (shard files): f(value, count) for every value of metric
    // m, or of survival table k's events, seen at least once, in increasing order.
    template <class F>
    void for_each_count(std::size_t m, F&& f) const {
        const auto& h = hist_[m];
        for (std::size_t i = 0; i < h.bins.size(); ++i)
            if (h.bins[i]) f(h.lo + static_cast<std::int32_t>(i), h.bins[i]);
    }
    template <class F>
    void for_each_event(std::size_t k, F&& f) const {
        const std::int32_t lo = hist_[survivals_[k].time].lo;
        for (std::size_t i = 0; i < events_[k].size(); ++i)
            if (events_[k][i]) f(lo + static_cast<std::int32_t>(i), events_[k][i]);
    }
    // Adds `count` playouts' worth of counts at `value` of metric m, or of events at time `value`
    // of survival table k, as a shard file holds them (sim/shard.cpp); false (nothing added) when
    // the value is outside the declared range. add_playouts counts the playouts themselves. A
    // tally rebuilt from for_each_count, for_each_event and playouts() equals the original.
    bool add_count(std::size_t m, std::int32_t value, std::uint64_t count);
    bool add_event(std::size_t k, std::int32_t time, std::uint64_t count);
    void add_playouts(std::uint64_t n) noexcept { playouts_ += n; }

    // Equal counts of every value (however much of the range each holds).
    bool operator==(const Tally& other) const;

private:
    struct Histogram {
        std::int32_t lo = 0;
        std::size_t range = 0;            // values lo .. lo + range - 1 are allowed
        std::vector<std::uint64_t> bins;  // counts of lo .. lo + bins.size() - 1
    };
    void grow(std::size_t m, std::size_t size);  // metric m's window (and its events') to size

    std::vector<Histogram> hist_;
    std::vector<std::vector<std::uint64_t>> events_;  // table k: as long as its time metric's
    std::vector<SurvivalSpec> survivals_;
    std::uint64_t playouts_ = 0;
};

}  // namespace odds
