// Monte Carlo tree search (UCT) over any resumable game (engine/decision.hpp): one implementation
// for every game, the policy `mcts[:N[:C]][:rollout=NAME]` (issue 15).
//
// What it does at a decision point, N times (N iterations):
//   1. copy the state, and let the searching seat sample what it cannot see (the game's optional
//      G::determinize(s, o, seat, dice) hook; absent, the state is used as it is);
//   2. descend the tree by UCT: at each node, the first legal choice not yet tried is expanded
//      (tried in the order G::legal lists them, or the policy's Candidates, below); once all
//      are, the child with the highest
//      mean + C * sqrt(ln(node visits) / child visits) is taken (the first of equals);
//   3. from the new node, play to the end with the rollout policy in both seats (G::decide);
//   4. back up G::reward(end, o, seat) into every node on the path, each node scored for the
//      seat that chose its edge: so two-seat games maximise their win probability, draws half.
// The choice played is the root's most visited child (equal visits: the higher mean, then the
// first listed).
//
// Chance: the dice are rolled afresh on every descent (G::apply rolls them). Where the game's
// State has operator== (and the game does not ask for open loop with `static constexpr bool
// kOpenLoop = true`, as a game with determinize should: its sampled positions differ by the
// cards it cannot see, so they would never meet in one node), chance is closed-loop: below each
// choice, one outcome node per position the dice led to, so the search converges to the game's
// exact values (as OpenSpiel's chance nodes). Otherwise open-loop: a node is a sequence of choices,
// its statistics averaging over the dice that led to it. Either way the legal choices, and even the
// seat to move, may differ between descents through one node (hidden information, open-loop); a
// choice node is keyed by (seat, choice) and only the children legal in this descent's position
// compete.
//
// Nodes come from one pool per thread and node type, grown the first time a budget needs more
// (2N + 1 nodes) and reused by every later decision: no heap allocation per decision or playout.
// The search draws only from the game's dice, so results depend only on the seed.
//
// A stop request (Ctrl-C, SIGTERM: engine/stop.hpp) is looked at every kStopCheckEvery
// iterations; once set, search throws StopRequested and the game in hand is abandoned (the
// runner drops its chunk), so a stop is honoured within a few iterations, not a whole game.
#pragma once

#include <cmath>
#include <concepts>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "engine/decision.hpp"
#include "engine/stop.hpp"
#include "policies/policy_info.hpp"
#include "policies/policy_table.hpp"

