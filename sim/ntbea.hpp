// NTBEA, the N-tuple bandit evolutionary algorithm (Lucas, Liu and Perez-Liebana, "The N-Tuple
// Bandit Evolutionary Algorithm for Game Agent Optimisation", 2018), as TAG's ParameterSearch runs
// it: a model of the value of a setting built from statistics of its tuples (every single option,
// optionally every pair, and the whole setting), and a search that, from the setting it last
// evaluated, mutates a neighbourhood of settings and evaluates next the one with the highest upper
// confidence bound over its tuples. odds tune (sim/cli/tune.cpp) drives it; this file knows
// nothing of games, dice or the command line: a setting is one index per option, a value is a
// number, higher better.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace odds::tune {

// One index per option, each in [0, sizes[i]).
using Point = std::vector<std::uint32_t>;

struct NtbeaOptions {
    std::uint64_t trials = 200;   // evaluations (TAG: iterations), each one setting
    std::size_t neighbours = 50;  // settings mutated from the current one each trial
    std::size_t deviations = 0;   // one-step deviation rounds after the trials
    double explore = 1.0;         // k: the exploration weight, in units of the values' spread
    bool pairs = true;            // the 2-tuples too (TAG: use2Tuples); 1-tuples and N always
    std::uint64_t seed = 1;       // the search's own random choices (first setting, mutations)
};

// The tuples' statistics: for each tuple (a set of options), the sum and count of the values of
// the settings evaluated, per combination of the tuple's indices.
class NTupleModel {
public:
    NTupleModel(std::vector<std::uint32_t> sizes, bool pairs);
    void add(const Point& p, double value);
    // The mean over the tuples that have seen p's indices of their mean value (NTBEA's
    // exploitation estimate); nullopt-like NaN when none has.
    double mean(const Point& p) const;
    // mean + k * the average over tuples of sqrt(ln(1 + N) / (n + eps)) (an unseen tuple entry:
    // n = 0, eps = 0.1 as TAG, so the unseen is tried first), N the values added so far.
    double ucb(const Point& p, double k) const;
    std::uint64_t samples() const { return samples_; }
    std::size_t tuples() const { return tuples_.size(); }

private:
    struct Stat {
        double sum = 0;
        std::uint64_t n = 0;
    };
    struct Tuple {
        std::vector<std::size_t> dims;
        std::unordered_map<std::uint64_t, Stat> stats;
    };
    std::uint64_t key(const Tuple& t, const Point& p) const;
    std::vector<std::uint32_t> sizes_;
    std::vector<Tuple> tuples_;
    std::uint64_t samples_ = 0;
};

// splitmix64: the search's random choices, the same on every platform.
class SearchRng {
public:
    explicit SearchRng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next();
    std::uint32_t below(std::uint32_t n);  // uniform in [0, n), n > 0
    double unit();                         // uniform in [0, 1)

private:
    std::uint64_t s_;
};

// A setting chosen uniformly.
Point random_point(const std::vector<std::uint32_t>& sizes, SearchRng& rng);
// TAG's mutation: each option that has more than one value changes, with probability 1 / (the
// options that can), to another of its values chosen uniformly; at least one always changes.
Point mutate(const Point& p, const std::vector<std::uint32_t>& sizes, SearchRng& rng);

// One trial of the search: the setting evaluated and its value.
struct Trial {
    Point point;
    double value = 0;
};

// Runs the search: `evaluate(point, trial)` gives a setting's value (higher better; it may throw
// to stop, and the trials so far stay in `trials`). NaN: the setting cannot be played (a
// combination the game refuses): the trial is spent, nothing is learnt, and the search does not
// move to it again. The model and the path are the caller's, so
// that a stopped search still has them.
void ntbea(const std::vector<std::uint32_t>& sizes, const NtbeaOptions& options,
           const std::function<double(const Point&, std::uint64_t trial)>& evaluate,
           NTupleModel& model, std::vector<Trial>& trials);

// One-step deviations (as TAG checks its recommendation): from `start`, every setting that differs
// in one option is evaluated; when the best of them beats the current setting (each by the mean
// of its own trials), the search moves there and checks again, at most `steps` times. Every
// evaluation joins the model and `trials`. Returns the setting it stops at.
Point one_step_deviations(const std::vector<std::uint32_t>& sizes, Point start, std::size_t steps,
                          const std::function<double(const Point&, std::uint64_t trial)>& evaluate,
                          NTupleModel& model, std::vector<Trial>& trials);

// The distinct settings of `trials`, best first by the model's mean (TAG's best of the sampled),
// at most `count`; ties by first evaluation.
std::vector<Point> best_sampled(const NTupleModel& model, const std::vector<Trial>& trials,
                                std::size_t count);
// The distinct settings of `trials`, best first by the mean of their own trials (the whole
// setting's tuple alone), at most `count`; ties by first evaluation.
std::vector<Point> best_own(const std::vector<Trial>& trials, std::size_t count);
// The finalists odds tune confirms: the first ceil(count / 2) of best_own, then best_sampled's
// (TAG's choice) not already among them, `count` in all (fewer when fewer were tried). Under
// common random numbers the settings' own means differ by their rules more than by their dice,
// and exact values are their own means: the model's smoothing over tuples would hide a best
// setting whose neighbours are poor.
std::vector<Point> finalists(const NTupleModel& model, const std::vector<Trial>& trials,
                             std::size_t count);

}  // namespace odds::tune
