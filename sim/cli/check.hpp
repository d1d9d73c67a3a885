// odds check's parts, shared by its files: sim/cli/check.cpp (reading and preparing baselines,
// the fixed check, the command) and sim/cli/check_sequential.cpp (the sequential check). odds
// baseline (sim/cli/baseline.cpp) records what they read.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "reports/check_report.hpp"
#include "reports/stats.hpp"
#include "sim/baseline_file.hpp"
#include "sim/cli/common.hpp"

namespace odds::cli {

// One baseline (or targets) file to check, prepared as it will be played.
struct CheckJob {
    Baseline b;
    const GameEntry* game = nullptr;
    Settings played;                     // the baseline's settings with --set and --rules applied
    std::vector<std::string> unchecked;  // the metrics (targets' metrics) --metrics leaves out
    std::unique_ptr<PreparedRun> run;
    RunConfig cfg;
    bool exact = false;       // the same rules version, seed, playouts and options: counts match
    bool sequential = false;  // --sequential, a `check sequential` record, or a targets file
    std::uint64_t cap = 0;    // sequential: at most this many playouts
};

// The sequential check's rates and cap (--false-alarm, --miss, --max-playouts).
struct SeqOptions {
    double false_alarm = 1e-3, miss = 0.05;
    std::optional<std::uint64_t> cap;
};
SeqOptions seq_options_of(const Args& opt);

// Prepares the game as the baseline recorded it, every value checked against the game's
// declarations first (the options and policies by the game itself; each metric's kind, its
// values against its range, its counts against the playouts). Any bad value: a UsageError
// naming the file, the line and the value.
std::unique_ptr<PreparedRun> check_baseline(Baseline& b, const GameEntry*& game_out);

// --tolerance METRIC=X, each checked: METRIC one of `metric_names` (once), X a number >= 0.
std::map<std::string, double> tolerances_of(const Args& opt,
                                            const std::vector<std::string>& metric_names);
// "; tolerance win=0.01, ..." for the metrics given one, or "".
std::string tolerance_note(const std::vector<BaselineMetric>& metrics,
                           const std::map<std::string, double>& tolerances);

// The counts of metric m of a tally, by stored value.
std::map<std::int32_t, std::uint64_t> counts_of(const Tally& t, std::size_t m);
// The distribution of recorded counts under a metric's spec, its range widened to hold every
// recorded value (a baseline made with other options may reach values this run cannot).
Distribution distribution_of(MetricSpec spec, const std::map<std::int32_t, std::uint64_t>& counts);
// "MEAN [LOW, HIGH]", four decimals.
std::string interval(const Summary& s);
// A baseline's record of metric m of a run's tally, one line (sim/baseline_file.hpp): "metric
// NAME KIND MEAN CI_LOW CI_HIGH VALUE:COUNT...", as odds baseline writes it and odds check
// --update rewrites it.
std::string metric_record(const Tally& tally, std::span<const MetricSpec> specs, std::size_t m);

// "; not checked (--metrics): turns, ..." for the metrics --metrics leaves out, or "".
std::string unchecked_note(const CheckJob& j);

// A check's record of what it checks: the file, the game, the scenario and policies as played,
// the rules versions, the mode.
BaselineCheck check_of(const CheckJob& j);

// One baseline or targets file, checked sequentially: batches until every metric (target) is
// decided or the cap is reached, printed on io.out. Nothing on interruption.
std::optional<BaselineCheck> check_sequential(CheckJob& j, const SeqOptions& o,
                                              const std::map<std::string, double>& tolerances,
                                              bool progress, Io io);

}  // namespace odds::cli
