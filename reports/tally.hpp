// Tally: exact integer counts of what playouts reported, one histogram per metric plus the
// survival table's event times. A chunk of playouts fills one; chunks merge by adding counts,
// so a merged tally is exact whatever the number of threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/metric.hpp"

namespace odds {

class Tally {
public:
    Tally() = default;
    Tally(std::span<const MetricSpec> metrics, SurvivalSpec survival);

    // Records one playout: values[m] is metric m's value, inside its declared range.
    void add(const std::int32_t* values) noexcept {
        for (std::size_t m = 0; m < lo_.size(); ++m) ++bins_[offset_[m] + (values[m] - lo_[m])];
        if (survival_.time >= 0 &&
            (survival_.event < 0 || values[survival_.event] == survival_.event_value))
            ++events_[values[survival_.time] - lo_[survival_.time]];
        ++playouts_;
    }

    void merge(const Tally& other);

    std::uint64_t playouts() const noexcept { return playouts_; }
    std::size_t metric_count() const noexcept { return lo_.size(); }
    std::int32_t lo(std::size_t m) const noexcept { return lo_[m]; }
    // counts(m)[i]: playouts whose metric m was lo(m) + i.
    std::span<const std::uint64_t> counts(std::size_t m) const noexcept {
        return {bins_.data() + offset_[m], offset_[m + 1] - offset_[m]};
    }
    const SurvivalSpec& survival() const noexcept { return survival_; }
    // events()[i]: playouts that ended by the survival event at time lo(time) + i.
    std::span<const std::uint64_t> events() const noexcept { return events_; }

    bool operator==(const Tally&) const = default;

private:
    std::vector<std::int32_t> lo_;
    std::vector<std::size_t> offset_;  // metric m's bins are [offset_[m], offset_[m+1])
    std::vector<std::uint64_t> bins_;
    std::vector<std::uint64_t> events_;
    SurvivalSpec survival_{};
    std::uint64_t playouts_ = 0;
};

}  // namespace odds
