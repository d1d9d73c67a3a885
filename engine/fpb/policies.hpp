// Full Plastic Bodybag leader strategies. Each is a rule of thumb a player would recognise; all
// carry every wounded marine they can and bug out once nobody is left out in the open.
//
//   bug-out          leave Ice-cube: bug out at once, every turn until it works
//   cover-and-carry  covering fire from the men in cover, then send the nearest man for the wounded
//   smoke-and-carry  smoke on the wounded marine's area, then send the nearest man in
//   lead-from-front  the Lt goes for the wounded himself
//   bravest-first    send the highest-Guts man, one area a turn, nothing else
//   random           uniform over the legal choices
//   rollout[:N]      flat Monte Carlo: each turn, every candidate order (and the bug-out call)
//                    played out N times with cover-and-carry, the best kept
//   mcts             UCT tree search (policies/mcts.hpp) for the most marines withdrawn, over
//                    rollout's candidate orders (orders=all: every legal order)
#pragma once

#include <array>
#include <variant>

#include "engine/dice.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/stop.hpp"
#include "policies/mcts.hpp"
#include "policies/policy_table.hpp"

namespace odds::fpb {

// The wounded marine to rescue first: Ice-cube, else in roster order; only out of cover. -1:
// none.
inline int rescue_target(const State& s) {
    for (int w = 0; w < kSquad; ++w)
        if (s.m[w].wounded() && s.m[w].area < s.cover()) return w;
    return -1;
}

// The fit marine (not the Lt) to send to `area`: the nearest, ties to the higher Guts; or, with
// `bravest`, the highest Guts (the game's nerve, Options::nerve: guts.NAME, and the lowest under
// guts.succeeds=at_or_over). -1: none.
inline int rescuer(const State& s, int area, bool bravest, const std::array<int, kSquad>& guts) {
    int best = -1;
    for (int i = 0; i < kSquad; ++i) {
        const Marine& x = s.m[i];
        if (i == kLt || !x.fit()) continue;
        if (best < 0) {
            best = i;
            continue;
        }
        const Marine& b = s.m[best];
        const int d = std::abs(x.area - area), bd = std::abs(b.area - area);
        if (bravest ? guts[i] > guts[best] : (d < bd || (d == bd && guts[i] > guts[best])))
            best = i;
    }
    return best;
}

// Every carry the rules allow this turn, Ice-cube first.
inline CarryPlan all_carries(const State& s) {
    CarryPlan plan = no_carries();
    std::array<bool, kSquad> taken{};
    for (int c = 0; c < kSquad; ++c)
        for (int w = 0; w < kSquad; ++w)
            if (!taken[w] && can_carry(s, c, w)) {
                plan[c] = static_cast<std::int8_t>(w);
                taken[w] = true;
                break;
            }
    return plan;
}

// Nobody left out in the open: no wounded and no fit marine out of cover.
inline bool all_back(const State& s) {
    for (const auto& x : s.m)
        if (x.on_board() && x.area < s.cover()) return false;
    return true;
}

// Time to go: everyone is back, or the Lt is down and no fit man is forward (nobody can give
// orders and nobody is near a wounded man: the rescue is over).
inline bool time_to_go(const State& s) {
    if (all_back(s)) return true;
    if (s.lt_commands()) return false;
    for (const auto& x : s.m)
        if (x.fit() && x.area < s.cover()) return false;
    return true;
}

// Move `marine` one area toward `area`: by order if the Lt reaches him, else the Lt closes in.
inline Order send(const State& s, int marine, int area) {
    const Marine& x = s.m[marine];
    if (x.area == area) return Order::none();
    if (marine != kLt && !s.in_reach(x.area))
        return Order{}.move(kLt, x.area < s.lt().area ? -1 : +1);
    return Order{}.move(marine, area < x.area ? -1 : +1);
}

// Everyone fit out of cover that the Lt reaches (the Lt too) moves one area back; a man forward
// out of reach brings the Lt one area toward him.
inline Order fall_back(const State& s) {
    Order o;
    bool beyond = false;
    for (int i = 0; i < kSquad; ++i) {
        const Marine& x = s.m[i];
        if (!x.fit() || x.area == s.cover()) continue;
        if (s.in_reach(x.area))
            o.move(i, +1);
        else
            beyond = true;
    }
    if (o.kind == Order::kNone && beyond) o.move(kLt, -1);
    return o;
}

// The shape every carrying strategy shares: carry all, bug out when all are back, fall back once
// nobody waits for rescue; `rescue` decides the leader's order while someone does.
template <class Rescue>
struct Carrying {
    std::array<int, kSquad> guts = kBookOptions.guts;  // whom it sends: the game's nerve (H1, H2)
    static Carrying of(const Options& o) {
        Carrying c;
        for (int i = 0; i < kSquad; ++i) c.guts[static_cast<std::size_t>(i)] = o.nerve(i);
        return c;
    }
    template <class Dice>
    Order leader(const State& s, Dice&) {
        const int w = rescue_target(s);
        return w < 0 ? fall_back(s) : Rescue::order(s, s.m[w].area, guts);
    }
    template <class Dice>
    CarryPlan carries(const State& s, Dice&) {
        return (s.barred & Options::kBarCarry) ? no_carries() : all_carries(s);  // H3a
    }
    template <class Dice>
    bool bug_out(const State& s, Dice&) {
        return time_to_go(s);
    }
};

struct CoverRescue {
    static Order order(const State& s, int area, const std::array<int, kSquad>& guts) {
        const int r = rescuer(s, area, false, guts);
        std::uint8_t quiet = 0;  // men in cover within reach who are not firing yet
        bool firing = false;
        for (int i = 0; i < kSquad; ++i) {
            const Marine& x = s.m[i];
            firing = firing || (x.fit() && x.firing);
            if (i != kLt && i != r && x.fit() && !x.firing && x.area == s.cover() &&
                s.in_reach(s.cover()))
                quiet = static_cast<std::uint8_t>(quiet | (1u << i));
        }
        if (!firing && quiet && !order_barred(s, Order::kCover))  // H3a: else straight on
            return Order::cover(quiet);
        return r < 0 ? send(s, kLt, area) : send(s, r, area);
    }
};

struct SmokeRescue {
    static Order order(const State& s, int area, const std::array<int, kSquad>& guts) {
        const int r = rescuer(s, area, false, guts);
        if (s.smoke[area] <= 1 && s.in_reach(area) && s.can_smoke()) return Order::smoke(area);
        // Firers behind smoke risk friendly fire on the men in it: halt them.
        std::uint8_t firers = 0;
        bool someone_in_smoke = false;
        for (int i = 0; i < kSquad; ++i) {
            const Marine& x = s.m[i];
            if (i != kLt && x.fit() && x.firing && x.area >= 2 && s.in_reach(x.area))
                firers = static_cast<std::uint8_t>(firers | (1u << i));
            someone_in_smoke = someone_in_smoke || (x.fit() && s.smoke[x.area] > 0);
        }
        if (firers && someone_in_smoke && !order_barred(s, Order::kHalt))  // H3a
            return Order::halt(firers);
        if (!s.in_reach(area)) return Order{}.move(kLt, area < s.lt().area ? -1 : +1);
        return r < 0 ? send(s, kLt, area) : send(s, r, area);
    }
};

struct LeadRescue {
    static Order order(const State& s, int area, const std::array<int, kSquad>&) {
        return send(s, kLt, area);
    }
};

struct BraveRescue {
    static Order order(const State& s, int area, const std::array<int, kSquad>& guts) {
        const int r = rescuer(s, area, true, guts);
        return r < 0 ? send(s, kLt, area) : send(s, r, area);
    }
};

using CoverAndCarry = Carrying<CoverRescue>;
using SmokeAndCarry = Carrying<SmokeRescue>;
using LeadFromFront = Carrying<LeadRescue>;
using BravestFirst = Carrying<BraveRescue>;

struct BugOut {
    template <class Dice>
    Order leader(const State& s, Dice&) {
        return s.lt().area < s.cover() ? fall_back(s) : Order::none();
    }
    template <class Dice>
    CarryPlan carries(const State&, Dice&) {
        return no_carries();
    }
    template <class Dice>
    bool bug_out(const State&, Dice&) {
        return true;
    }
};

// A uniform choice among n (1..36) with d6 rolls, by rejection: exactly fair.
template <class Dice>
int uniform(int n, Dice& dice) {
    if (n <= 1) return 0;
    if (n <= 6) {
        for (;;)
            if (const int r = dice.d6(); r <= n) return r - 1;
    }
    const int limit = 36 - 36 % n;
    for (;;) {
        const int r = (dice.d6() - 1) * 6 + dice.d6() - 1;
        if (r < limit) return r % n;
    }
}

// Uniform over the legal choices: an action kind among the legal ones, then its targets (each
// eligible marine in or out with probability 1/2, each mover's direction uniform); each possible
// carry tried with probability 1/2; the bug-out called with probability 1/2.
struct Random {
    template <class Dice>
    Order leader(const State& s, Dice& dice) {
        std::array<std::uint8_t, 5> kinds{};
        int n = 0;
        kinds[n++] = Order::kNone;
        if (s.can_smoke()) kinds[n++] = Order::kSmoke;  // his own area is always in reach
        std::uint8_t cover = 0, halt = 0, move = 0;
        for (int i = 0; i < kSquad; ++i) {
            const Marine& x = s.m[i];
            if (!x.fit() || !s.in_reach(x.area)) continue;
            move = static_cast<std::uint8_t>(move | (1u << i));
            if (i == kLt) continue;
            if (x.firing)
                halt = static_cast<std::uint8_t>(halt | (1u << i));
            else
                cover = static_cast<std::uint8_t>(cover | (1u << i));
        }
        // H3a: never a barred kind (smoke: can_smoke)
        if (cover && !order_barred(s, Order::kCover)) kinds[n++] = Order::kCover;
        if (halt && !order_barred(s, Order::kHalt)) kinds[n++] = Order::kHalt;
        if (move && !order_barred(s, Order::kMove)) kinds[n++] = Order::kMove;
        auto subset = [&](std::uint8_t from) {
            std::uint8_t who = 0;
            for (int i = 0; i < kSquad; ++i)
                if (((from >> i) & 1) && dice.d6() <= 3)
                    who = static_cast<std::uint8_t>(who | (1u << i));
            return who;
        };
        switch (kinds[static_cast<std::size_t>(uniform(n, dice))]) {
            case Order::kSmoke: {
                std::array<int, kMaxAreas> areas{};
                int k = 0;
                for (int a = 1; a <= s.areas; ++a)
                    if (s.in_reach(a)) areas[k++] = a;
                return Order::smoke(areas[static_cast<std::size_t>(uniform(k, dice))]);
            }
            case Order::kCover:
                return Order::cover(subset(cover));
            case Order::kHalt:
                return Order::halt(subset(halt));
            case Order::kMove: {
                Order o;
                const std::uint8_t who = subset(move);
                for (int i = 0; i < kSquad; ++i) {
                    if (!((who >> i) & 1)) continue;
                    const int a = s.m[i].area;
                    o.move(i, a == 1 ? +1 : a == s.areas ? -1 : (dice.d6() <= 3 ? -1 : +1));
                }
                return o;
            }
            default:
                return Order::none();
        }
    }
    // Each man who could carry tries with probability 1/2, then takes one of the men he could
    // carry (and nobody before him does) uniformly: every plan of carries has a chance (H5).
    template <class Dice>
    CarryPlan carries(const State& s, Dice& dice) {
        CarryPlan plan = no_carries();
        if (s.barred & Options::kBarCarry) return plan;  // H3a
        std::array<bool, kSquad> taken{};
        for (int c = 0; c < kSquad; ++c) {
            std::array<int, kSquad> can{};
            int k = 0;
            for (int w = 0; w < kSquad; ++w)
                if (!taken[w] && can_carry(s, c, w)) can[static_cast<std::size_t>(k++)] = w;
            if (k == 0 || dice.d6() > 3) continue;
            const int w = can[static_cast<std::size_t>(uniform(k, dice))];
            plan[c] = static_cast<std::int8_t>(w);
            taken[w] = true;
        }
        return plan;
    }
    template <class Dice>
    bool bug_out(const State&, Dice& dice) {
        return dice.d6() <= 3;
    }
    // H7a: with two wounded men in area 3, either goes first with probability 1/2.
    template <class Dice>
    int first_out(const State& s, Dice& dice) {
        const auto w = wounded_in_cover(s);
        if (w[1] < 0 || (s.barred & Options::kBarFirstOut)) return -1;  // H3a: H5a's order
        return w[static_cast<std::size_t>(uniform(2, dice))];
    }
};

// The orders a search weighs (flat Monte Carlo's and, by default, mcts's): none, each smoke in
// reach, the rule-of-thumb strategies' orders, falling back, and halting every firer; at most
// kCandidateOrders, some possibly alike. Returns how many.
inline constexpr int kCandidateOrders = 10 + kMaxAreas;
template <class D>
int candidate_orders(const State& s, std::array<Order, kCandidateOrders>& cand, D& dice,
                     const Options& o) {
    int n = 0;
    auto add = [&](const Order& order) {  // H3a: never a barred order
        if (n < kCandidateOrders && !order_barred(s, order.kind))
            cand[static_cast<std::size_t>(n++)] = order;
    };
    add(Order::none());
    for (int a = 1; a <= s.areas; ++a)
        if (s.in_reach(a) && s.can_smoke()) add(Order::smoke(a));
    add(CoverAndCarry::of(o).leader(s, dice));
    add(SmokeAndCarry::of(o).leader(s, dice));
    add(LeadFromFront::of(o).leader(s, dice));
    add(BravestFirst::of(o).leader(s, dice));
    add(fall_back(s));
    std::uint8_t firing = 0;
    for (int i = 1; i < kSquad; ++i)
        if (s.m[i].fit() && s.m[i].firing) firing = static_cast<std::uint8_t>(firing | (1u << i));
    if (firing) add(Order::halt(firing));
    return n;
}

// Flat Monte Carlo on the resumable form (Game): before each leader action it plays out every
// candidate order `budget` times (the order applied to a copy of the state, then the rest of the
// game with cover-and-carry), on the same dice for every candidate (common random numbers), and
// keeps the one that withdraws the most marines on average; the bug-out call is chosen the same
// way. The state is copied by value for every playout.
struct Rollout {
    int budget = 16;
    Options options;  // the game's options (the turn cap matters to a playout)

