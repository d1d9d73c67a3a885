#include "reports/tally.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace odds {

Tally::Tally(std::span<const MetricSpec> metrics, std::vector<SurvivalSpec> survivals) {
    for (auto& sv : survivals)
        if (sv.time >= 0) survivals_.push_back(std::move(sv));
    for (const auto& m : metrics) {
        if (m.hi < m.lo) throw std::logic_error("metric " + m.name + " has an empty range");
        Histogram h;
        h.lo = m.lo;
        h.range = static_cast<std::size_t>(static_cast<std::int64_t>(m.hi) - m.lo + 1);
        h.bins.assign(std::min(h.range, kInitialBins), 0);
        hist_.push_back(std::move(h));
    }
    for (const auto& sv : survivals_)
        events_.emplace_back(hist_[static_cast<std::size_t>(sv.time)].bins.size(), 0);
}

void Tally::grow(std::size_t m, std::size_t size) {
    if (size > hist_[m].range)
        throw std::logic_error("a value past metric " + std::to_string(m) + "'s declared range");
    hist_[m].bins.resize(size, 0);
    for (std::size_t k = 0; k < survivals_.size(); ++k)
        if (static_cast<std::size_t>(survivals_[k].time) == m) events_[k].resize(size, 0);
}

void Tally::merge(const Tally& other) {
    if (other.hist_.size() != hist_.size() || other.events_.size() != events_.size())
        throw std::logic_error("merging tallies of different shapes");
    for (std::size_t m = 0; m < hist_.size(); ++m) {
        const auto& theirs = other.hist_[m].bins;
        if (hist_[m].lo != other.hist_[m].lo || hist_[m].range != other.hist_[m].range)
            throw std::logic_error("merging tallies of different shapes");
        if (theirs.size() > hist_[m].bins.size()) grow(m, theirs.size());
        auto& mine = hist_[m].bins;
        for (std::size_t i = 0; i < theirs.size(); ++i) mine[i] += theirs[i];
    }
    for (std::size_t k = 0; k < events_.size(); ++k)
        for (std::size_t i = 0; i < other.events_[k].size(); ++i)
            events_[k][i] += other.events_[k][i];
    playouts_ += other.playouts_;
}

bool Tally::add_count(std::size_t m, std::int32_t value, std::uint64_t count) {
    if (m >= hist_.size() || value < hist_[m].lo) return false;
    const auto i = static_cast<std::size_t>(std::int64_t{value} - hist_[m].lo);
    if (i >= hist_[m].range) return false;
    if (i >= hist_[m].bins.size()) grow(m, i + 1);
    hist_[m].bins[i] += count;
    return true;
}

bool Tally::add_event(std::size_t k, std::int32_t time, std::uint64_t count) {
    if (k >= events_.size()) return false;
    const auto m = static_cast<std::size_t>(survivals_[k].time);
    if (time < hist_[m].lo) return false;
    const auto i = static_cast<std::size_t>(std::int64_t{time} - hist_[m].lo);
    if (i >= hist_[m].range) return false;
    if (i >= events_[k].size()) grow(m, i + 1);
    events_[k][i] += count;
    return true;
}

namespace {
// a and b equal, the shorter read as padded with zeros.
bool same(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b) {
    if (a.size() > b.size()) std::swap(a, b);
    return std::equal(a.begin(), a.end(), b.begin()) &&
           std::all_of(b.begin() + static_cast<std::ptrdiff_t>(a.size()), b.end(),
                       [](std::uint64_t x) { return x == 0; });
}
}  // namespace

bool Tally::operator==(const Tally& other) const {
    if (playouts_ != other.playouts_ || hist_.size() != other.hist_.size() ||
        events_.size() != other.events_.size() || !(survivals_ == other.survivals_))
        return false;
    for (std::size_t m = 0; m < hist_.size(); ++m)
        if (hist_[m].lo != other.hist_[m].lo || !same(hist_[m].bins, other.hist_[m].bins))
            return false;
    for (std::size_t k = 0; k < events_.size(); ++k)
        if (!same(events_[k], other.events_[k])) return false;
    return true;
}

}  // namespace odds
