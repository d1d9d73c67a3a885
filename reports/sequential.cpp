#include "reports/sequential.hpp"

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

namespace odds {

double SprtBounds::lower() const { return std::log(beta / (1 - alpha)); }
double SprtBounds::upper() const { return std::log((1 - beta) / alpha); }

double gsprt_llr(double m, double v, double mu0, double mu1) {
    const double num = (mu1 - mu0) * (2 * m - mu0 - mu1);
    if (v > 0) return num / (2 * v);
    if (num == 0) return 0;
    return num > 0 ? std::numeric_limits<double>::infinity()
                   : -std::numeric_limits<double>::infinity();
}

void OneSided::update(double m, double v) {
    if (state != SprtState::open) return;
    llr = gsprt_llr(m, v, mu0, mu1);
    if (llr >= bounds.upper())
        state = SprtState::h1;
    else if (llr <= bounds.lower())
        state = SprtState::h0;
}

void SequentialTest::update(double m, double v) {
    for (auto& s : sides) s.update(m, v);
}

SprtState SequentialTest::state() const {
    bool all_h0 = true;
    for (const auto& s : sides) {
        if (s.state == SprtState::h1) return SprtState::h1;
        all_h0 = all_h0 && s.state == SprtState::h0;
    }
    return all_h0 ? SprtState::h0 : SprtState::open;
}

const OneSided& SequentialTest::headline() const {
    const OneSided* best = &sides.front();
    for (const auto& s : sides)
        if (s.state == SprtState::h1) return s;
    for (const auto& s : sides)
        if (s.state == SprtState::open && (best->state != SprtState::open || s.llr > best->llr))
            best = &s;
    if (best->state == SprtState::open) return *best;
    for (const auto& s : sides)
        if (s.llr > best->llr) best = &s;
    return *best;
}

SequentialTest shift_sequential(double tolerance, double alpha, double beta) {
    const SprtBounds b{alpha / 2, beta};
    return {{OneSided{0, tolerance, b}, OneSided{0, -tolerance, b}}};
}

SequentialTest target_sequential(TargetKind kind, double a, double b, double margin, double alpha,
                                 double beta) {
    SequentialTest t;
    const double share = kind == TargetKind::within ? alpha / 2 : alpha;
    const SprtBounds bounds{share, beta};
    if (kind == TargetKind::at_least || kind == TargetKind::within)
        t.sides.push_back(OneSided{a + margin, a - margin, bounds});
    const double upper = kind == TargetKind::within ? b : a;
    if (kind == TargetKind::at_most || kind == TargetKind::within)
        t.sides.push_back(OneSided{upper - margin, upper + margin, bounds});
    return t;
}

namespace {

double variance_of_mean(const Moments& m, bool rate) {
    if (m.n <= 0) return 0;
    if (!rate) return m.var / m.n;
    const double p = (m.mean * m.n + 0.5) / (m.n + 1);
    return p * (1 - p) / m.n;
}

}  // namespace

ShiftEstimate shift_estimate(const Moments& old_m, const Moments& new_m, bool rate) {
    return {new_m.mean - old_m.mean, variance_of_mean(old_m, rate) + variance_of_mean(new_m, rate)};
}

ShiftEstimate mean_estimate(const Moments& m, bool rate) {
    return {m.mean, variance_of_mean(m, rate)};
}

double bonferroni(double alpha, std::size_t m) {
    return m == 0 ? alpha : alpha / static_cast<double>(m);
}

double detectable_shift(double se, double alpha, double beta) {
    const boost::math::normal z;
    return (boost::math::quantile(z, 1 - alpha / 2) + boost::math::quantile(z, 1 - beta)) * se;
}

double fixed_playouts_needed(double tolerance, double var_old, double n_old, double var_new,
                             double alpha, double beta) {
    const double z = detectable_shift(1.0, alpha, beta);
    const double room = (tolerance / z) * (tolerance / z) - (n_old > 0 ? var_old / n_old : 0.0);
    if (var_new <= 0) return 0;
    if (room <= 0) return std::numeric_limits<double>::infinity();
    return std::ceil(var_new / room);
}

}  // namespace odds
