// Baseline and targets files (docs/ci.md; every record in docs/output.md), plain text, one record
// a line, read through the one line-record reader (engine/line_reader.hpp):
//   odds-baseline 1              (or odds-targets 1: a targets file)
//   game bosconian
//   rules_version bosconian/2    (a baseline's only)
//   set hull=100                 (one line per --set, in order)
//   policy tau=dice              (one line per --policy)
//   seed 1
//   playouts 1000000
//   scenario ...                 (for the reader: every effective option)
//   policies ...                 (for the reader)
//   metric NAME KIND MEAN CI_LOW CI_HIGH VALUE:COUNT VALUE:COUNT ...   (a baseline's)
//   tolerance NAME X / check sequential                                (a baseline's)
//   target METRIC ...            (a targets file's: sim/targets_file.hpp)
// A line whose first word starts with '#' is a comment. Values are the metric's stored integers
// (a scaled metric such as advantage_first stores halves). read_baseline checks each record's
// form; `odds check` then checks every value against the game's declarations. A bad one is one
// UsageError "FILE:LINE: WHAT" (a whole-file one "FILE: WHAT").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/rule_options.hpp"
#include "sim/targets_file.hpp"

namespace odds::sim {

struct BaselineMetric {
    std::string name;
    int line = 0;
    std::string kind;
    double mean = 0, low = 0, high = 0;
    std::vector<std::pair<std::int64_t, std::uint64_t>> pairs;  // VALUE:COUNT as read
    std::map<std::int32_t, std::uint64_t> counts;               // once checked
    std::optional<double> tolerance;  // its `tolerance` record: the shift --sequential tests for
    int tolerance_line = 0;
};

struct Baseline {
    std::string file;
    bool targets = false;       // an odds-targets file: targets instead of metrics
    std::vector<Target> goals;  // its target lines
    std::string game, rules_version;
    int game_line = 0, rules_line = 0;
    Settings settings;
    std::vector<int> set_lines;
    std::vector<std::string> policies;
    std::vector<int> policy_lines;
    std::uint64_t seed = 0, playouts = 0;
    int playouts_line = 0;
    std::vector<BaselineMetric> metrics;
    bool sequential = false;  // a `check sequential` record: checked sequentially by default
};

// Reads the baseline or targets file at `path`, each record checked for its form.
Baseline read_baseline(const std::string& path);

}  // namespace odds::sim
