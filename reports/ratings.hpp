// Bradley-Terry ratings from a round robin: P(i beats j) = 1 / (1 + exp(r_j - r_i)), a draw
// counting half a win for each side. Fitted by Newton's method with Eigen; intervals from the
// inverse of the observed information. Half a win is added each way to every pair played (a
// weak prior), so a policy that wins every game still gets a finite rating.
#pragma once

#include <vector>

#include "reports/stats.hpp"

namespace odds {

struct Rating {
    double rating = 0;  // Elo scale: 400 / ln 10 per unit of log-strength; the mean rating is 0
    Interval ci;        // 95%
    double games = 0;
    double score = 0;  // points scored (a win 1, a draw 1/2), before the prior
};

// games[i][j]: games between i and j (either seat); points[i][j]: the points i scored in them.
std::vector<Rating> bradley_terry(const std::vector<std::vector<double>>& games,
                                  const std::vector<std::vector<double>>& points);

}  // namespace odds
