#include "sim/executor.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/line_reader.hpp"
#include "reports/csv.hpp"
#include "sim/interrupt.hpp"
#include "sim/shard_file.hpp"

namespace odds::sim {

namespace fs = std::filesystem;

namespace {

std::string chunk_span(std::uint64_t a, std::uint64_t b) {  // [a, b) as "a..b-1"
    return b == a + 1 ? "chunk " + std::to_string(a)
                      : "chunks " + std::to_string(a) + ".." + std::to_string(b - 1);
}

std::pair<std::uint64_t, std::uint64_t> share_of(std::uint64_t index, std::uint64_t count,
                                                 std::uint64_t units) {
    // (I-1)U/N .. IU/N without overflow: U and N are far below 2^32.
    return {(index - 1) * units / count, index * units / count};
}

}  // namespace

ShardJob job_of(const PreparedRun& run, std::uint64_t playouts) {
    return {run.scenario, run.policy, Executor::chunks_of(playouts, run.chunk_size),
            run.chunk_size};
}

void check_shards(std::vector<Shard>& shards, bool allow_gaps) {
    if (shards.empty()) throw UsageError("no shards to merge");
    const Shard& a = shards.front();
    for (const Shard& b : shards) {
        const auto differ = [&](const std::string& what, const std::string& x,
                                const std::string& y) {
            if (x != y)
                throw UsageError("shards '" + a.source + "' and '" + b.source +
                                 "' are of different " + what + " ('" + x + "' and '" + y +
                                 "'): they cannot be merged");
        };
        differ("commands", a.command, b.command);
        differ("games", a.game, b.game);
        differ("rules versions", a.rules_version, b.rules_version);
        differ("odds versions", a.odds_version, b.odds_version);
        differ("seeds", std::to_string(a.seed), std::to_string(b.seed));
        differ("playouts", std::to_string(a.playouts), std::to_string(b.playouts));
        if (a.jobs.size() != b.jobs.size())
            differ("numbers of runs", std::to_string(a.jobs.size()), std::to_string(b.jobs.size()));
        for (std::size_t j = 0; j < a.jobs.size(); ++j) {
            differ("scenarios", a.jobs[j].scenario, b.jobs[j].scenario);
            differ("policies", a.jobs[j].policy, b.jobs[j].policy);
            differ("chunk counts", std::to_string(a.jobs[j].chunks),
                   std::to_string(b.jobs[j].chunks));
            differ("chunk sizes", std::to_string(a.jobs[j].chunk_size),
                   std::to_string(b.jobs[j].chunk_size));
        }
        differ("options", joined(a.args), joined(b.args));
    }
    std::stable_sort(shards.begin(), shards.end(), [](const Shard& x, const Shard& y) {
        return x.first != y.first ? x.first < y.first : x.last < y.last;
    });
    std::uint64_t units = 0;
    for (const auto& j : shards.front().jobs) units += j.chunks;
    const auto missing = [&](std::uint64_t from, std::uint64_t to) {
        std::string which;
        const std::uint64_t n = shards.front().count;
        for (std::uint64_t i = 1; i <= n && which.empty(); ++i)
            if (share_of(i, n, units) == std::pair{from, to})
                which = " (shard " + std::to_string(i) + "/" + std::to_string(n) + "'s)";
        return UsageError(chunk_span(from, to) + " of the " + std::to_string(units) +
                          (to == from + 1 ? " is missing" : " are missing") + which +
                          ": no shard given holds " + (to == from + 1 ? "it" : "them"));
    };
    std::uint64_t covered = 0;
    const Shard* previous = nullptr;
    for (const Shard& s : shards) {
        if (s.first == s.last) continue;  // a shard with no chunks (N above the chunks)
        if (s.first < covered)
            throw UsageError("shards '" + previous->source + "' and '" + s.source +
                             "' overlap: both hold " +
                             chunk_span(s.first, std::min(covered, s.last)) + " of the " +
                             std::to_string(units));
        if (s.first > covered && !allow_gaps) throw missing(covered, s.first);
        covered = s.last;
        previous = &s;
    }
    if (covered < units && !allow_gaps) throw missing(covered, units);
}

// ---- the work share ----

Executor Executor::shard(std::uint64_t index, std::uint64_t count, bool in_memory) {
    Executor w;
    w.mode_ = Mode::shard;
    w.in_memory_ = in_memory;
    w.shard_.index = index;
    w.shard_.count = count;
    return w;
}

Executor Executor::dry_run() {
    Executor w;
    w.mode_ = Mode::dry;
    return w;
}

Executor Executor::merge(std::vector<Shard> shards, bool allow_gaps) {
    check_shards(shards, allow_gaps);
    Executor w;
    w.mode_ = Mode::merge;
    w.shard_ = shards.front();
    w.shards_ = std::move(shards);
    return w;
}

void Executor::begin(Plan plan, std::ostream& err) {
    unit0_.clear();
    std::uint64_t units = 0;
    for (const auto& j : plan.jobs) {
        unit0_.push_back(units);
        units += j.chunks;
    }
    job_playouts_ = plan.job_playouts;
    job_playouts_.resize(plan.jobs.size(), plan.playouts);
    out_ = plan.out;
    command_ = plan.command;
    game_ = plan.game;
    jobs_ = plan.jobs;
    err_ = &err;
    timing_.assign(plan.jobs.size(), {});
    if (mode_ == Mode::whole || mode_ == Mode::dry) return;
    if (mode_ == Mode::merge) {
        // This build must prepare what the shards played: the same rules and the same runs.
        if (shard_.rules_version != plan.rules_version)
            throw UsageError("the shards were played under rules version " + shard_.rules_version +
                             ", this build plays " + plan.rules_version +
                             ": merge them with the odds " + shard_.odds_version +
                             " that played them");
        if (plan.jobs != shard_.jobs)
            throw UsageError(
                "this build prepares other runs than the shards played (scenario, "
                "policies or chunks differ): merge them with the odds " +
                shard_.odds_version + " that played them");
        return;
    }
    if (!in_memory_ && !out_)
        throw UsageError("--shard needs --out DIR: the folder its shard file is written into");
    for (const auto& a : plan.args)
        if (a.find('\n') != std::string::npos)
            throw UsageError("an argument holds a line break; a shard cannot record it");
    shard_.odds_version = ODDS_VERSION;
    shard_.command = std::move(plan.command);
    shard_.game = std::move(plan.game);
    shard_.rules_version = std::move(plan.rules_version);
    shard_.seed = plan.seed;
    shard_.playouts = plan.playouts;
    shard_.args = std::move(plan.args);
    shard_.jobs = std::move(plan.jobs);
    shard_.states.assign(shard_.jobs.size(), {});
    std::tie(shard_.first, shard_.last) = share_of(shard_.index, shard_.count, units);
    shard_.last = shard_.first;  // grows as the chunks are played
    share_playouts_.clear();
    std::uint64_t share_total = 0, whole = 0;
    for (std::size_t j = 0; j < shard_.jobs.size(); ++j) {
        const auto [b, e] = range_of(j);
        // The playouts of chunks b .. e-1 (the job's last chunk may be short).
        const std::uint64_t size = shard_.jobs[j].chunk_size, p = job_playouts_[j];
        share_playouts_.push_back(std::min(e * size, p) - std::min(b * size, p));
        share_total += share_playouts_.back();
        whole += p;
    }
    const bool show = show_bar_ || (plan.shard_bar && ProgressBar::stderr_is_terminal());
    bar_.emplace(scale_ ? whole : share_total, show);
    if (!in_memory_ && !(show && ProgressBar::stderr_is_terminal())) {
        const auto [b, e] = share_of(shard_.index, shard_.count, units);
        err << "odds " << shard_.command << ": shard " << shard_.index << '/' << shard_.count
            << " plays "
            << (b == e ? "nothing (more shards than chunks)"
                       : chunk_span(b, e) + " of the " + std::to_string(units))
            << std::endl;
    }
}

std::pair<std::uint64_t, std::uint64_t> Executor::range_of(std::size_t job) const {
    if (mode_ == Mode::whole) return {0, ~std::uint64_t{0}};
    std::uint64_t units = 0;
    for (const auto& j : shard_.jobs) units += j.chunks;
    const auto [b, e] = share_of(shard_.index, shard_.count, units);
    const std::uint64_t u0 = unit0_[job], u1 = u0 + shard_.jobs[job].chunks;
    const std::uint64_t lo = std::clamp(b, u0, u1), hi = std::clamp(e, u0, u1);
    return {lo - u0, hi - u0};
}

std::function<void(std::uint64_t)> Executor::progress_for(std::size_t) {
    if (!bar_) return {};
    std::uint64_t share_total = 0;
    for (const auto p : share_playouts_) share_total += p;
    // MPI's rank 0 shows its share scaled to the whole run: every rank plays alike.
    std::uint64_t whole = 0;
    for (const auto p : job_playouts_) whole += p;
    const double scale = scale_ && share_total > 0
                             ? static_cast<double>(whole) / static_cast<double>(share_total)
                             : 1.0;
    return [this, before = done_before_, scale](std::uint64_t done) {
        bar_->update(static_cast<std::uint64_t>(static_cast<double>(before + done) * scale));
    };
}

void Executor::record(std::size_t job, std::uint64_t chunks, bool partial,
                      std::vector<std::string> lines) {
    shard_.states[job] = std::move(lines);
    shard_.last += chunks;
    done_before_ += share_playouts_[job];
    if (partial) interrupted_ = true;
}

void Executor::for_each_state(std::size_t job, const std::function<void(StateReader&)>& f) const {
    for (const Shard& s : shards_) {
        StateReader in(s.states[job], s.source,
                       job < s.state_lines.size() ? &s.state_lines[job] : nullptr);
        // The playouts its state counts (the first line's second word) are those its chunks of
        // this job hold: a forged count (2^64-1, or one that would overflow the sum) is refused.
        const std::uint64_t u0 = unit0_[job], u1 = u0 + shard_.jobs[job].chunks;
        const std::uint64_t lo = std::clamp(s.first, u0, u1) - u0,
                            hi = std::clamp(s.last, u0, u1) - u0;
        if (s.states[job].empty()) {  // a shard that played chunks of a job holds their state
            if (hi > lo)
                throw in.bad("its " + chunk_span(lo, hi) + " of job " + std::to_string(job) +
                             " have no state: edited or forged");
            continue;
        }
        const std::uint64_t size = shard_.jobs[job].chunk_size, p = job_playouts_[job];
        const auto times = [](std::uint64_t a, std::uint64_t b) {  // saturating
            return b != 0 && a > ~std::uint64_t{0} / b ? ~std::uint64_t{0} : a * b;
        };
        // Where the job plays the command's playouts, its chunks hold exactly so many (the last
        // one perhaps short); else at most whole chunks.
        const bool exact = p / size + (p % size != 0) == shard_.jobs[job].chunks;
        const std::uint64_t held = exact
                                       ? std::min(times(hi, size), p) - std::min(times(lo, size), p)
                                       : times(hi - lo, size);
        const auto head = split_words(s.states[job].front());
        const auto counted = head.size() >= 2 ? to_u64(head[1]) : std::nullopt;
        if (counted && (exact ? *counted != held : *counted > held))
            throw in.bad("its state counts " + head[1] + " playouts, but its " +
                         chunk_span(lo, hi) + " of job " + std::to_string(job) + " hold " +
                         (exact ? "" : "at most ") + std::to_string(held) + ": edited or forged");
        f(in);
        in.expect_end("job " + std::to_string(job) + " has lines left over");
    }
}

bool Executor::merged_partial(std::size_t job) const {
    const std::uint64_t u0 = unit0_[job], u1 = u0 + shard_.jobs[job].chunks;
    std::uint64_t covered = 0;
    for (const Shard& s : shards_) {
        const std::uint64_t lo = std::clamp(s.first, u0, u1), hi = std::clamp(s.last, u0, u1);
        covered += hi - lo;
    }
    return covered < u1 - u0;
}

RunResult Executor::play(std::size_t job, const PreparedRun& run, RunConfig cfg, ProgressBar* bar,
                         std::uint64_t offset) {
    std::function<void(std::uint64_t)> progress;
    if (bar) progress = [bar, offset](std::uint64_t done) { bar->update(offset + done); };
    if (mode_ == Mode::whole) return sim::play(run, cfg, announcer(job, cfg, std::move(progress)));
    if (mode_ == Mode::dry) return play(job, run, cfg, std::move(progress));
    return play(job, run, cfg, std::function<void(std::uint64_t)>{});
}

namespace {

// A dry run times each job for about kDryBudget / jobs seconds (kDryMin to kDryMax), and waits
// at most kDryWait for its first chunk. A whole run longer than kAnnounceAfter says so.
constexpr double kDryBudget = 3.0, kDryMin = 0.3, kDryMax = 1.0, kDryWait = 10.0;
constexpr double kAnnounceAfter = 10.0;

double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::string duration_words(double seconds) {
    char buf[64];
    const long s = std::lround(seconds);
    if (seconds < 10)
        std::snprintf(buf, sizeof buf, "%.1f s", seconds);
    else if (s < 120)
        std::snprintf(buf, sizeof buf, "%ld s", s);
    else if (s < 7200)
        std::snprintf(buf, sizeof buf, "%ld min %ld s", s / 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld h %ld min", s / 3600, s / 60 % 60);
    return buf;
}

std::function<void(std::uint64_t)> Executor::timer(std::size_t job, const RunConfig& cfg,
                                                   std::function<void(std::uint64_t)> progress) {
    const auto start = std::chrono::steady_clock::now();
    const double budget = std::clamp(
        kDryBudget / static_cast<double>(std::max<std::size_t>(1, jobs_.size())), kDryMin, kDryMax);
    if (job >= timing_.size()) timing_.resize(job + 1);
    timing_[job].threads = cfg.threads;
    const double total = static_cast<double>(std::max<std::uint64_t>(1, cfg.playouts));
    return [this, job, start, budget, total, progress = std::move(progress),
            flag = stopped_by_timer_](std::uint64_t done) {
        if (progress) progress(done);
        const double s = since(start);
        Timing& t = timing_[job];
        if (done > 0)
            t = {s, static_cast<double>(done) / total, t.threads, true};
        else
            t.seconds = s;
        if ((done > 0 && s >= budget) || s >= kDryWait) {
            if (!g_stop_requested.exchange(true)) flag->store(true);
        }
    };
}

std::string Executor::dry_run_text(std::string_view who) const {
    // Each job: timed (its time over the share of it done), waited on in vain (at least its
    // chunks' turns at kDryWait each), or never reached (the timed jobs' time a playout).
    double timed_seconds = 0, timed_playouts = 0;
    for (std::size_t j = 0; j < timing_.size() && j < job_playouts_.size(); ++j)
        if (timing_[j].timed) {
            timed_seconds += timing_[j].seconds / timing_[j].share;
            timed_playouts += static_cast<double>(job_playouts_[j]);
        }
    std::uint64_t playouts = 0;
    double all = 0;
    bool at_least = false, guessed = false;
    std::ostringstream lines;
    unsigned threads = 1;
    for (std::size_t j = 0; j < jobs_.size(); ++j) {
        const Timing t = j < timing_.size() ? timing_[j] : Timing{};
        threads = std::max(threads, t.threads);
        double s = 0;
        std::string how;
        if (t.timed) {
            s = t.seconds / t.share;
        } else if (t.seconds >= kDryWait) {
            const auto turns = (jobs_[j].chunks + t.threads - 1) / t.threads;
            s = kDryWait * static_cast<double>(turns);
            how = "more than ";
            at_least = true;
        } else if (timed_playouts > 0) {
            s = timed_seconds / timed_playouts * static_cast<double>(job_playouts_[j]);
            how = "not timed: ";
            guessed = true;
        }
        all += s;
        playouts += job_playouts_[j];
        std::string label = jobs_[j].scenario + " | " + jobs_[j].policy;
        if (label.size() > 100) label = label.substr(0, 97) + "...";
        if (j < 12)
            lines << "  " << label << ": " << job_playouts_[j] << " playouts, " << how << "about "
                  << duration_words(s) << '\n';
        else if (j == 12)
            lines << "  ... and " << jobs_.size() - 12 << " jobs more\n";
    }
    std::ostringstream o;
    o << who << " --dry-run: " << game_ << ", " << jobs_.size()
      << (jobs_.size() == 1 ? " job" : " jobs") << " of " << playouts << " playouts in all on "
      << threads << (threads == 1 ? " thread" : " threads")
      << "; each job timed for about a second, nothing kept or written\n"
      << lines.str() << "expected: " << (at_least ? "more than " : "about ") << duration_words(all)
      << " in all" << (guessed ? " (jobs not timed: at the timed jobs' time a playout)" : "")
      << " (within a factor of two: docs/performance.md#the-cost-before-the-run)\n";
    return o.str();
}

void Executor::end_timing() {
    if (stopped_by_timer_->exchange(false) && InterruptGuard::signal() == 0)
        InterruptGuard::reset();  // our stop, not the user's: the next job is timed
    if (InterruptGuard::signal() != 0) interrupted_ = true;
}

std::function<void(std::uint64_t)> Executor::announcer(
    std::size_t job, const RunConfig& cfg, std::function<void(std::uint64_t)> progress) {
    if (announced_ || !err_) return progress;
    const auto start = std::chrono::steady_clock::now();
    return [this, job, start, total = cfg.playouts,
            progress = std::move(progress)](std::uint64_t done) {
        if (progress) progress(done);
        const double s = since(start);
        if (announced_ || done == 0 || s < kEstimateAfterSeconds) return;
        announced_ = true;
        // This job at its rate so far, and each job after it as long a playout as this one's.
        const double per = s / static_cast<double>(done);  // seconds a playout of this run
        double left = per * static_cast<double>(total - std::min(total, done));
        const double scale = static_cast<double>(total) /
                             static_cast<double>(std::max<std::uint64_t>(1, job_playouts_[job]));
        for (std::size_t j = job + 1; j < job_playouts_.size(); ++j)
            left += per * scale * static_cast<double>(job_playouts_[j]);
        if (s + left < kAnnounceAfter) return;
        *err_ << (ProgressBar::stderr_is_terminal() ? "\r\x1b[K" : "") << "odds " << command_
              << ": expected to take about " << duration_words(s + left) << " in all, "
              << duration_words(left) << " more (from its first " << duration_words(s)
              << "; --dry-run says before)" << std::endl;
    };
}

RunResult Executor::play(std::size_t job, const PreparedRun& run, RunConfig cfg,
                         std::function<void(std::uint64_t done)> progress) {
    return play_share(job, cfg, Tally(run.metrics, run.survivals), std::move(progress),
                      [&](const RunConfig& c, std::function<void(std::uint64_t)> p) {
                          return sim::play(run, c, std::move(p));
                      });
}

std::optional<int> Executor::finish(std::ostream& out, std::ostream& err, std::string_view who) {
    if (mode_ == Mode::dry) {
        out << dry_run_text(who);
        return interrupted_ ? std::optional<int>(InterruptGuard::exit_code()) : 0;
    }
    if (mode_ != Mode::shard) return std::nullopt;
    if (bar_) bar_->finish();
    shard_.partial = interrupted_;
    if (in_memory_) return interrupted_ ? 130 : 0;
    if (interrupted_) {
        err << who << ": interrupted; no shard written (play shard " << shard_.index << '/'
            << shard_.count << " again)\n";
        return 130;
    }
    const fs::path path = fs::path(*out_) / ("shard-" + std::to_string(shard_.index) + "-of-" +
                                             std::to_string(shard_.count) + ".odds");
    write_file_atomic(path, shard_text(shard_));
    std::uint64_t units = 0;
    for (const auto& j : shard_.jobs) units += j.chunks;
    out << who << ": shard " << shard_.index << '/' << shard_.count << " ("
        << (shard_.first == shard_.last
                ? "no chunks"
                : chunk_span(shard_.first, shard_.last) + " of the " + std::to_string(units))
        << ") written to " << path.string() << "; merge the shards with 'odds merge'\n";
    return 0;
}

ExecutorOf::ExecutorOf(const std::optional<ShardIndex>& shard, Executor* given, bool dry) {
    if (dry && given)
        throw UsageError("--dry-run under mpirun: time the plan with one process, then share it");
    if (dry && shard)
        throw UsageError("--dry-run with --shard '" + shard->text +
                         "': a dry run times the whole plan; give one of the two");
    if (dry) {
        own_.emplace(Executor::dry_run());
        p_ = &*own_;
        return;
    }
    if (given) {
        if (shard && given->mode() == Executor::Mode::shard)
            throw UsageError("--shard '" + shard->text +
                             "' under mpirun: MPI shares the chunks over the ranks itself; "
                             "give --shard without mpirun, or mpirun without --shard");
        p_ = given;
        return;
    }
    if (shard)
        own_.emplace(Executor::shard(shard->index, shard->count, false));
    else
        own_.emplace();
    p_ = &*own_;
}

RunResult play(const PreparedRun& run, const RunConfig& cfg, ProgressBar* bar,
               std::uint64_t offset) {
    if (!bar) return play(run, cfg, std::function<void(std::uint64_t)>{});
    return play(run, cfg, [bar, offset](std::uint64_t done) { bar->update(offset + done); });
}

RunResult play(const PreparedRun& run, const RunConfig& cfg,
               std::function<void(std::uint64_t done)> progress) {
    InterruptGuard guard;
    RunControl ctl;
    ctl.stop = &InterruptGuard::flag();
    ctl.progress = std::move(progress);
    return run.run(cfg, ctl);
}

std::uint64_t batch_size(std::uint64_t cap, std::uint32_t chunk_size) {
    const std::uint64_t chunk = std::max<std::uint32_t>(1, chunk_size);
    const std::uint64_t chunks = std::max<std::uint64_t>(1, (cap / 32 + chunk - 1) / chunk);
    return chunks * chunk;
}

RunResult play_batches(const PreparedRun& run, const RunConfig& cfg, std::uint64_t cap,
                       ProgressBar* bar, const std::function<bool(const Tally&)>& decided) {
    const std::uint64_t batch = batch_size(cap, cfg.chunk_size);
    RunResult total;
    bool first = true;
    for (std::uint64_t b = 0, played = 0; played < cap; ++b) {
        RunConfig one = cfg;
        one.seed = stream_seed(cfg.seed, b);
        one.playouts = std::min(batch, cap - played);
        RunResult r = play(run, one, bar, played);
        played += one.playouts;
        if (first)
            total.tally = std::move(r.tally);
        else
            total.tally.merge(r.tally);
        first = false;
        total.seconds += r.seconds;
        if (r.partial) {
            total.partial = true;
            break;
        }
        if (decided(total.tally)) break;
    }
    return total;
}

}  // namespace odds::sim
