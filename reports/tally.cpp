#include "reports/tally.hpp"

#include <stdexcept>

namespace odds {

Tally::Tally(std::span<const MetricSpec> metrics, SurvivalSpec survival) : survival_(survival) {
    offset_.push_back(0);
    for (const auto& m : metrics) {
        if (m.hi < m.lo) throw std::logic_error("metric " + m.name + " has an empty range");
        lo_.push_back(m.lo);
        offset_.push_back(offset_.back() + static_cast<std::size_t>(m.hi - m.lo + 1));
    }
    bins_.assign(offset_.back(), 0);
    if (survival_.time >= 0) {
        const auto& t = metrics[static_cast<std::size_t>(survival_.time)];
        events_.assign(static_cast<std::size_t>(t.hi - t.lo + 1), 0);
    }
}

void Tally::merge(const Tally& other) {
    if (other.bins_.size() != bins_.size() || other.events_.size() != events_.size())
        throw std::logic_error("merging tallies of different shapes");
    for (std::size_t i = 0; i < bins_.size(); ++i) bins_[i] += other.bins_[i];
    for (std::size_t i = 0; i < events_.size(); ++i) events_[i] += other.events_[i];
    playouts_ += other.playouts_;
}

}  // namespace odds
