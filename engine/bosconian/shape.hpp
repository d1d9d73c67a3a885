// The shape of a Bosconian-D mission along its length (issue 32, section 3; README.md, "Where a
// mission is decided"): the exact probability of winning before each step of a sampled mission.
//
// The steps. Step 0 is the mission before its layout is rolled (B2): p_0 is the solver's P(win)
// (exact::bosconian::solve; for the random layout its resolved part, within 3.4e-7 of the whole
// for the seed's mission). Step k >= 1 is the mission before the k-th sector it enters (B1): p_k
// is P(win) from there, exact, given the bases still standing, the damage and the alert
// (MissionValues, the solver's backward pass for that layout). The last p is the outcome: 1 won,
// 0 lost. A fixed layout's p_0 and p_1 are the same number.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/bosconian/exact.hpp"

namespace odds::bosconian::shape {

class Tracer {
public:
    explicit Tracer(const Options& o);  // solves the mission once (throws UsageError as solve)
    // Mission i, on Dice(stream_seed(seed, i)) as the runner's playout i: its p_0 .. p_T.
    void trace(std::uint64_t seed, std::uint64_t i, std::vector<double>& p) const;
    double prior() const { return prior_; }

private:
    const Options& o_;
    exact::bosconian::MissionValues values_;
    double prior_ = 0;
};

}  // namespace odds::bosconian::shape
