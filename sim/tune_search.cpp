#include "sim/tune_search.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <ostream>
#include <set>
#include <stdexcept>

#include "engine/dice.hpp"
#include "engine/stop.hpp"
#include "reports/stats.hpp"
#include "sim/executor.hpp"
#include "sim/progress.hpp"
#include "sim/shard_file.hpp"
#include "sim/team.hpp"

namespace odds::sim {

namespace {

// Under mpirun, after a step every rank took alone (an exact solution, its share of a run):
// one collective call that hands every rank every rank's outcome, `mine` (a shard's text, or a
// flag), or none when this rank failed (`failed` set). When a rank failed, each rank throws:
// its own error, or that another rank failed; so every rank makes the same collective calls,
// whichever rank failed or was stopped.
std::vector<std::string> gather_or_fail(const Team& team, const std::string& mine,
                                        const std::exception_ptr& failed) {
    auto all = team.all_gather(failed ? std::string() : mine);
    if (failed) std::rethrow_exception(failed);
    for (std::size_t r = 0; r < all.size(); ++r)
        if (all[r].empty())
            throw std::runtime_error("MPI rank " + std::to_string(r) + " failed (rank 0 " +
                                     "speaks only for itself: run the command in one process " +
                                     "to see why)");
    return all;
}

}  // namespace

double Eval::at(std::size_t target) const {
    return std::isnan(mean[target]) ? (low[target] + high[target]) / 2 : mean[target];
}

Settings Tuner::settings_for(const tune::Point& values) const {
    Settings s = spec_.base;
    for (std::size_t i = 0; i < spec_.knobs.size(); ++i)
        s.emplace_back(spec_.knobs[i].name, spec_.knobs[i].values[values[i]]);
    return s;
}

double Tuner::score(const Eval& e) const {
    std::vector<double> m(spec_.targets.size());
    for (std::size_t k = 0; k < m.size(); ++k) m[k] = e.at(k);
    return -tune::combined_distance(spec_.targets, m);
}

bool Tuner::resolved(const Eval& e) const {
    return std::none_of(e.mean.begin(), e.mean.end(), [](double m) { return std::isnan(m); });
}

// Whether the game takes the combination (each value alone was checked before the search).
// Under mpirun, a step each rank takes alone that Ctrl-C may stop (a solve, preparing a policy
// that solves) or that may fail: then one collective call, after which every rank stops
// (StopRequested) or fails alike, whichever rank was stopped or failed. Each rank hands `kind`
// (the step's letter: '-' a solve, 'p' a setting checked, 'r' a run prepared), or 's' stopped;
// ranks at different steps would be a bug, said as such rather than played on. One process: the
// step.
void Tuner::alike(const std::function<void()>& step, char kind) {
    if (!spec_.team) return step();
    bool stopped = false;
    std::exception_ptr failed;
    try {
        step();
    } catch (const StopRequested&) {
        stopped = true;
    } catch (...) {
        failed = std::current_exception();
    }
    const auto all = gather_or_fail(*spec_.team, stopped ? "s" : std::string(1, kind), failed);
    if (std::find(all.begin(), all.end(), "s") != all.end()) throw StopRequested{};
    for (const auto& k : all)
        if (k != all.front())
            throw std::logic_error("the MPI ranks are at different steps of the search");
}

bool Tuner::playable(const tune::Point& values) {
    if (const auto it = playable_.find(values); it != playable_.end()) return it->second;
    bool ok = true;
    alike(
        [&] {  // a policy's preparation may solve (best-response), looking at the stop flag
            try {
                spec_.game->prepare(settings_for(values), spec_.policies);
            } catch (const UsageError& e) {
                ok = false;
                if (!refused_count_++) first_refusal_ = e.what();
            }
        },
        'p');
    playable_.emplace(values, ok);
    return ok;
}

// The exact value of every target's metric, when the solver takes this setting (solved once);
// nullopt to play it.
std::optional<Eval> Tuner::exact(const tune::Point& values) {
    if (!spec_.use_exact || !spec_.game->exact) return std::nullopt;
    if (const auto it = exact_cache_.find(values); it != exact_cache_.end()) return it->second;
    std::optional<Eval> got;
    alike(
        [&] {  // every rank solves it alike; all stop when one was stopped inside the solver
            try {
                got = solve(values);
            } catch (const UsageError&) {  // beyond the solver's limits: play it
            }
        },
        '-');
    exact_cache_.emplace(values, got);
    return got;
}

// The solver's values of the targets' metrics at this setting; nullopt when it lacks one.
std::optional<Eval> Tuner::solve(const tune::Point& values) const {
    const ExactReport rep = exact_beside(*spec_.game)(settings_for(values), spec_.policies);
    Eval e;
    e.values = values;
    e.scenario = rep.scenario;
    e.method = "exact";
    for (const auto& t : spec_.targets)
        for (const auto& law : rep.laws) {
            if (law.spec.name != t.metric) continue;
            const Summary s = summarize(law, true);
            e.mean.push_back(s.bounded() ? std::numeric_limits<double>::quiet_NaN() : s.mean);
            e.low.push_back(s.ci.low);
            e.high.push_back(s.ci.high);
            break;
        }
    if (e.mean.size() != spec_.targets.size()) return std::nullopt;
    return e;
}

// Plays the setting: `playouts` on `seed`, in chunks of `chunk_size` (0: the game's).
Eval Tuner::play_it(const tune::Point& values, std::uint64_t playouts, std::uint64_t seed,
                    std::uint32_t chunk_size) {
    std::unique_ptr<PreparedRun> run;
    alike([&] { run = spec_.game->prepare(settings_for(values), spec_.policies); }, 'r');
    RunConfig one = spec_.cfg;
    one.playouts = playouts;
    one.seed = seed;
    one.chunk_size = chunk_size ? std::min(chunk_size, run->chunk_size) : run->chunk_size;
    RunResult r;
    if (spec_.team) {
        r = play_together(*run, one);
    } else {
        ProgressBar bar(playouts, spec_.progress);
        r = play(*run, one, &bar);
        bar.finish();
    }
    if (r.partial) throw Interrupted{};
    Eval e;
    e.values = values;
    e.scenario = run->scenario;
    const auto ds = distributions(r.tally, run->metrics);
    for (const auto& t : spec_.targets)
        for (const auto& d : ds)
            if (d.spec.name == t.metric) {
                const Summary s = summarize(d, false);
                e.mean.push_back(s.mean);
                e.low.push_back(s.ci.low);
                e.high.push_back(s.ci.high);
                break;
            }
    e.playouts = r.tally.playouts();
    e.method = "monte_carlo";
    return e;
}

// Under mpirun: this rank plays its share of the run's chunks (shard rank+1 of size, kept in
// memory), every rank hands every rank its shard, and each adds them up as odds merge does: one
// process's tally, on every rank (sim/executor.hpp). A rank stopped by Ctrl-C hands its shard
// marked partial, and every rank then stops alike (Interrupted) after the same one collective
// call, whichever ranks got the signal.
RunResult Tuner::play_together(const PreparedRun& run, const RunConfig& cfg) {
    const Team& team = *spec_.team;
    // The evaluation's identity (its seed and playouts its own): the shards of one evaluation
    // merge, never another's.
    Plan plan;
    plan.command = "tune";
    plan.game = std::string(spec_.game->name);
    plan.rules_version = std::string(spec_.game->rules_version);
    plan.seed = cfg.seed;
    plan.playouts = cfg.playouts;
    plan.jobs = {ShardJob{run.scenario, run.policy,
                          Executor::chunks_of(cfg.playouts, cfg.chunk_size), cfg.chunk_size}};
    std::ostream silent(nullptr);  // an in-memory shard says nothing
    std::string text;
    std::exception_ptr failed;
    try {
        Executor mine = Executor::shard(static_cast<std::uint64_t>(team.rank) + 1,
                                        static_cast<std::uint64_t>(team.size), true);
        mine.show_progress(spec_.progress, true);  // rank 0's bar, its share scaled to the run
        mine.begin(plan, silent);
        mine.play(0, run, cfg, nullptr);
        mine.finish(silent, silent, "odds tune");
        text = shard_text(mine.result());
    } catch (...) {
        failed = std::current_exception();
    }
    const auto texts = gather_or_fail(team, text, failed);
    std::vector<Shard> shards;
    for (std::size_t r = 0; r < texts.size(); ++r) {
        shards.push_back(read_shard(texts[r], "MPI rank " + std::to_string(r)));
        if (shards.back().partial) throw Interrupted{};
    }
    Executor all = Executor::merge(std::move(shards));
    all.begin(plan, silent);
    return all.play(0, run, cfg, nullptr);
}

Eval& Tuner::record(Eval e, const char* phase, std::uint64_t round) {
    e.phase = phase;
    e.round = round;
    path_.push_back(std::move(e));
    return path_.back();
}

// Bisection on the first knob (one knob, one METRIC=VALUE target): the sign of mean - target at
// a point, exact bounds used when they decide it.
void Tuner::bisect() {
    const Knob& r = spec_.knobs.front();
    const double target = spec_.targets.front().value;
    const auto sign_at = [&](std::size_t i) {
        const tune::Point p{static_cast<std::uint32_t>(i)};
        std::optional<Eval> e = exact(p);
        if (e && std::isnan(e->mean[0]) && target >= e->low[0] && target <= e->high[0])
            e.reset();  // the bounds straddle the target: play it
        const Eval& got =
            record(e ? *e : play_it(p, spec_.cfg.playouts, spec_.cfg.seed), "bisection", 0);
        const double m = got.at(0);
        return m < target ? -1 : m > target ? 1 : 0;
    };
    std::size_t lo = 0, hi = r.values.size() - 1;
    const int s_lo = sign_at(lo), s_hi = sign_at(hi);
    if (s_lo != 0 && s_hi != 0 && s_lo != s_hi) {
        while (hi - lo > 1) {
            const std::size_t mid = lo + (hi - lo) / 2;
            const int s = sign_at(mid);
            if (s == 0) break;
            (s == s_lo ? lo : hi) = mid;
        }
    }
    mark_best_of(0);
}

// Every setting, the first knob varying slowest.
std::vector<tune::Point> Tuner::all_points() const {
    std::vector<tune::Point> cands(1);
    for (const auto& k : spec_.knobs) {
        std::vector<tune::Point> next;
        for (const auto& c : cands)
            for (std::uint32_t i = 0; i < k.values.size(); ++i) {
                auto v = c;
                v.push_back(i);
                next.push_back(std::move(v));
            }
        cands = std::move(next);
    }
    return cands;
}

// Successive halving over every setting (exact values: one scan, no halving needed).
void Tuner::halve() {
    std::vector<tune::Point> cands = all_points();
    std::erase_if(cands, [&](const tune::Point& p) { return !playable(p); });
    if (cands.empty())
        throw UsageError("no setting of the search can be played: " + first_refusal_);
    std::vector<Eval> exacts;  // where the solver resolves every setting
    for (const auto& c : cands) {
        auto e = exact(c);
        if (!e || !resolved(*e)) {
            exacts.clear();
            break;
        }
        exacts.push_back(std::move(*e));
    }
    if (!exacts.empty()) {
        for (auto& e : exacts) record(std::move(e), "scan", 0);
        return mark_best_of(0);
    }
    candidates_ = cands.size();
    int rounds = 0;
    while ((std::size_t{1} << rounds) < cands.size()) ++rounds;
    std::vector<std::size_t> alive(cands.size());
    for (std::size_t i = 0; i < alive.size(); ++i) alive[i] = i;
    for (int round = 0;; ++round) {
        // Twice the playouts each round, the last (round `rounds`) all of --playouts.
        const std::uint64_t n = std::max<std::uint64_t>(
            1, spec_.cfg.playouts >> static_cast<unsigned>(std::max(0, rounds - round)));
        std::vector<std::pair<double, std::size_t>> scored;  // score, index into cands
        for (const std::size_t i : alive) {
            record(play_it(cands[i], n, spec_.cfg.seed), "halving", round);
            scored.emplace_back(score(path_.back()), i);
        }
        if (alive.size() == 1) break;
        std::stable_sort(scored.begin(), scored.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        alive.clear();
        for (std::size_t k = 0; k < (scored.size() + 1) / 2; ++k) alive.push_back(scored[k].second);
    }
    if (spec_.confirm_halving) return confirm(halving_finalists());
    path_.back().best = true;  // the last round's one candidate
}

// The best `finalists` settings of the last round of successive halving that played as many
// (the last round's first), by their score there.
std::vector<tune::Point> Tuner::halving_finalists() const {
    std::size_t from = path_.size(), to = path_.size();  // [from, to): one round's evaluations
    while (from > 0) {
        to = from;
        const std::uint64_t r = path_[from - 1].round;
        while (from > 0 && path_[from - 1].round == r) --from;
        if (to - from >= spec_.finalists) break;
    }
    std::vector<std::size_t> round(to - from);
    for (std::size_t i = 0; i < round.size(); ++i) round[i] = from + i;
    std::stable_sort(round.begin(), round.end(), [&](std::size_t a, std::size_t b) {
        return score(path_[a]) > score(path_[b]);
    });
    std::vector<tune::Point> out;
    for (const std::size_t i : round)
        if (out.size() < spec_.finalists) out.push_back(path_[i].values);
    return out;
}

// NTBEA: trial t plays the setting's next block of trial_playouts on the seed stream of its
// block (block b of every setting on the same dice: common random numbers), or takes its exact
// value; then the best few settings by the model are confirmed.
void Tuner::search_ntbea() {
    std::vector<std::uint32_t> sizes;
    for (const auto& k : spec_.knobs) sizes.push_back(static_cast<std::uint32_t>(k.values.size()));
    model_.emplace(sizes, spec_.ntbea.pairs);
    // Up to 64 chunks a trial (at least 128 playouts each), fixed by the trial's size alone: every
    // core plays, and the dice do not depend on --threads.
    const std::uint64_t n = spec_.trial_playouts;
    const auto chunk = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(16384, std::max<std::uint64_t>(128, (n + 63) / 64)));
    std::map<tune::Point, std::uint64_t> blocks;  // the blocks each setting has played
    const auto evaluate = [&](const tune::Point& p, std::uint64_t) {
        if (!playable(p)) return std::numeric_limits<double>::quiet_NaN();
        if (auto e = exact(p); e && resolved(*e)) return score(record(*e, "ntbea", 0));
        const std::uint64_t b = blocks[p]++;
        return score(record(play_it(p, n, stream_seed(spec_.cfg.seed, b), chunk), "ntbea", b));
    };
    tune::ntbea(sizes, spec_.ntbea, evaluate, *model_, trials_);
    if (spec_.ntbea.deviations && !trials_.empty())
        tune::one_step_deviations(sizes, tune::best_own(trials_, 1).front(), spec_.ntbea.deviations,
                                  evaluate, *model_, trials_);
    confirm(tune::finalists(*model_, trials_, spec_.finalists));
}

// The finalists, each exact or played on the confirmation's dice (the same for all, fresh to the
// search), at --playouts; the best of them by its confirmed value marked.
void Tuner::confirm(const std::vector<tune::Point>& finalists) {
    const std::size_t from = path_.size();
    std::uint64_t rank = 0;
    for (const auto& p : finalists) {
        ++rank;
        if (auto e = exact(p); e && resolved(*e)) {
            record(*e, "confirm", rank);
            continue;
        }
        record(play_it(p, spec_.cfg.playouts, stream_seed(spec_.cfg.seed, kConfirmStream)),
               "confirm", rank);
    }
    mark_best_of(from);
}

std::size_t Tuner::distinct() const {
    std::set<tune::Point> seen;
    for (const auto& t : trials_) seen.insert(t.point);
    return seen.size();
}

// The best of path[from..], marked (nothing when that is empty).
void Tuner::mark_best_of(std::size_t from) {
    if (from >= path_.size()) return;
    std::size_t best = from;
    for (std::size_t i = from + 1; i < path_.size(); ++i)
        if (score(path_[i]) > score(path_[best])) best = i;
    path_[best].best = true;
}

// Successive halving stopped: the best of its last finished round (every candidate alive played
// alike), or of the candidates round 0 played when it did not finish.
void Tuner::mark_best_halving() {
    std::size_t from = 0, alive = candidates_;
    for (std::size_t i = 0; i < path_.size();) {
        std::size_t j = i;
        while (j < path_.size() && path_[j].round == path_[i].round) ++j;
        if (j - i == alive) from = i;  // a finished round
        if (j - i < alive) break;
        alive = (alive + 1) / 2;
        i = j;
    }
    mark_best_of(from);
}

// NTBEA stopped before its confirmation: the model's best of the settings tried (its last
// trial's row marked).
void Tuner::mark_best_ntbea() {
    if (!model_ || trials_.empty()) return;
    const auto best = tune::best_sampled(*model_, trials_, 1);
    for (std::size_t i = path_.size(); i-- > 0;)
        if (path_[i].values == best.front()) {
            path_[i].best = true;
            return;
        }
}

// After a stop: the best so far. Bisection: the best of the path, as at its end. Successive
// halving: mark_best_halving; a scan writes nothing until every setting is solved, so has no
// path. NTBEA: mark_best_ntbea. Once a confirmation has begun: the best confirmed so far.
// (docs/output.md)
void Tuner::mark_best_so_far() {
    for (auto& e : path_) e.best = false;
    if (path_.empty()) return;
    const auto first_confirm = std::find_if(path_.begin(), path_.end(),
                                            [](const Eval& e) { return e.phase == "confirm"; });
    if (first_confirm != path_.end())  // the best confirmed so far
        return mark_best_of(static_cast<std::size_t>(first_confirm - path_.begin()));
    switch (spec_.search) {
        case SearchKind::bisection:
            return mark_best_of(0);
        case SearchKind::halving:
            return mark_best_halving();
        case SearchKind::ntbea:
            return mark_best_ntbea();
    }
}

}  // namespace odds::sim
