// Charts as inline SVG, drawn by odds for the HTML report (reports/html_report): every chart has a
// title, labelled axes, a legend where it has several series, and its numbers on hover (an SVG
// <title> on each mark). Text is <text>, never paths, so it can be read, searched and printed;
// colours are the Okabe-Ito palette (and viridis for heatmaps), readable with colour blindness.
// Every string from outside (a policy, an option value) is XML-escaped.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace odds::svg {

// Text safe in SVG/HTML character data and attribute values (& < > " ' escaped).
std::string escape(std::string_view text);

// A number for people: at most `digits` significant digits, no exponent between 1e-4 and 1e9,
// no trailing zeros ("0.25", "1200", "3.142").
std::string num(double v, int digits = 4);

// A linear map from the data's [d0, d1] to the drawing's [r0, r1] (r1 < r0 for a y axis).
struct LinearScale {
    double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
    double operator()(double v) const;
};

// "Nice" ticks covering [lo, hi]: about `target` of them, spaced 1, 2 or 5 times a power of ten;
// the first at or below lo and the last at or above hi (lo == hi is widened by one step).
struct Ticks {
    std::vector<double> values;
    double step = 1;
};
Ticks nice_ticks(double lo, double hi, int target = 5);
// A tick's label, with as many decimals as the step needs ("0.25", "0.5" with step 0.25 -> "0.50").
std::string tick_label(double v, double step);

// One distribution law: bars of P(X = x) and the "at least" curve P(X >= x).
struct Law {
    std::string name;  // the legend: "Monte Carlo (1000000 playouts)", "exact"
    std::vector<double> x, p, at_least;
    std::vector<std::string> tips;  // per value, added to the hover text (may be empty)
    // An exact law's unresolved probability: its values are lower bounds, P(X >= x) lies between
    // at_least and at_least + unresolved (drawn as a band under a line marked as a bound).
    double unresolved = 0;
};
// A law of more than `most` values as `most` or fewer bins of neighbouring values, summed (each
// bin's tip says which values it holds); a smaller law as it is. The chart draws at most
// kMostBars bars.
inline constexpr std::size_t kMostBars = 200;
Law binned(const Law& law, std::size_t most = kMostBars);
// The first law as bars, the others as markers on them; every law's P(X >= x) on a second axis.
// When one value of the first law holds most of the mass (at least half, ten times the next, and
// five values or more), P(X = x) is on a log scale so the rest shows, and the title says so.
std::string distribution_chart(std::string_view title, std::string_view x_label,
                               const std::vector<Law>& laws);

// A Kaplan-Meier curve: survival after each step, and the steps where some left censored.
struct Survival {
    std::string name;
    std::vector<double> step, survival;
    std::vector<bool> censored;
};
// `y_label` says what survives: "share of playouts before the ship is lost".
std::string survival_chart(std::string_view title, std::string_view x_label,
                           std::string_view y_label, const std::vector<Survival>& curves);

// A forest plot: one row per estimate, a point with its interval.
struct ForestRow {
    std::string label;
    double value = 0, low = 0, high = 0;
    std::string tip;   // the hover text; the label and numbers are added
    int colour = 0;    // the palette's index
    std::string mark;  // a word printed at the row's right ("pass", "MOVED"); may be empty
};
struct Band {  // a shaded range across the rows, with its legend
    double low = 0, high = 0;
    std::string name;
};
std::string forest_chart(std::string_view title, std::string_view x_label,
                         const std::vector<ForestRow>& rows, std::optional<double> reference,
                         std::optional<Band> band = std::nullopt,
                         const std::vector<std::string>& legend = {});

// A heatmap of values in [0, 1] (NaN: an empty cell), each value printed in its cell.
std::string heatmap_chart(std::string_view title, std::string_view row_label,
                          std::string_view col_label, const std::vector<std::string>& rows,
                          const std::vector<std::string>& cols,
                          const std::vector<std::vector<double>>& values,
                          const std::vector<std::vector<std::string>>& tips);

// Lines with their 95% bands, against x (numbers, or categories when `categories` is given:
// x is then the category's index).
struct Line {
    std::string name;
    std::vector<double> x, mean, low, high;
};
std::string line_chart(std::string_view title, std::string_view x_label, std::string_view y_label,
                       const std::vector<Line>& lines,
                       const std::vector<std::string>& categories = {});

// A fan chart (odds shape): a probability's quantiles by step, the 10%-90% and 25%-75% bands
// shaded and the median a line; x is the step, y the probability on [0, 1].
struct Fan {
    std::vector<double> step;
    std::vector<double> q10, q25, q50, q75, q90;
};
std::string fan_chart(std::string_view title, std::string_view x_label, std::string_view y_label,
                      const Fan& fan);

}  // namespace odds::svg
