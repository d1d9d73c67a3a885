// odds check --sequential (and targets files): each metric (target) tested by a GSPRT
// (reports/sequential.hpp) after every batch of playouts, until every one is decided or the cap
// is reached. docs/commands.md says what is printed; docs/ci.md when to use it.
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "reports/sequential.hpp"
#include "sim/cli/check.hpp"
#include "sim/executor.hpp"

namespace odds::cli {

namespace {

std::size_t metric_index(const PreparedRun& run, const std::string& name) {
    for (std::size_t i = 0; i < run.metrics.size(); ++i)
        if (run.metrics[i].name == name) return i;
    return run.metrics.size();
}

// A sequentially tested quantity: the mean of metric m, or the share of playouts whose metric m
// is at most `value` (at_most_share) or below it.
struct Quantity {
    std::size_t m = 0;
    enum { mean, share_at_most, share_below } what = mean;
    double value = 0;
};

ShiftEstimate estimate(const Tally& t, const MetricSpec& spec, const Quantity& q) {
    const Distribution d = distribution_of(spec, counts_of(t, q.m));
    if (q.what == Quantity::mean) return mean_estimate(moments(d), spec.kind == MetricKind::rate);
    double hits = 0;
    for (std::size_t i = 0; i < d.mass.size(); ++i) {
        const double v = value_of(d.spec, i);
        if (q.what == Quantity::share_at_most ? v <= q.value : v < q.value) hits += d.mass[i];
    }
    const double n = d.total();
    return mean_estimate(Moments{n, n > 0 ? hits / n : 0, 0}, true);
}

std::string llr_text(const MetricCheck::Sequential& q) {
    std::ostringstream o;
    o << std::setprecision(3) << "LLR " << q.llr << " in (" << q.lower << ", " << q.upper << ")";
    return o.str();
}

// One metric (target) of a sequential check: what is estimated, and its tests.
struct Item {
    MetricCheck mc;
    std::vector<std::pair<Quantity, SequentialTest>> tests;
    std::optional<Moments> old_m;  // baselines: the recorded sample's
    const Target* goal = nullptr;  // targets: the target
    std::uint64_t decided_at = 0;
};

Item target_item(const Target& t, const PreparedRun& run, double false_alarm, double miss) {
    Item it;
    it.goal = &t;
    it.mc.name = t.text;
    it.mc.old_s.mean = it.mc.old_s.ci.low = it.mc.old_s.ci.high =
        std::numeric_limits<double>::quiet_NaN();  // no baseline: null in the report
    const std::size_t m = metric_index(run, t.metric);
    const MetricSpec& spec = run.metrics[m];
    const bool share = t.quantile > 0;
    // The metric's kind; the test is on a rate when the target is a percentile.
    it.mc.kind = spec.kind == MetricKind::rate ? "rate" : "count";
    const double margin =
        t.margin.value_or(share || spec.kind == MetricKind::rate
                              ? 0.01
                              : std::max(0.01, 0.01 * std::max(std::abs(t.a), std::abs(t.b))));
    it.mc.tolerance = margin;
    const double q = t.quantile / 100.0;
    if (!share)
        it.tests.emplace_back(Quantity{m, Quantity::mean, 0},
                              target_sequential(t.kind, t.a, t.b, margin, false_alarm, miss));
    else if (t.kind == TargetKind::at_most)  // pXX <= v: P(X <= v) >= XX%
        it.tests.emplace_back(
            Quantity{m, Quantity::share_at_most, t.a},
            target_sequential(TargetKind::at_least, q, 0, margin, false_alarm, miss));
    else  // pXX >= v: P(X < v) <= XX%
        it.tests.emplace_back(
            Quantity{m, Quantity::share_below, t.a},
            target_sequential(TargetKind::at_most, q, 0, margin, false_alarm, miss));
    return it;
}

Item baseline_item(const BaselineMetric& bm, const PreparedRun& run,
                   const std::map<std::string, double>& tolerances, double false_alarm,
                   double miss) {
    Item it;
    it.mc.name = bm.name;
    it.mc.kind = bm.kind;
    const std::size_t m = metric_index(run, bm.name);
    if (m == run.metrics.size()) {
        it.mc.reported = false;
        it.mc.old_s.mean = bm.mean;
        it.mc.old_s.ci = {bm.low, bm.high};
        it.mc.verdict = Verdict::moved;
        it.mc.line = ": the build no longer reports it";
        return it;
    }
    const MetricSpec& spec = run.metrics[m];
    const Distribution old_d = distribution_of(spec, bm.counts);
    it.mc.old_s = summarize(old_d, false);
    it.old_m = moments(old_d);
    const bool rate = spec.kind == MetricKind::rate;
    // The shift tested for: --tolerance, else the baseline's record, else the shift a fixed test
    // of the baseline's size finds at these rates (at least one step).
    double tol = 0;
    if (const auto t = tolerances.find(bm.name); t != tolerances.end())
        tol = t->second;
    else if (bm.tolerance)
        tol = *bm.tolerance;
    else
        tol = std::max(
            detectable_shift(std::sqrt(2 * mean_estimate(*it.old_m, rate).var), false_alarm, miss),
            0.0);
    if (tol <= 0) tol = 1.0 / spec.scale;
    it.mc.tolerance = tol;
    it.tests.emplace_back(Quantity{m, Quantity::mean, 0}, shift_sequential(tol, false_alarm, miss));
    return it;
}

// Every test updated with the tally so far; true when every item is decided.
bool update_tests(std::vector<Item>& items, const PreparedRun& run, const Tally& t) {
    bool all = true;
    for (auto& it : items) {
        for (auto& [q, test] : it.tests) {
            const MetricSpec& spec = run.metrics[q.m];
            const ShiftEstimate e =
                it.old_m
                    ? shift_estimate(*it.old_m, moments(distribution_of(spec, counts_of(t, q.m))),
                                     spec.kind == MetricKind::rate)
                    : estimate(t, spec, q);
            test.update(e.shift, e.var);
        }
        bool open = false;
        for (const auto& [q, test] : it.tests) open = open || test.state() == SprtState::open;
        if (!open && it.decided_at == 0) it.decided_at = t.playouts();
        all = all && !open;
    }
    return all;
}

// A baseline metric's line: old and new means, the shift, the test and what a fixed test needs.
void baseline_line(std::ostringstream& line, MetricCheck& mc, MetricCheck::Sequential& sq,
                   const Moments& old_m, const Distribution& new_d, double false_alarm,
                   double miss) {
    const Moments new_m = moments(new_d);
    mc.shift = mc.new_s.mean - mc.old_s.mean;
    sq.fixed_playouts =
        fixed_playouts_needed(sq.tolerance, old_m.var, old_m.n, new_m.var, false_alarm, miss);
    line << "old " << interval(mc.old_s) << "  new " << interval(mc.new_s) << "  shift " << mc.shift
         << "  tolerance " << sq.tolerance << "  " << llr_text(sq) << "  after " << sq.playouts
         << " playouts (a fixed test: ";
    if (std::isfinite(sq.fixed_playouts))
        line << static_cast<std::uint64_t>(sq.fixed_playouts) << ")";
    else
        line << "none suffices)";
}

// A target's line: the statistic it names, its bounds; no baseline, shift or tolerance.
void target_line(std::ostringstream& line, MetricCheck& mc, const MetricCheck::Sequential& sq,
                 const Target& goal, const Quantity& q0, const Tally& tally, const MetricSpec& spec,
                 const Distribution& new_d) {
    MetricCheck::Target mt;
    if (goal.kind != TargetKind::at_most) mt.low = goal.a;
    if (goal.kind == TargetKind::at_most) mt.high = goal.a;
    if (goal.kind == TargetKind::within) mt.high = goal.b;
    mc.tolerance.reset();
    if (q0.what == Quantity::mean) {
        mt.statistic = "mean";
        mt.value = mc.new_s.mean;
        line << "now " << interval(mc.new_s);
    } else {
        const ShiftEstimate e = estimate(tally, spec, q0);
        const int pct = goal.quantile;
        mt.statistic = std::to_string(pct).insert(0, 1, 'p');  // (GCC 12 warns falsely of "p" + s)
        mt.value = quantile(new_d, pct);
        line << "now p" << pct << " " << mt.value << " (P("
             << (q0.what == Quantity::share_at_most ? "<= " : "< ") << q0.value << ") "
             << fixed(e.shift) << ")";
    }
    mc.target = mt;
    line << "  margin " << sq.tolerance << "  " << llr_text(sq) << "  after " << sq.playouts
         << " playouts";
}

// An item's verdict, figures and line once the batches are played.
void conclude(Item& it, const PreparedRun& run, const Tally& tally, double false_alarm,
              double miss) {
    MetricCheck& mc = it.mc;
    // The state: h1 (moved, missed) by any test, h0 (unchanged, met) by all, else open.
    SprtState state = SprtState::h0;
    const OneSided* head = nullptr;
    for (const auto& [q, test] : it.tests) {
        if (test.state() == SprtState::h1) state = SprtState::h1;
        if (test.state() == SprtState::open && state != SprtState::h1) state = SprtState::open;
        const OneSided& h = test.headline();
        if (!head || h.llr > head->llr || h.state == SprtState::h1) head = &h;
    }
    const auto& [q0, test0] = it.tests.front();
    const MetricSpec& spec = run.metrics[q0.m];
    const Distribution new_d = distribution_of(spec, counts_of(tally, q0.m));
    mc.new_s = summarize(new_d, false);
    mc.verdict = state == SprtState::h1   ? Verdict::moved
                 : state == SprtState::h0 ? Verdict::unchanged
                                          : Verdict::inconclusive;
    MetricCheck::Sequential sq;
    sq.llr = head->llr;
    sq.lower = head->bounds.lower();
    sq.upper = head->bounds.upper();
    sq.tolerance = *mc.tolerance;
    sq.playouts = it.decided_at ? it.decided_at : tally.playouts();
    std::ostringstream line;
    line << std::setprecision(4);
    if (it.old_m)
        baseline_line(line, mc, sq, *it.old_m, new_d, false_alarm, miss);
    else
        target_line(line, mc, sq, *it.goal, q0, tally, spec, new_d);
    mc.sequential = sq;
    mc.line = line.str();
}

const char* status_of(const MetricCheck& mc, bool targets) {
    if (targets)
        return mc.verdict == Verdict::moved       ? "MISSED       "
               : mc.verdict == Verdict::unchanged ? "met          "
                                                  : "inconclusive ";
    return mc.verdict == Verdict::moved       ? "MOVED        "
           : mc.verdict == Verdict::unchanged ? "unchanged    "
                                              : "inconclusive ";
}

void print_verdict(std::ostream& out, const BaselineCheck& c, bool targets) {
    switch (c.verdict()) {
        case Verdict::moved:
            out << (targets ? "  => a target is MISSED" : "  => the balance MOVED");
            break;
        case Verdict::inconclusive:
            out << "  => INCONCLUSIVE at the cap";
            break;
        default:
            out << (targets ? "  => every target met" : "  => unchanged");
            break;
    }
    out << " (" << c.playouts << " playouts)\n";
}

}  // namespace

std::optional<BaselineCheck> check_sequential(CheckJob& j, const SeqOptions& o,
                                              const std::map<std::string, double>& tolerances,
                                              bool progress, Io io) {
    const bool targets = j.b.targets;
    BaselineCheck c = check_of(j);
    c.mode = c.reason = targets ? "targets" : "sequential";
    c.seed_baseline = j.b.seed;
    c.seed = j.cfg.seed;
    c.playouts_baseline = targets ? 0 : j.b.playouts;
    const std::size_t family = targets ? j.b.goals.size() : j.b.metrics.size();
    c.false_alarm = bonferroni(o.false_alarm, family);

    std::vector<Item> items;
    if (targets)
        for (const Target& t : j.b.goals)
            items.push_back(target_item(t, *j.run, c.false_alarm, o.miss));
    else
        for (const BaselineMetric& bm : j.b.metrics)
            items.push_back(baseline_item(bm, *j.run, tolerances, c.false_alarm, o.miss));

    ProgressBar bar(j.cap, progress);
    const auto started = std::chrono::steady_clock::now();
    const RunResult r = play_batches(
        *j.run, j.cfg, j.cap, &bar, [&](const Tally& t) { return update_tests(items, *j.run, t); });
    bar.finish();
    if (r.partial) return std::nullopt;
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    c.playouts = r.tally.playouts();

    io.out << j.b.file << ": " << j.b.game << " | " << j.run->scenario << " | " << j.run->policy
           << '\n'
           << "  " << (targets ? "targets" : "sequential check") << " (GSPRT): false-alarm rate "
           << o.false_alarm << " / " << family << (targets ? " targets" : " metrics")
           << ", miss rate " << o.miss << ", at most " << j.cap << " playouts in batches of "
           << batch_size(j.cap, j.cfg.chunk_size) << unchecked_note(j) << '\n';
    for (auto& it : items) {
        if (it.mc.reported) {
            conclude(it, *j.run, r.tally, c.false_alarm, o.miss);
            io.out << "  " << status_of(it.mc, targets) << std::left << std::setw(18) << it.mc.name
                   << ' ' << it.mc.line << '\n';
        } else {
            io.out << "  MOVED        " << it.mc.name << it.mc.line << '\n';
        }
        c.metrics.push_back(std::move(it.mc));
    }
    print_verdict(io.out, c, targets);
    return c;
}

}  // namespace odds::cli
