// odds shape's sampling (docs/skill.md, "The shape of a game"): games traced step by step on
// every core, and the two ways a game's p_t is known at each step: exactly (a value table the
// game's solver gives) or by rollouts of the game's own policies from the state at hand.
//
// Game i plays on Dice(stream_seed(seed, i)), as the runner's play_each rolls game i, with fresh
// copies of the seats' policies; step t's rollouts on their own streams (rollout_seed), each step
// with fresh copies of the policies. A game's trace thus depends on (seed, i) alone, and the
// tally, merged in game order (run_chunks), is the same for any number of threads.
//
// The games are one job of odds shape's plan (sim/executor.hpp), a game a chunk, so --shard,
// odds merge and mpirun share them out as they do any command's. The tally's means are sums of
// doubles, which add up to the same bits only in the same order: a shard's state is therefore
// each game's p_0 .. p_T itself, exactly, and the merge adds the games one by one in game order,
// as one process does (Traced).
#pragma once

#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/decision.hpp"
#include "engine/dice.hpp"
#include "engine/rule_options.hpp"
#include "engine/stop.hpp"
#include "reports/exact_report.hpp"
#include "reports/shape.hpp"
#include "sim/executor.hpp"
#include "sim/runner.hpp"

namespace odds::shape {

// The seed of step t's rollouts in game i: a family of streams apart from the games' own.
inline std::uint64_t rollout_seed(std::uint64_t seed, std::uint64_t i, std::uint64_t t) {
    return stream_seed(stream_seed(seed ^ 0x5348415045ull /* "SHAPE" */, i), t);
}

// What run_traces tallies: the shape tally and, under --shard (or an MPI rank's share), every
// game's p_0 .. p_T in game order, the shard's state: the merge replays them (add_state) into the
// tally as run_chunks adds the games, a game a chunk, so the sums come out bit for bit.
struct Traced {
    Tally tally;
    bool keep = false;                // keep the games' p's (a shard)
    std::vector<double> p;            // kept: the games' p's, one game after another
    std::vector<std::uint64_t> ends;  // kept: where each game's p's end in p
    void add(std::span<const double> game);
    void merge(const Traced& o);
};
// A shard's state: "traces GAMES", then a "p" line a game, its p's in the shortest text that
// reads back to the same double (std::to_chars).
void write_state(std::vector<std::string>& lines, const Traced& t);
void add_state(sim::StateReader& in, Traced& t);

// What a shard of odds shape may hold, its state keeping each game's p's: at most so many games
// (refused before playing), so many p's in all (its text, at most 25 bytes a p, within the
// 512 MiB odds merge reads of a shard file: a shard past it stops with a UsageError), and so many
// p's a game (a line within the 64 MiB odds reads: a game of up to 1,999,999 steps).
inline constexpr std::uint64_t kMaxShardGames = 200'000;
inline constexpr std::uint64_t kMaxShardValues = 16'000'000;
inline constexpr std::size_t kMaxGameValues = 2'000'000;

// A shard whose games' p's pass kMaxShardValues: a UsageError (it ends the run).
[[noreturn]] void refuse_long_shard();

// Where a hook's games are played: all of them here (the default), or by the executor odds shape
// hands down (--shard, odds merge, MPI), which it begins (`ready`, told the games' scenario and
// seats) only once the hook has read its input and built any value table, as the first game is
// about to play: bad input says one line and leaves nothing behind.
class Sampler {
public:
    using Ready = std::function<void(const std::string& scenario, const std::string& policy)>;
    Sampler() = default;
    Sampler(sim::Executor& share, Ready ready) : share_(&share), ready_(std::move(ready)) {}
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;
    // The games' scenario and seats, as the report names them (registration::shape).
    void name(std::string scenario, std::string policy) {
        scenario_ = std::move(scenario);
        policy_ = std::move(policy);
    }
    sim::Executor& start() {
        if (ready_) std::exchange(ready_, nullptr)(scenario_, policy_);
        return *share_;
    }

private:
    sim::Executor own_;
    sim::Executor* share_ = &own_;
    Ready ready_;
    std::string scenario_, policy_;
};

// Plays cfg.games games on cfg.threads threads, the share of them `games` plays: trace(i, p)
// fills p with game i's p_0 .. p_T. Stopped (Ctrl-C, engine/stop.hpp), the tally holds the
// games before the first one unfinished. `empty`: the tally's kind (solo) and estimator
// (rollouts, 0 when exact).
template <class Trace>
ChunkedResult<Tally> run_traces(const Config& cfg, Sampler& games, const Tally& empty,
                                const Trace& trace) {
    RunConfig rc;
    rc.playouts = cfg.games;
    rc.seed = cfg.seed;
    rc.threads = cfg.threads;
    rc.chunk_size = 1;  // a game a chunk: long games, prompt stops
    RunControl ctl;
    ctl.stop = &g_stop_requested;
    ctl.progress = cfg.progress;
    sim::Executor& share = games.start();
    Traced blank;
    blank.tally = empty;
    blank.keep = share.mode() == sim::Executor::Mode::shard;
    std::atomic<std::uint64_t> kept{0};  // the p's a shard keeps, all games together
    auto r = share.play_chunks(
        0, rc, blank,
        [&](Dice&, std::uint64_t first, std::uint64_t count, Traced& acc) {
            std::vector<double> p;
            for (std::uint64_t i = first; i < first + count; ++i) {
                trace(i, p);
                if (acc.keep && kept.fetch_add(p.size()) + p.size() > kMaxShardValues)
                    refuse_long_shard();
                acc.add(p);
            }
        },
        ctl);
    return {std::move(r.tally.tally), r.partial, r.chunks, r.seconds};
}

// A resumable game (engine/decision.hpp) played step by step: `turn_of(s)` names the step a
// state is in (its turn), and p_t is value(s, t) at the first decision point of each step; the
// last p is score(s) at the end (seat 0's result in [0, 1], or a solo game's success).
template <class G, class A, class B, class TurnOf, class Value, class Score>
void trace_game(const typename G::Options& o, typename G::State s, A& a, B& b, Dice& dice,
                const TurnOf& turn_of, const Value& value, const Score& score,
                std::vector<double>& p) {
    p.clear();
    while (!G::over(s, o)) {
        p.push_back(value(s, p.size()));
        const auto t = turn_of(s);
        do {
            const auto c =
                G::to_move(s, o) == 0 ? G::decide(s, o, a, dice) : G::decide(s, o, b, dice);
            G::apply(s, o, c, dice);
        } while (!G::over(s, o) && turn_of(s) == t);
    }
    p.push_back(score(s));
}

// The rollout estimator: the mean score of n games played on from s by copies of the seats'
// policies, rollout r on Dice(stream_seed(seed, r)). Its standard error is at most
// 0.5 / sqrt(n). Looks at the stop flag before every rollout.
template <class G, class A, class B, class Score>
double rollout_value(const typename G::Options& o, const typename G::State& s, const A& a0,
                     const B& b0, int n, std::uint64_t seed, const Score& score) {
    A a = a0;
    B b = b0;
    double sum = 0;
    for (int r = 0; r < n; ++r) {
        throw_if_stop_requested();
        typename G::State c = s;
        Dice dice(stream_seed(seed, static_cast<std::uint64_t>(r)));
        odds::play_from<G>(c, o, dice, a, b);
        sum += score(c);
    }
    return sum / n;
}

// Game i traced with the rollout estimator: the seats' concrete policies a0, b0 (a solo game:
// the same twice), from start(dice), the state its first step begins in (rolled on game i's dice).
template <class G, class A, class B, class Start, class TurnOf, class Score>
void rollout_trace(const typename G::Options& o, const Start& start, const A& a0, const B& b0,
                   const Config& cfg, std::uint64_t i, const TurnOf& turn_of, const Score& score,
                   std::vector<double>& p) {
    Dice dice(stream_seed(cfg.seed, i));
    A a = a0;
    B b = b0;
    const auto value = [&](const typename G::State& s, std::size_t t) {
        return rollout_value<G>(o, s, a0, b0, cfg.rollouts, rollout_seed(cfg.seed, i, t), score);
    };
    trace_game<G>(o, start(dice), a, b, dice, turn_of, value, score, p);
}

// Game i traced with exact values: value(s) is p at s.
template <class G, class A, class B, class Start, class TurnOf, class Value, class Score>
void exact_trace(const typename G::Options& o, const Start& start, const A& a0, const B& b0,
                 const Config& cfg, std::uint64_t i, const TurnOf& turn_of, const Value& value,
                 const Score& score, std::vector<double>& p) {
    Dice dice(stream_seed(cfg.seed, i));
    A a = a0;
    B b = b0;
    throw_if_stop_requested();
    trace_game<G>(
        o, start(dice), a, b, dice, turn_of,
        [&](const typename G::State& s, std::size_t) { return value(s); }, score, p);
}

// --estimator exact, where p can only be estimated (`why`: for the message): a UsageError.
inline void refuse_exact(const Config& cfg, const std::string& game, const std::string& why) {
    if (cfg.force_exact)
        throw UsageError("--estimator exact: " + game + " has no exact odds along a game (" + why +
                         "); valid: rollouts");
}

// What the estimator is, for the report's header.
inline std::string rollout_estimator(const Config& cfg) {
    return std::to_string(cfg.rollouts) +
           " rollouts a step of the seats' own policies (standard error at most " +
           std::to_string(0.5 / std::sqrt(static_cast<double>(cfg.rollouts))).substr(0, 5) + ")";
}

// The trace of game i by rollouts (rollout_trace) under the seats' policies, each seat a variant
// of the game's policy types, visited once a game: a solo game's one policy plays both parts.
// What it refers to (o, the seats, start, turn_of, score) outlives the trace: run_traces's call.
template <class G, class Policy, std::size_t N, class Start, class TurnOf, class Score>
auto rollout_traces(const typename G::Options& o, const std::array<Policy, N>& seats,
                    const Start& start, const TurnOf& turn_of, const Score& score,
                    const Config& cfg) {
    static_assert(N == 1 || N == 2);
    return [&o, &seats, &start, &turn_of, &score, &cfg](std::uint64_t i, std::vector<double>& p) {
        std::visit(
            [&](const auto& a, const auto& b) {
                rollout_trace<G>(o, start, a, b, cfg, i, turn_of, score, p);
            },
            seats[0], seats[N - 1]);
    };
}

// The report of a game without exact odds along it (`game`: its name, for --estimator exact's
// refusal): p estimated by rollouts of the seats' own policies (rollout_traces), a solo game's or
// a two-seat game's tally. What most games' shape is: start (Dice& -> the game's state at step
// 0), turn_of (the step of a state) and score (p of a finished game) are all that differ.
template <class G, class Policy, std::size_t N, class Start, class TurnOf, class Score>
void rollout_report(ShapeReport& rep, const Config& cfg, Sampler& games, const std::string& game,
                    const typename G::Options& o, const std::array<Policy, N>& seats,
                    const Start& start, const TurnOf& turn_of, const Score& score) {
    refuse_exact(cfg, game, "no solver");
    Tally empty;
    empty.solo = N == 1;
    empty.rollouts = cfg.rollouts;
    rep.estimator = rollout_estimator(cfg);
    auto r = run_traces(cfg, games, empty, rollout_traces<G>(o, seats, start, turn_of, score, cfg));
    rep.tally = std::move(r.tally);
    rep.partial = r.partial;
}

}  // namespace odds::shape
