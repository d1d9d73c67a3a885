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
    Tally(std::span<const MetricSpec> metrics, std::vector<SurvivalSpec> survivals);
    Tally(std::span<const MetricSpec> metrics, SurvivalSpec survival)
        : Tally(metrics, std::vector<SurvivalSpec>{survival}) {}

    // Records one playout: values[m] is metric m's value, inside its declared range.
    void add(const std::int32_t* values) noexcept {
        for (std::size_t m = 0; m < lo_.size(); ++m) ++bins_[offset_[m] + (values[m] - lo_[m])];
        for (std::size_t k = 0; k < survivals_.size(); ++k) {
            const SurvivalSpec& sv = survivals_[k];
            if (sv.event < 0 || values[sv.event] == sv.event_value)
                ++events_[k][values[sv.time] - lo_[sv.time]];
        }
        ++playouts_;
    }

    void merge(const Tally& other);

    // Adding counts by value, as a shard file holds them (sim/shard.cpp): `count` playouts whose
    // metric m was `value`, or whose survival table k ended by its event at time `value`; false
    // (nothing added) when the value is outside the range. add_playouts counts the playouts.
    bool add_count(std::size_t m, std::int32_t value, std::uint64_t count) noexcept;
    bool add_event(std::size_t k, std::int32_t time, std::uint64_t count) noexcept;
    void add_playouts(std::uint64_t n) noexcept { playouts_ += n; }

    std::uint64_t playouts() const noexcept { return playouts_; }
    std::size_t metric_count() const noexcept { return lo_.size(); }
    std::int32_t lo(std::size_t m) const noexcept { return lo_[m]; }
    // counts(m)[i]: playouts whose metric m was lo(m) + i.
    std::span<const std::uint64_t> counts(std::size_t m) const noexcept {
        return {bins_.data() + offset_[m], offset_[m + 1] - offset_[m]};
    }
    // The survival tables (none, one, or one per subject).
    const std::vector<SurvivalSpec>& survivals() const noexcept { return survivals_; }
    // events(k)[i]: playouts whose table k ended by its event at time lo(time) + i.
    std::span<const std::uint64_t> events(std::size_t k = 0) const noexcept { return events_[k]; }

    bool operator==(const Tally&) const = default;

private:
    std::vector<std::int32_t> lo_;
    std::vector<std::size_t> offset_;  // metric m's bins are [offset_[m], offset_[m+1])
    std::vector<std::uint64_t> bins_;
    std::vector<std::vector<std::uint64_t>> events_;
    std::vector<SurvivalSpec> survivals_;
    std::uint64_t playouts_ = 0;
};

}  // namespace odds
