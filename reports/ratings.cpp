#include "reports/ratings.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace odds {

std::vector<Rating> bradley_terry(const std::vector<std::vector<double>>& games,
                                  const std::vector<std::vector<double>>& points) {
    const int k = static_cast<int>(games.size());
    std::vector<Rating> out(static_cast<std::size_t>(k));
    if (k == 0) return out;
    constexpr double kPrior = 0.5;  // half a win each way for every pair that played
    Eigen::MatrixXd n = Eigen::MatrixXd::Zero(k, k), w = Eigen::MatrixXd::Zero(k, k);
    for (int i = 0; i < k; ++i)
        for (int j = 0; j < k; ++j) {
            const double g = games[i][j];
            if (i == j || g <= 0) continue;
            n(i, j) = g + 2 * kPrior;
            w(i, j) = points[i][j] + kPrior;
            out[i].games += g;
            out[i].score += points[i][j];
        }
    // Newton's method on r_1..r_{k-1}, with r_0 = 0.
    Eigen::VectorXd r = Eigen::VectorXd::Zero(k);
    Eigen::MatrixXd info(k, k);
    for (int iter = 0; iter < 100; ++iter) {
        Eigen::VectorXd grad = Eigen::VectorXd::Zero(k);
        info.setZero();
        for (int i = 0; i < k; ++i)
            for (int j = 0; j < k; ++j) {
                if (n(i, j) == 0) continue;
                const double p = 1 / (1 + std::exp(r(j) - r(i)));
                grad(i) += w(i, j) - n(i, j) * p;
                const double v = n(i, j) * p * (1 - p);
                info(i, i) += v;
                info(i, j) -= v;
            }
        if (k == 1) break;
        const Eigen::VectorXd step =
            info.bottomRightCorner(k - 1, k - 1).ldlt().solve(grad.tail(k - 1));
        r.tail(k - 1) += step;
        if (step.cwiseAbs().maxCoeff() < 1e-12) break;
    }
    // Covariance of the centred ratings: with r_0 fixed, invert the reduced information, embed it,
    // and centre (T = I - 11'/k).
    Eigen::MatrixXd cov = Eigen::MatrixXd::Zero(k, k);
    if (k > 1) cov.bottomRightCorner(k - 1, k - 1) = info.bottomRightCorner(k - 1, k - 1).inverse();
    const Eigen::MatrixXd t =
        Eigen::MatrixXd::Identity(k, k) - Eigen::MatrixXd::Constant(k, k, 1.0 / k);
    const Eigen::MatrixXd c = t * cov * t.transpose();
    const double mean = r.mean();
    const double elo = 400 / std::log(10.0);
    for (int i = 0; i < k; ++i) {
        auto& o = out[i];
        o.rating = elo * (r(i) - mean);
        const double half = kZ95 * elo * std::sqrt(std::max(0.0, c(i, i)));
        o.ci = {o.rating - half, o.rating + half};
    }
    return out;
}

}  // namespace odds
