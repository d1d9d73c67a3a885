// odds tune's searches over a game's rule options (docs/commands.md, "odds tune"): bisection,
// successive halving and NTBEA (sim/ntbea.hpp), each evaluation exact where the game's solver
// resolves the setting, else played on common random numbers; then, after NTBEA, a confirmation
// of the best few settings on fresh dice. sim/cli/tune.cpp reads the command line into a
// TuneSpec and writes what a Tuner found; nothing here reads options or writes files.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reports/tune_targets.hpp"
#include "sim/ntbea.hpp"
#include "sim/registry.hpp"

namespace odds::sim {

// One varied option and the values searched, in order (ordered: a whole-number range, which
// bisection may assume the metric monotone along).
struct Knob {
    std::string name;
    std::vector<std::string> values;
    bool ordered = false;
};

enum class SearchKind { bisection, halving, ntbea };

struct Team;  // sim/team.hpp

struct TuneSpec {
    const GameEntry* game = nullptr;
    Settings base;  // --rules and --set
    std::vector<std::string> policies;
    std::vector<Knob> knobs;
    std::vector<tune::Target> targets;
    SearchKind search = SearchKind::halving;
    RunConfig cfg;  // --playouts: bisection's, halving's last round's, NTBEA's confirmation's
    tune::NtbeaOptions ntbea;
    std::uint64_t trial_playouts = 1000;  // NTBEA: a trial's playouts
    std::size_t finalists = 3;  // NTBEA (and halving, confirm_halving): settings confirmed
    // Successive halving toward several targets (or a weighted or 'within' one): its last
    // rounds' best `finalists` confirmed on fresh dice, as after NTBEA.
    bool confirm_halving = false;
    bool use_exact = true;
    bool progress = false;
    // Under mpirun: the ranks, each running this same search, that play each evaluation
    // together, rank r the chunks of shard r+1 of size, then every rank the sum of all the
    // shards (one process's tally: sim/executor.hpp), so that every rank goes on alike. Null:
    // one process plays it all.
    const Team* team = nullptr;
};

// One evaluation of a setting: each target's metric.
struct Eval {
    tune::Point values;  // an index into each knob's values
    std::string scenario;
    // Per target: NaN mean when exact with unresolved mass (its bounds in low, high).
    std::vector<double> mean, low, high;
    std::uint64_t playouts = 0;  // 0: exact
    std::string method;          // exact, monte_carlo
    std::string phase;           // bisection, halving, scan, ntbea, confirm
    std::uint64_t round = 0;
    bool best = false;
    // The target's value at this evaluation: the mean, or the middle of exact bounds.
    double at(std::size_t target) const;
};

// The seed stream of NTBEA's confirmation, one no trial's block uses (trials < 2^32).
inline constexpr std::uint64_t kConfirmStream = std::uint64_t{1} << 32;

class Tuner {
public:
    explicit Tuner(const TuneSpec& spec) : spec_(spec) {}
    struct Interrupted {};  // a playout run stopped by Ctrl-C or SIGTERM

    void bisect();
    void halve();
    void search_ntbea();
    // After a stop: the best so far marked (docs/commands.md).
    void mark_best_so_far();

    const std::vector<Eval>& path() const { return path_; }
    Settings settings_for(const tune::Point& values) const;
    // Higher is better: minus the combined distance (reports/tune_targets.hpp).
    double score(const Eval& e) const;
    // NTBEA: trials made, distinct settings tried, settings confirmed.
    std::uint64_t trials() const { return trials_.size(); }
    std::size_t distinct() const;
    // Settings skipped because the game refuses the combination (each knob's values are valid
    // alone), and the first refusal's message.
    std::size_t refused() const { return refused_count_; }
    const std::string& first_refusal() const { return first_refusal_; }

private:
    void alike(const std::function<void()>& step, char kind);
    std::optional<Eval> exact(const tune::Point& values);
    std::optional<Eval> solve(const tune::Point& values) const;
    bool playable(const tune::Point& values);
    bool resolved(const Eval& e) const;
    Eval play_it(const tune::Point& values, std::uint64_t playouts, std::uint64_t seed,
                 std::uint32_t chunk_size = 0);
    RunResult play_together(const PreparedRun& run, const RunConfig& cfg);
    Eval& record(Eval e, const char* phase, std::uint64_t round);
    void mark_best_of(std::size_t from);
    void mark_best_halving();
    void mark_best_ntbea();
    void confirm(const std::vector<tune::Point>& finalists);
    std::vector<tune::Point> halving_finalists() const;
    std::vector<tune::Point> all_points() const;

    const TuneSpec& spec_;
    std::vector<Eval> path_;
    std::size_t candidates_ = 0;  // successive halving's settings
    std::map<tune::Point, std::optional<Eval>> exact_cache_;
    std::optional<tune::NTupleModel> model_;
    std::vector<tune::Trial> trials_;
    std::map<tune::Point, bool> playable_;
    std::size_t refused_count_ = 0;
    std::string first_refusal_;
};

}  // namespace odds::sim