namespace odds {

// The searching seat's sample of what it cannot see (hidden cards): the game's own
// G::determinize(s, o, seat, dice) where it has one, else nothing (perfect information).
template <class G, class Dice>
void determinize(typename G::State& s, const typename G::Options& o, int seat, Dice& dice) {
    if constexpr (requires { G::determinize(s, o, seat, dice); }) G::determinize(s, o, seat, dice);
}

// Whether G asks search to treat chance open-loop (see the header comment).
template <class G>
constexpr bool open_loop() {
    if constexpr (requires { G::kOpenLoop; })
        return G::kOpenLoop;
    else
        return false;
}

template <class T>
inline constexpr bool kIsVariant = false;
template <class... T>
inline constexpr bool kIsVariant<std::variant<T...>> = true;

// Plays from `s` to the end with `rollout` in every seat; a std::variant is visited once.
template <class G, class Dice, class R>
void rollout_from(typename G::State& s, const typename G::Options& o, Dice& dice, R& rollout) {
    if constexpr (kIsVariant<R>)
        std::visit([&](auto& p) { play_from<G>(s, o, dice, p, p); }, rollout);
    else
        play_from<G>(s, o, dice, rollout, rollout);
}

// A policy variant narrowed to the alternatives a rollout may use (the game's policies that do
// not search): how a game's mcts factory turns a table row into its rollout policy.
template <class To, class From>
To narrow_policy(const From& policy) {
    return std::visit(
        [](const auto& p) -> To {
            if constexpr (std::is_constructible_v<To, decltype(p)>)
                return To(p);
            else
                throw std::logic_error("this policy cannot be a rollout policy");
        },
        policy);
}

// What a game's `mcts` row makes (M: the game's search policy; Basic: its rollout policies): N
// and C from the row's arguments, the rollout the policy of row a[2] of the game's table `rows`,
// then `extra` (what the game's policy keeps besides: Bodybag's options).
template <class M, class Basic, class Rows, class Options, class... Extra>
M make_search(const Rows& rows, const Options& o, const PolicyArgs& a, const Extra&... extra) {
    return M(static_cast<int>(a[0]), static_cast<double>(a[1]) / 100,
             narrow_policy<Basic>(rows[static_cast<std::size_t>(a[2])].make(o, PolicyArgs{})),
             extra...);
}

struct NoState {};

// A tree node. Under closed-loop chance (below) two kinds alternate: a choice node (an edge:
// seat, choice and the rewards backed up for that seat) and, under it, an outcome node per
// position the dice led to from there (holding that position). Open-loop: choice nodes only.
template <class Choice, class Held>
struct MctsNode {
    Choice choice{};           // a choice node's edge
    std::int32_t parent = -1;  // the root: -1
    std::int32_t first_child = -1, next_sibling = -1;
    std::int32_t seat = -1;  // who chose the edge (-1: an outcome node, or the root)
    std::uint32_t visits = 0;
    double total = 0;                    // the rewards backed up, for `seat`
    [[no_unique_address]] Held state{};  // an outcome node's position (closed-loop)
};

// The thread's node pool for this node type (see the header comment).
template <class Node>
std::vector<Node>& mcts_pool() {
    static thread_local std::vector<Node> pool;
    return pool;
}

// The search. G: a ResumableGame; Rollout: a policy of G's (or a std::variant of them) that
// G::decide can ask. A game wraps search() in its own policy interface (race: choose()).
//
// Chance: closed-loop where G::State is equality-comparable (operator==): after a choice and
// the dice it is followed by, the search continues from the outcome node of the position reached
// (one per distinct position, as OpenSpiel's chance nodes), so the tree's statistics converge
// to the exact values of the game. Otherwise open-loop (the header comment).
// Which of a position's legal choices search weighs: all of them (G::legal), unless the policy
// names a subset, as a game whose questions have more answers than a budget can try does
// (Bodybag's leader orders: the candidates its flat Monte Carlo weighs). A Candidates type lists
// them with `int operator()(const State&, const Options&, Choice* out, Dice&)`, every one legal.
template <class G>
struct AllLegal {
    template <class Dice>
    int operator()(const typename G::State& s, const typename G::Options& o,
                   typename G::Choice* out, Dice&) const {
        return G::legal(s, o, out);
    }
};

template <class G, class Rollout, class Candidates = AllLegal<G>>
class Mcts {
public:
    using State = typename G::State;
    using Options = typename G::Options;
    using Choice = typename G::Choice;
    static_assert(std::equality_comparable<Choice>);
    static constexpr bool kClosedLoop = std::equality_comparable<State> && !open_loop<G>();
    using Node = MctsNode<Choice, std::conditional_t<kClosedLoop, State, NoState>>;

    Mcts(int iterations, double exploration, Rollout rollout, Candidates candidates = {})
        : iterations_(iterations),
          c_(exploration),
          rollout_(std::move(rollout)),
          candidates_(std::move(candidates)) {}

    int iterations() const noexcept { return iterations_; }
    double exploration() const noexcept { return c_; }
    const Rollout& rollout() const noexcept { return rollout_; }

