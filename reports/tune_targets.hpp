// odds tune's targets (docs/commands.md, "odds tune"): what a designer wishes of a metric, and the
// one number the search minimises, the weighted distance of the metrics from the wishes.
//
//   METRIC=VALUE          the mean at VALUE: distance |mean - VALUE|
//   METRIC within LO..HI  the mean in [LO, HI] (LO.. or ..HI: one side open): distance from the
//                         mean to the nearest end, 0 inside
//   METRIC max, METRIC min the mean as high (low) as it goes: distance -mean (mean), so that a
//                         rise of the metric by 1 weighs as a miss of a value target by 1
//   ...@W                 any of these weighted by W > 0 (default 1): `win=0.25@10`
//
// The combined distance of a setting is the sum over the targets of W times the distance, each in
// its metric's own units (a rate's miss of 0.01 weighs as a count's miss of 0.01: weight a rate
// up, or a count down, to say what matters). Free of the CLI: reports/html_report.cpp reads the
// targets back from tune.csv.
#pragma once

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace odds::tune {

struct Target {
    enum class Kind { value, within, max, min };
    std::string text;    // as given: "win=0.25", "sectors_entered within 12..", "win max@2"
    std::string metric;  // "win"
    Kind kind = Kind::value;
    double value = 0;                                      // Kind::value
    double lo = -std::numeric_limits<double>::infinity();  // Kind::within
    double hi = std::numeric_limits<double>::infinity();
    double weight = 1;
    bool weighted = false;  // @W given

    // The distance of a mean from the wish (unweighted; negative for max, positive for min).
    double distance(double mean) const;
    // The least and the most distance over means in [low, high].
    std::pair<double, double> distance_range(double low, double high) const;
    // Whether the wish is met by `mean`: within its interval, or at its value (to 1e-12);
    // max / min are never "met", only bettered.
    bool met(double mean) const;
};

// Parses one --target; throws UsageError (engine/rule_options.hpp) naming the text and the forms.
Target parse_target(const std::string& text);

// The weighted sum of the targets' distances at `means` (one per target).
double combined_distance(const std::vector<Target>& targets, const std::vector<double>& means);
// The least and the most combined distance over each target's interval [lows[i], highs[i]]: a
// conservative interval for the combined distance (every target's interval holds at once with
// probability at least 1 - the sum of their error rates).
std::pair<double, double> combined_range(const std::vector<Target>& targets,
                                         const std::vector<double>& lows,
                                         const std::vector<double>& highs);

}  // namespace odds::tune