    template <class D>
    Order leader(const State& s, D& dice) {
        std::array<Order, kCandidateOrders> cand{};
        const int n = candidate_orders(s, cand, dice, options);
        CoverAndCarry base = CoverAndCarry::of(options);
        const std::uint64_t seed = dice.word();
        int best = 0;
        double best_score = -1;
        for (int c = 0; c < n; ++c) {
            Game::Choice choice;
            choice.order = cand[c];
            const double total = score(s, choice, base, seed);
            if (total > best_score) {
                best_score = total;
                best = c;
            }
        }
        return cand[best];
    }

    template <class D>
    CarryPlan carries(const State& s, D&) {
        return (s.barred & Options::kBarCarry) ? no_carries() : all_carries(s);  // H3a
    }

    template <class D>
    bool bug_out(const State& s, D& dice) {
        const std::uint64_t seed = dice.word();
        CoverAndCarry base = CoverAndCarry::of(options);
        Game::Choice stay, go;
        go.bug_out = true;
        return score(s, go, base, seed) > score(s, stay, base, seed);
    }

private:
    // Marines withdrawn in `budget` games: `choice` played at `s`, the rest of the game with
    // the base policy, game k on the dice of stream k (the same for every candidate).
    template <class Base>
    double score(const State& s, const Game::Choice& choice, Base& base, std::uint64_t seed) const {
        double total = 0;
        for (int k = 0; k < budget; ++k) {
            throw_if_stop_requested(k);  // a stop abandons the game (engine/stop.hpp)
            odds::Dice inner(stream_seed(seed, static_cast<std::uint64_t>(k)));
            State t = s;
            Game::apply(t, options, choice, inner);
            odds::play_from<Game>(t, options, inner, base, base);
            total += outcome_of(t).withdrawn;
        }
        return total;
    }
};

// The policies that do not search: what mcts may roll out with (the table's first rows, in
// order).
using Basic =
    std::variant<CoverAndCarry, BugOut, SmokeAndCarry, LeadFromFront, BravestFirst, Random>;
inline constexpr std::string_view kRollouts[] = {
    "cover-and-carry", "bug-out", "smoke-and-carry", "lead-from-front", "bravest-first", "random"};

// What mcts weighs at each question: at the leader's, the candidate orders (flat Monte Carlo's,
// each once), or with `all` every legal order; at the others every legal choice (plans of
// carries, the bug-out call and, H7a, who goes first).
struct SearchChoices {
    bool all = false;
    template <class D>
    int operator()(const State& s, const Options& o, Game::Choice* out, D& dice) const {
        if (all || s.phase != State::kLeader) return Game::legal(s, o, out);
        std::array<Order, kCandidateOrders> cand{};
        const int k = candidate_orders(s, cand, dice, o);
        int n = 0;
        for (int i = 0; i < k; ++i) {
            bool seen = false;
            for (int j = 0; j < n && !seen; ++j)
                seen = out[j].order == cand[static_cast<std::size_t>(i)];
            if (seen) continue;
            out[n] = Game::Choice{};
            out[n++].order = cand[static_cast<std::size_t>(i)];
        }
        return n;
    }
};

// What mcts maximises (goal=...): the marines withdrawn, wounded ones included, as a share of
// the squad (the default: the seed's "as many marines as possible", H7, H8; leaving wounded men
// behind costs it only the men left), a clean game (nobody left behind or killed, H8), or
// Ice-cube brought home (H8).
enum class Goal { withdrawn, clean, icecube };
inline constexpr std::string_view kGoals[] = {"withdrawn", "clean", "icecube"};

// The game as mcts searches it: Game, scored by the goal the options carry.
struct GoalGame : Game {
    struct Options : fpb::Options {
        Goal goal = Goal::withdrawn;
    };
    static double reward(const State& s, const Options& o, int seat) noexcept {
        switch (o.goal) {
            case Goal::clean:
                return outcome_of(s).outcome == Outcome::kClean ? 1.0 : 0.0;
            case Goal::icecube:
                return s.m[kIceCube].status == kOut ? 1.0 : 0.0;
            default:
                return Game::reward(s, o, seat);
        }
    }
};

// UCT over the game's decision points (policies/mcts.hpp), rolling out with one of the Basic
// policies, maximising its goal (GoalGame). At the leader's question it weighs flat Monte
// Carlo's candidate orders (SearchChoices), or with orders=all every legal one: then the tree
// tries a node's choices in the order Game::legal lists them, so a budget below the leader's
// number of orders (up to 2,255) weighs only the first ones (none, smoke, covering fire, halts,
// then moves).
struct Mcts : odds::Mcts<GoalGame, Basic, SearchChoices> {
    Mcts(int iterations, double exploration, Basic rollout, const fpb::Options& o,
         bool all_orders = false, Goal goal = Goal::withdrawn)
        : odds::Mcts<GoalGame, Basic, SearchChoices>(iterations, exploration, std::move(rollout),
                                                     SearchChoices{all_orders}) {
        static_cast<fpb::Options&>(options) = o;
        options.goal = goal;
    }
    // The game's options (Game's questions need them; the policy interface has none), and the
    // goal.
    GoalGame::Options options;