    // The choice for the seat to move at `root` (a decision point, not over).
    template <class Dice>
    Choice search(const State& root, const Options& o, Dice& dice) {
        Choice legal[G::kMaxChoices];
        const int n_root = G::legal(root, o, legal);
        if (n_root == 1) return legal[0];  // nothing to weigh
        const int me = G::to_move(root, o);
        auto& pool = mcts_pool<Node>();
        // At most a choice node and an outcome node per iteration.
        const std::size_t need = 2 * static_cast<std::size_t>(iterations_) + 1;
        if (pool.capacity() < need) pool.reserve(need);  // once per thread and high mark
        pool.clear();
        pool.push_back(Node{});

        for (int it = 0; it < iterations_; ++it) {
            throw_if_stop_requested(it);  // a stop abandons the game (engine/stop.hpp)
            State s = root;
            determinize<G>(s, o, me, dice);
            std::int32_t node = 0;
            bool expanded = false;
            while (!G::over(s, o) && !expanded) {
                const int seat = G::to_move(s, o);
                const int n = candidates_(s, o, legal, dice);
                std::int32_t best = -1;
                double best_score = 0;
                const double log_n = std::log(static_cast<double>(pool[node].visits) + 1);
                for (int i = 0; i < n; ++i) {
                    std::int32_t child = pool[node].first_child;
                    while (child >= 0 &&
                           !(pool[child].seat == seat && pool[child].choice == legal[i]))
                        child = pool[child].next_sibling;
                    if (child < 0) {  // untried here: expand it
                        Node fresh;
                        fresh.choice = legal[i];
                        fresh.seat = seat;
                        best = add_child(pool, node, fresh);
                        expanded = true;
                        break;
                    }
                    const Node& c = pool[child];
                    const double score =
                        c.total / c.visits + c_ * std::sqrt(log_n / static_cast<double>(c.visits));
                    if (best < 0 || score > best_score) {
                        best = child;
                        best_score = score;
                    }
                }
                G::apply(s, o, pool[best].choice, dice);
                node = best;
                if constexpr (kClosedLoop) {  // on to the outcome node of the position reached
                    std::int32_t out = pool[node].first_child;
                    while (out >= 0 && !(pool[out].state == s)) out = pool[out].next_sibling;
                    if (out < 0) {
                        Node fresh;
                        fresh.state = s;
                        out = add_child(pool, node, fresh);
                        expanded = true;
                    }
                    node = out;
                }
            }
            if (!G::over(s, o)) rollout_from<G>(s, o, dice, rollout_);
            for (std::int32_t k = node; k >= 0; k = pool[k].parent) {
                ++pool[k].visits;
                if (pool[k].seat >= 0)
                    pool[k].total += static_cast<double>(G::reward(s, o, pool[k].seat));
            }
        }

        // The root's most visited legal child of `me` (equal visits: the higher mean, then the
        // first listed). Candidates a policy names were listed from the root itself: its
        // children, in the order they were tried.
        Choice chosen = legal[0];
        std::uint32_t most = 0;
        double mean = -1;
        const auto consider = [&](const Node& x, bool on_ties) {
            if (x.seat != me || x.visits == 0) return;
            const double m = x.total / x.visits;
            if (x.visits > most || (x.visits == most && (m > mean || (on_ties && m == mean)))) {
                chosen = x.choice;
                most = x.visits;
                mean = m;
            }
        };
        if constexpr (std::is_same_v<Candidates, AllLegal<G>>) {
            const int n = G::legal(root, o, legal);
            for (int i = 0; i < n; ++i)
                for (std::int32_t c = pool[0].first_child; c >= 0; c = pool[c].next_sibling)
                    if (pool[c].choice == legal[i]) consider(pool[c], false);
        } else {
            // Children are listed newest first: on full ties the one tried first wins.
            for (std::int32_t c = pool[0].first_child; c >= 0; c = pool[c].next_sibling)
                consider(pool[c], true);
        }
        return chosen;
    }

    // After search(): the root's statistics of `choice` for the searching seat (tests, tools).
    struct Stats {
        std::uint32_t visits = 0;
        double mean = 0;
    };
    static Stats root_stats(const Choice& choice) {
        const auto& pool = mcts_pool<Node>();
        if (pool.empty()) return {};
        for (std::int32_t c = pool[0].first_child; c >= 0; c = pool[c].next_sibling)
            if (pool[c].choice == choice)
                return {pool[c].visits, pool[c].visits ? pool[c].total / pool[c].visits : 0.0};
        return {};
    }
    static std::size_t nodes_used() { return mcts_pool<Node>().size(); }

private:
    static std::int32_t add_child(std::vector<Node>& pool, std::int32_t parent, Node fresh) {
        fresh.parent = parent;
        fresh.next_sibling = pool[static_cast<std::size_t>(parent)].first_child;
        const auto index = static_cast<std::int32_t>(pool.size());
        pool[static_cast<std::size_t>(parent)].first_child = index;
        pool.push_back(fresh);  // within the reserved capacity: no allocation
        return index;
    }

    int iterations_;
    double c_;
    Rollout rollout_;
    Candidates candidates_;
};

// What a game's policy table declares for `mcts`: N and C by position, rollout by name (its
// choices: the game's policies that do not search, the table's first rows in order).
inline constexpr std::int64_t kMctsDefaultIterations = 1000;
inline constexpr std::int64_t kMctsDefaultC = 141;  // sqrt(2), UCB1's, in hundredths
inline constexpr PolicyParam mcts_iterations_param() {
    return {"N", "iterations", 1, 1'000'000, kMctsDefaultIterations};
}
inline constexpr PolicyParam mcts_c_param() {
    return {"C", "exploration", 0, 10000, kMctsDefaultC, 2};
}
inline constexpr PolicyParam mcts_rollout_param(std::span<const std::string_view> rollouts,
                                                std::int64_t fallback) {
    return {"rollout", "policy", 0, 0, fallback, 0, rollouts};
}

}  // namespace odds
