#include "reports/tally.hpp"

#include <stdexcept>

namespace odds {

Tally::Tally(std::span<const MetricSpec> metrics, std::vector<SurvivalSpec> survivals) {
    for (auto& sv : survivals)
        if (sv.time >= 0) survivals_.push_back(std::move(sv));
    offset_.push_back(0);
    for (const auto& m : metrics) {
        if (m.hi < m.lo) throw std::logic_error("metric " + m.name + " has an empty range");
        lo_.push_back(m.lo);
        offset_.push_back(offset_.back() + static_cast<std::size_t>(m.hi - m.lo + 1));
    }
    bins_.assign(offset_.back(), 0);
    for (const auto& sv : survivals_) {
        const auto& t = metrics[sv.time];
        events_.emplace_back(static_cast<std::size_t>(t.hi - t.lo + 1), 0);
    }
}

void Tally::merge(const Tally& other) {
    if (other.bins_.size() != bins_.size() || other.events_.size() != events_.size())
        throw std::logic_error("merging tallies of different shapes");
    for (std::size_t i = 0; i < bins_.size(); ++i) bins_[i] += other.bins_[i];
    for (std::size_t k = 0; k < events_.size(); ++k)
        for (std::size_t i = 0; i < events_[k].size(); ++i) events_[k][i] += other.events_[k][i];
    playouts_ += other.playouts_;
}

bool Tally::add_count(std::size_t m, std::int32_t value, std::uint64_t count) noexcept {
    if (m >= lo_.size() || value < lo_[m]) return false;
    const auto i = static_cast<std::uint64_t>(std::int64_t{value} - lo_[m]);
    if (i >= offset_[m + 1] - offset_[m]) return false;
    bins_[offset_[m] + i] += count;
    return true;
}

bool Tally::add_event(std::size_t k, std::int32_t time, std::uint64_t count) noexcept {
    if (k >= events_.size()) return false;
    const std::int32_t lo = lo_[static_cast<std::size_t>(survivals_[k].time)];
    if (time < lo) return false;
    const auto i = static_cast<std::uint64_t>(std::int64_t{time} - lo);
    if (i >= events_[k].size()) return false;
    events_[k][i] += count;
    return true;
}

}  // namespace odds