    template <class D>
    Order leader(const State& s, D& dice) {
        return search(s, options, dice).order;
    }
    template <class D>
    CarryPlan carries(const State& s, D& dice) {
        return search(s, options, dice).carry;
    }
    template <class D>
    bool bug_out(const State& s, D& dice) {
        call_ = search(s, options, dice);
        return call_.bug_out;
    }
    // H7a: asked right after bug_out, at the same decision point: that search's choice.
    template <class D>
    int first_out(const State&, D&) {
        return call_.first_out;
    }

private:
    Game::Choice call_{};
};

using Policy = std::variant<BugOut, CoverAndCarry, SmokeAndCarry, LeadFromFront, BravestFirst,
                            Random, Rollout, Mcts>;

Policy make_mcts(const Options& o, const PolicyArgs& a);
inline constexpr std::string_view kMctsOrders[] = {"candidates", "all"};
inline constexpr PolicyParam kMctsParams[] = {
    odds::mcts_iterations_param(),
    odds::mcts_c_param(),
    odds::mcts_rollout_param(kRollouts, 0),
    {"orders", "leader's orders weighed", 0, 0, 0, 0, kMctsOrders},
    {"goal", "what the search maximises", 0, 0, 0, 0, kGoals}};

// rollout[:N]: N playouts of each candidate.
inline constexpr PolicyParam kRolloutParams[] = {{"N", "playouts per candidate", 1, 100000, 16}};

// A carrying strategy made for the game's options (it sends men by their Guts).
template <class T>
Policy carrying(const Options& o, const PolicyArgs&) {
    return T::of(o);
}

// The policies, the default first: name, help and factory.
inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
    {"cover-and-carry",
     "covering fire from the men in cover, then the nearest man goes for the wounded",
     carrying<CoverAndCarry>},
    {"bug-out", "leave Ice-cube: bug out at once, every turn until it works", made<BugOut>},
    {"smoke-and-carry",
     "smoke on the wounded marine's area (halting firers behind it), then the nearest man goes in",
     carrying<SmokeAndCarry>},
    {"lead-from-front", "the Lt goes for the wounded himself", carrying<LeadFromFront>},
    {"bravest-first", "the highest-Guts man goes for the wounded, one area a turn",
     carrying<BravestFirst>},
    {"random", "uniform over the legal choices", made<Random>},
    {"rollout",
     "flat Monte Carlo over each turn's candidate orders and the bug-out call; "
     "rollout:N plays each N times (default 16)",
     [](const Options& o, const PolicyArgs& a) -> Policy {
         return Rollout{static_cast<int>(a[0]), o};
     },
     kRolloutParams},
    {"mcts",
     "UCT tree search for the most marines withdrawn: N iterations, exploration C, rolling out "
     "with the named policy, weighing rollout's candidate orders (orders=all: every legal one); "
     "goal=clean or goal=icecube maximises clean games or Ice-cube rescued instead",
     make_mcts, kMctsParams},
};
inline constexpr auto kPolicyInfos = infos_of(kPolicies);

// Every policy the table can make plays the kernel's policy interface.
static_assert(every_alternative<Policy>([]<class P> { return PolicyFor<P, odds::Dice>; }));
static_assert(PolicyFor<Mcts, ScriptedDice> && ChoosesFirstOut<Mcts, odds::Dice>);
static_assert(std::size(kRollouts) == std::variant_size_v<Basic>);
static_assert(odds::ResumableGame<Game, odds::Dice> && odds::ResumableGame<Game, ScriptedDice>);
static_assert(odds::ResumableGame<GoalGame, odds::Dice>);

inline Policy make_mcts(const Options& o, const PolicyArgs& a) {
    return make_search<Mcts, Basic>(kPolicies, o, a, o, a[3] == 1, static_cast<Goal>(a[4]));
}

}  // namespace odds::fpb
