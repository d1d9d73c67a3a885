// A targets file's `target` lines (docs/ci.md, "Targets"): what balance means, stated as bounds
// on the headline metrics, `target METRIC [pXX] at least V | at most V | within A..B [margin M]`.
// The file around them (its header, game, set, policy, seed and playouts records) is read with a
// baseline's records (sim/baseline_file.hpp); `odds check` tests each target sequentially.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/line_reader.hpp"
#include "reports/sequential.hpp"

namespace odds::sim {

// One target line.
struct Target {
    std::string text;  // as written after `target`
    int line = 0;
    std::string metric;
    int quantile = 0;  // 0: the metric's mean; else XX of pXX
    TargetKind kind = TargetKind::at_least;
    double a = 0, b = 0;           // the bound (a), or the range a..b
    std::optional<double> margin;  // the indifference margin, when given
};

// The reader's current line, a `target` record; a bad one fails "FILE:LINE: target 'TEXT': WHY
// (valid: ...)".
Target parse_target(const LineReader& in);

// `text` whole as a finite number (a target's bound, a baseline's mean); nullopt otherwise.
std::optional<double> parse_number(std::string_view text);

}  // namespace odds::sim
