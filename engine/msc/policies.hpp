// Minimal Space Combat policies: a design doctrine and a strategy, named design/strategy (M2, M9:
// policies see the whole board).
//
//   strategies  expand  the nearest systems not yet ours, a third of the fleet guarding home
//               rush    everything in one stack to the enemy home
//               raid    detachments of two ships against the enemy's systems
//               random  every legal choice at random (builds, merges, splits, moves, losses,
//                       retreats)
//               wander  a random heading every turn (random up to msc/4)
//               strike  expand until 1.5 times the enemy's ships, then strike at its home
//               sneak   one ship at the enemy home, the rest holding home (beats a rush)
//               mcts    UCT tree search (policies/mcts.hpp) for the side's win probability over
//                       which of the rollout strategy, expand, rush, raid, strike, sneak and
//                       hold (every fleet home) orders its fleets from each turn on, against a
//                       model of the opponent read off the board, rolling out
//                       H turns ahead (DOCTRINE/mcts[:N[:C[:H]]][:rollout=STRATEGY[/LOSS]]; Mcts
//                       below)
//   every strategy but random and wander retreats from a fight it is losing badly (strength, the
//   sum over its ships there of offence plus defence, below half the enemy's); wander retreats
//   on a 6. All but random build by their plan (M2a) and merge every fleets sharing a hex (M5a).
//   loss rules (M7: the defender's policy picks the losses; the strategy's third part):
//               cheap-first  lose the cheapest ships first (the default)
//               keep-guns    lose the ships with the least offence first
//               keep-speed   lose the slowest ships first (the fleet's ENGINE, M5, stays high)
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <variant>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "policies/mcts.hpp"
#include "policies/policy_table.hpp"

namespace odds::msc {

// M7d: which of a side's ships is lost first. Ties go to the cheaper design, then the main one.
enum class LossRule { cheap_first, keep_guns, keep_speed };

// Costs and offence are the campaign's (M2: ShipRules, the options ships.*).
inline int pick_loss(LossRule rule, const Plan& plan, const Counts& present,
                     const ShipRules& r = kBookShips) {
    auto key = [&](int d) {
        const Design& x = plan.design[d];
        switch (rule) {
            case LossRule::keep_guns:
                return x.offence(r) * 100 + x.cost(r);
            case LossRule::keep_speed:
                return x.engine * 100 + x.cost(r);
            default:
                return x.cost(r);
        }
    };
    int best = -1;
    for (int d = 0; d < kMaxDesigns; ++d)
        if (present[d] > 0 && (best < 0 || key(d) < key(best))) best = d;
    return best < 0 ? 0 : best;
}

namespace strategy {

// What every strategy but random does with the decisions besides movement and retreat: builds
// by its plan (M2a: the plan's next ship as soon as it is affordable, else save; M4), merges
// every two of its fleets that share a hex (M5a), and loses ships by its loss rule (M7d).
struct Losses {
    LossRule loss = LossRule::cheap_first;
    template <class Dice>
    int lose(const State& s, int side, const Counts& present, Dice&) const {
        return pick_loss(loss, s.plan[side], present, s.ship_rules);
    }
    template <class Dice>
    Design build(const State& s, int side, Dice&) const {
        const int next = detail::plan_next(s, side);
        return s.bp[side] >= s.cost(side, next) ? s.design(side, next) : Design{};
    }
    template <class Dice>
    std::array<int, 2> merge(const State& s, int side, Dice&) const {
        return detail::first_pair(s, side);
    }
};

// Strength in a fight: the sum over a side's ships there of offence plus defence.
inline int strength(const State& s, int side, const hex::Hex& h) {
    const Counts c = s.present(side, h);
    int t = 0;
    for (int d = 0; d < kMaxDesigns; ++d) t += c[d] * (s.offence(side, d) + s.defence(side, d));
    return t;
}

inline bool losing_badly(const State& s, int side, const hex::Hex& h) {
    return 2 * strength(s, side, h) < strength(s, 1 - side, h);
}

// The retreat of every strategy but random and wander: from a fight it is losing badly (M7),
// where the side can retreat (M7c, M7e).
struct Steady : Losses {
    template <class Dice>
    bool retreat(const State& s, int side, const hex::Hex& h, Dice&) {
        return losing_badly(s, side, h) && detail::can_retreat(s, side, h);
    }
};

// About k of a fleet's ships to detach, each design in proportion (M5a).
inline Counts share_of(const Fleet& f, int k) {
    const int total = f.ships();
    Counts out{};
    if (total <= 0) return out;
    int left = k;
    for (int d = kMaxDesigns - 1; d > 0; --d) {
        const auto u = static_cast<std::size_t>(d);
        out[u] = std::min({f.n[u], left, (k * f.n[u] + total / 2) / total});
        left -= out[u];
    }
    out[0] = std::min(f.n[0], left);
    left -= out[0];
    for (int d = 1; d < kMaxDesigns && left > 0; ++d) {  // the main design ran short
        const auto u = static_cast<std::size_t>(d);
        const int more = std::min(left, f.n[u] - out[u]);
        out[u] += more;
        left -= more;
    }
    return out;
}

// The nearest of the systems `wanted` accepts (given a system's claim, State::claim), as its
// index; -1: none. Ties go to the system nearer the enemy home, then to the first: the least
// key distance << 8 | distance from the enemy home, then the least index. The least key is found
// by a loop without a branch over the systems' coordinates and claims a column each, in 16-bit
// lanes the compiler vectorizes (distances on a map of kMaxMapSide are below 128, so a key is
// below 0x7fff), then the first system with that key.
template <class Wanted>
int nearest_system(const State& s, int side, const hex::Hex& from, Wanted wanted) {
    static_assert(kMaxMapSide <= 64, "distances below 128: a key fits 15 bits");
    constexpr std::int16_t kNone = 0x7fff;  // above every key
    const auto& e = s.from_home[1 - side];
    const int n = s.n_sys;
    const auto q = static_cast<std::int16_t>(from.q), r = static_cast<std::int16_t>(from.r);
    std::array<std::int16_t, kMaxSystems> key;
    std::int16_t best = kNone;
    for (int i = 0; i < n; ++i) {
        // The distance: the largest of the cube coordinates' differences, either sign.
        const auto dq = static_cast<std::int16_t>(s.sys_q[i] - q),
                   dr = static_cast<std::int16_t>(s.sys_r[i] - r),
                   ds = static_cast<std::int16_t>(-dq - dr);
        const std::int16_t d =
            std::max({dq, dr, ds, static_cast<std::int16_t>(-dq), static_cast<std::int16_t>(-dr),
                      static_cast<std::int16_t>(-ds)});
        const auto refused = static_cast<std::int16_t>(-std::int16_t{!wanted(s.claim[i])} & kNone);
        key[i] = static_cast<std::int16_t>(d << 8 | e[i] | refused);
        best = std::min(best, key[i]);
    }
    if (best == kNone) return -1;
    int i = 0;
    while (key[i] != best) ++i;
    return i;
}

// The nearest system `side` does not own (not the enemy home unless nothing else is left).
// Ties go to the system nearer the enemy home: the same rule for both sides, whatever the map's
// row order (breaking ties by row order gave the side whose home lies lower on the map the
// contested middle first).
inline hex::Hex nearest_unowned(const State& s, int side, const hex::Hex& from) {
    const unsigned own = static_cast<unsigned>(side);
    int best = nearest_system(s, side, from, [&](unsigned c) { return (c != own) & (c < 4); });
    if (best < 0) best = nearest_system(s, side, from, [&](unsigned c) { return (c & 3) != own; });
    return best < 0 ? s.home[1 - side] : s.sys[best].pos;
}

// The nearest system the enemy owns (its home last), else the nearest unowned one; ties as above.
inline hex::Hex nearest_enemy(const State& s, int side, const hex::Hex& from) {
    const unsigned enemy = static_cast<unsigned>(1 - side);
    const int best = nearest_system(s, side, from, [&](unsigned c) { return c == enemy; });
    return best < 0 ? nearest_unowned(s, side, from) : s.sys[best].pos;
}

// The home guard of `expand` and `strike`: a third of all the side's ships (at least one).
inline int guard(const State& s, int side) { return std::max(1, (s.afloat[side] + 2) / 3); }

// The ships `side` has at its home (of its s.afloat[side] in all).
inline int at_home(const State& s, int side) {
    const Counts c = s.present(side, s.home[side]);
    return std::accumulate(c.begin(), c.end(), 0);
}

// A fleet sitting on a system it is capturing stays until the system is ours.
inline bool capturing(const State& s, int side, const hex::Hex& at) {
    const int i = s.system_at(at);
    return i >= 0 && s.sys[i].home_of < 0 && s.sys[i].owner != side;
}

struct Expand : Steady {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[side][i];
        const hex::Hex home = s.home[side];
        if (f.pos == home) {  // guard home with a third of all the side's ships; send the rest out
            Orders o{home, {}, {}};
            if (const int spare = f.ships() - guard(s, side); spare > 0 && spare < f.ships()) {
                o.detach = share_of(f, spare);
                o.detach_target = nearest_unowned(s, side, home);
            }
            return o;
        }
        if (capturing(s, side, f.pos)) return {f.pos, {}, {}};
        return {nearest_unowned(s, side, f.pos), {}, {}};
    }
};

// Strike: expand until ahead, then go for the throat. While the side has fewer than 1.5 times
// the enemy's ships it plays `expand`; once it has, every fleet but the home guard heads for the
// enemy home.
struct Strike : Steady {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice& dice) {
        if (2 * s.afloat[side] < 3 * s.afloat[1 - side]) return Expand{}.orders(s, side, i, dice);
        const Fleet& f = s.fleets[side][i];
        const hex::Hex home = s.home[side];
        const hex::Hex enemy = s.home[1 - side];
        if (const int spare = f.ships() - guard(s, side);
            f.pos == home && spare > 0 && spare < f.ships())
            return {home, share_of(f, spare), enemy};
        return {f.pos == home ? home : enemy, {}, {}};
    }
};

struct Rush : Steady {
    template <class Dice>
    Orders orders(const State& s, int side, int, Dice&) {
        return {s.home[1 - side], {}, {}};
    }
};

// Sneak: one ship at the enemy home, the rest holding its own. The answer to a rush: the rushing
// stack must win the fight at this home (where the defender cannot retreat, M7c) just to draw,
// while one ship ending a turn alone in an empty enemy home wins (M8). The home fleet sends one
// ship off whenever none of the side's fleets is away; a fleet away heads for the enemy home.
struct Sneak : Steady {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[side][i];
        const hex::Hex home = s.home[side];
        if (f.pos != home) return {s.home[1 - side], {}, {}};
        const bool away = at_home(s, side) < s.afloat[side];  // a fleet is out
        if (!away && f.ships() > 1) return {home, share_of(f, 1), s.home[1 - side]};
        return {home, {}, {}};
    }
};

// Hold: every fleet home, and there it stays (a plan of mcts's, against a lone raider).
struct Hold : Steady {
    template <class Dice>
    Orders orders(const State& s, int side, int, Dice&) {
        return {s.home[side], {}, {}};
    }
};

struct Raid : Steady {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[side][i];
        if (capturing(s, side, f.pos) && f.ships() <= 2) return {f.pos, {}, {}};
        Orders o{nearest_enemy(s, side, f.pos), {}, {}};
        if (f.ships() > 2) {  // peel off two ships against the enemy's systems
            o.detach = share_of(f, 2);
            o.detach_target = o.target;
            o.target = nearest_unowned(s, side, f.pos);
        }
        return o;
    }
};

// Every legal choice at every decision, uniformly (M2b: any design, or save; any merge or split;
// any hex in reach; any ship lost; retreat or not): it explores all the rules allow.
struct Random : Losses {
    template <class Dice>
    Choice choose(const State&, const Choice* legal, int n, Dice& dice) const {
        return legal[uniform_int(n, dice)];
    }
};

// Wander: random up to rules version msc/4: a random heading every turn; retreats on a 6.
struct Wander : Losses {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice& dice) {
        const Fleet& f = s.fleets[side][i];
        hex::Hex t = f.pos;
        const int facing = dice.d6() - 1;
        for (int k = 0; k < 8; ++k) t = hex::neighbour(t, facing);
        return {t, {}, {}};
    }
    // (The die is rolled also where the side cannot retreat, M7c, M7e, as up to msc/5, so its
    // campaigns without ENGINE-0 ships replay.)
    template <class Dice>
    bool retreat(const State& s, int side, const hex::Hex& h, Dice& dice) {
        return dice.d6() == 6 && detail::can_retreat(s, side, h);
    }
};

}  // namespace strategy

// The strategies that do not search: what mcts may roll out with.
using Basic = std::variant<strategy::Expand, strategy::Rush, strategy::Raid, strategy::Random,
                           strategy::Strike, strategy::Wander, strategy::Sneak, strategy::Hold>;

// The campaign as mcts searches it (policies/mcts.hpp): a plan a turn. Each decision point is
// the searching side's first fleet orders of a movement phase (M5), where it chooses the
// strategy that orders its fleets this turn among a few (Options::plans: [0] the rollout
// strategy, then expand, rush, raid, strike, sneak and hold, with its loss rule). A plan chosen
// is kept to the end of the descent (legal offers only it once chosen, and the rollout plays
// it): a plan pays off over turns (sneak's raider reaches the enemy home on turn 6), and a tree
// that re-chose it every turn would average every switch into its value. Every other decision
// of the campaign, the opponent's all, is played inside apply: the side's orders by its plan,
// the opponent's by its model (Options::opponent), and both sides' builds, merges, losses and
// retreats by the rollout strategy. Cut short `horizon` turns past the decision (Options::
// rules.max_turns), a campaign is scored by the heuristic below instead of as a draw; one
// reaching the campaign's own turn cap (Options::max_turns) is the draw it is (M8).
struct Search {
    static constexpr int kMaxPlans = 7;
    struct Options {
        msc::Options rules;   // max_turns: the horizon; initiative: the campaign's (M4a)
        int max_turns = 300;  // the campaign's own turn cap (M8)
        int seat = 0;         // the searching side
        std::array<Basic, kMaxPlans> plans{};
        int n_plans = 1;
        int opponent = 0;  // the plan that orders the opponent's fleets (its model)
    };
    struct State {
        msc::State campaign;
        std::array<int, kSides> plan{};  // the searching side's plan (the opponent's unused: 0)
        bool planned = false;            // the searching side has chosen its plan
    };
    using Choice = std::int8_t;  // a plan
    static constexpr int kMaxChoices = kMaxPlans;
    // The rollout: the plan of the rollout strategy, every turn.
    struct Rollout {};

    // Where the searching side chooses its plan: its first fleet orders of a movement phase.
    static bool plans_here(const msc::State& s, int seat) noexcept {
        if (s.stage != Stage::orders || s.to_move != seat) return false;
        for (const bool m : s.moved)
            if (m) return false;
        return true;
    }
    static bool over(const State& s, const Options& o) noexcept {
        return Game::over(s.campaign, o.rules);
    }
    static int to_move(const State& s, const Options&) noexcept { return s.campaign.to_move; }
    static int legal(const State& s, const Options& o, Choice* out) noexcept {
        if (s.planned) {  // a plan chosen is kept to the end of the descent
            out[0] = static_cast<Choice>(s.plan[o.seat]);
            return 1;
        }
        const int n = std::clamp(o.n_plans, 1, kMaxPlans);  // (and GCC sees out[] is not overrun)
        for (int k = 0; k < n; ++k) out[k] = static_cast<Choice>(k);
        return n;
    }
    // The strategy answering the campaign's decision at `s`, for the searching side planning
    // `plan`.
    static const Basic& strategy(const msc::State& s, const Options& o,
                                 const std::array<int, kSides>& plan) noexcept {
        if (s.stage != Stage::orders) return o.plans[0];
        return s.to_move == o.seat ? o.plans[plan[s.to_move]] : o.plans[o.opponent];
    }
    static bool decides(const msc::State& s, const Options& o) noexcept {
        return s.to_move == o.seat && plans_here(s, s.to_move);
    }
    // The plan chosen, then the campaign played on to the side's next plan, or its end.
    template <class Dice>
    static void apply(State& s, const Options& o, const Choice& c, Dice& dice) {
        msc::State& x = s.campaign;
        s.plan[x.to_move] = c;
        s.planned = true;
        do {
            const msc::Choice answer = std::visit(
                [&](const auto& p) {
                    auto asked = p;  // a strategy decides as a mutable object
                    return Game::decide(x, o.rules, asked, dice);
                },
                strategy(x, o, s.plan));
            Game::apply(x, o.rules, answer, dice);
        } while (!Game::over(x, o.rules) && !decides(x, o));
    }
    template <class Dice>
    static Choice decide(const State& s, const Options&, const Rollout&, Dice&) {
        return static_cast<Choice>(s.plan[s.campaign.to_move]);
    }
    // A side's worth, for a campaign cut short: the BPs of its ships afloat (their designs' cost,
    // M2), its BPs saved, and ten turns of its systems' production (production.bp_per_system a
    // system owned, M4).
    static int worth(const msc::State& s, int side, const msc::Options& rules) noexcept {
        int bp = s.bp[side] + 10 * rules.bp_per_system * s.owned(side);
        for (const Fleet& f : s.fleets[side])
            for (int d = 0; d < kMaxDesigns; ++d) bp += f.n[d] * s.cost(side, d);
        return bp;
    }
    // A win 1, a draw 0.5, a loss 0 (Game::reward); cut short by the horizon: the seat's share of
    // both sides' worth.
    static double reward(const State& s, const Options& o, int seat) noexcept {
        const msc::State& x = s.campaign;
        if (x.end != msc::State::kTurnCap || x.turn >= o.max_turns)
            return Game::reward(x, o.rules, seat);
        const int mine = worth(x, seat, o.rules), theirs = worth(x, 1 - seat, o.rules);
        return mine + theirs > 0 ? static_cast<double>(mine) / (mine + theirs) : 0.5;
    }
};

// UCT over a plan a turn (Search), maximising the side's win probability (draws half): at its
// first fleet orders of each movement phase the side searches which strategy orders its fleets
// from this turn on, N iterations, each playing that plan against the opponent's model
// (opponent_model, below) for `horizon` turns past the current one (0: to the end), a
// campaign cut short scored by its worth (Search::reward); the next turn it searches afresh.
// Its other decisions (builds, merges, losses, retreats) are the rollout strategy's. The raw
// questions (311 designs to build, up to 91 hexes a fleet may end in) are far wider than any budget
// can weigh: each is answered by a strategy, as a question with more than N/4 choices is in the
// other games; so is the plan itself when N is below 4 x the plans (the rollout strategy then
// orders every turn). Perfect information (M9): no sampling; the dice open-loop. Its plan for the
// movement phase under way is the one state it keeps between decisions: set at the phase's first
// fleet orders, read by the phase's other fleets' orders.
struct Mcts : odds::Mcts<Search, Search::Rollout> {
    // `rollout`: an index into kRollouts (below).
    Mcts(int iterations, double exploration, Basic rollout, int horizon_turns,
         const msc::Options& o)
        : odds::Mcts<Search, Search::Rollout>(iterations, exploration, {}), horizon(horizon_turns) {
        // The campaign's rules, every rule option (combat, production, capture...): the search
        // plays the game being measured; max_turns is then its horizon.
        options.rules = o;
        options.rules.max_turns = options.max_turns = o.max_turns;
        options.plans[0] = rollout;
        const LossRule loss = std::visit([](const auto& p) { return p.loss; }, rollout);
        const auto add = [&]<class S>(S other) {
            other.loss = loss;
            if (!std::holds_alternative<S>(rollout))
                options.plans[static_cast<std::size_t>(options.n_plans++)] = other;
        };
        add(strategy::Expand{});
        add(strategy::Rush{});
        add(strategy::Raid{});
        add(strategy::Strike{});
        sneak_plan = std::holds_alternative<strategy::Sneak>(rollout) ? 0 : options.n_plans;
        add(strategy::Sneak{});
        add(strategy::Hold{});
    }
    int sneak_plan = 0;

    // The opponent's plan as the search assumes it, read off the board (M9: it is all in view):
    // an enemy keeping at least half of its ships at home is played as `sneak` (whose lone
    // raider the searcher must not leave its home open to); otherwise, and on the first turn,
    // before the enemy has shown anything, as the rollout strategy (default rush).
    int opponent_model(const msc::State& s) const noexcept {
        const int e = 1 - s.to_move;
        return s.turn > 1 && 2 * strategy::at_home(s, e) >= s.afloat[e] ? sneak_plan : 0;
    }
    int horizon = 10;
    Search::Options options;         // no map: the search never reads it (only the turn cap, M4a)
    std::array<int, kSides> plan{};  // this movement phase's plan

    template <class D>
    msc::Choice choose(const msc::State& s, const msc::Choice*, int, D& dice) {
        if (Search::plans_here(s, s.to_move)) {
            plan[s.to_move] = 0;
            if (options.n_plans <= iterations() / 4) {
                options.seat = s.to_move;
                options.opponent = opponent_model(s);
                options.rules.max_turns = horizon == 0
                                              ? options.max_turns
                                              : std::min(options.max_turns, s.turn + horizon);
                plan[s.to_move] = search(Search::State{s, {}}, options, dice);
            }
        }
        return std::visit(
            [&](const auto& p) {
                auto asked = p;
                return Game::decide(s, options.rules, asked, dice);
            },
            Search::strategy(s, options, plan));
    }
};

static_assert(odds::ResumableGame<Search, odds::Dice>);

using Strategy = std::variant<strategy::Expand, strategy::Rush, strategy::Raid, strategy::Random,
                              strategy::Strike, strategy::Wander, strategy::Sneak, Mcts>;

// Every strategy plays the kernel's policy interface.
static_assert(every_alternative<Strategy>([]<class P> { return PolicyFor<P, odds::Dice>; }));
static_assert(PolicyFor<Mcts, ScriptedDice>);

// A seat: its design doctrine (its ships, M2a) and its strategy (movement, losses, retreat).
struct Policy {
    Doctrine doctrine = Doctrine::balanced;
    Strategy strategy;
};

// M2a: a doctrine's plan: its design at 15 BP, escorts of its design at 10 BP.
inline Design doctrine_main(Doctrine d) { return doctrine_design(d, 15); }
inline Design doctrine_escort(Doctrine d) { return doctrine_design(d, 10); }

// A policy is three parts, each from its own table of name, help and what it makes; the policy
// table below is every combination of them. Adding a strategy is one row of kStrategyRows.
struct DoctrineRow {
    std::string_view name;
    std::string_view help;
    Doctrine doctrine;
};
inline constexpr DoctrineRow kDoctrineRows[] = {
    {"balanced", "balanced", Doctrine::balanced},
    {"glass-cannon", "all-offence", Doctrine::glass_cannon},
    {"turtle", "all-shield", Doctrine::turtle},
    {"fast", "fast", Doctrine::fast},
};

// A strategy with the loss rule `loss`.
template <class S>
Strategy with_losses(LossRule loss) {
    S s;
    s.loss = loss;
    return s;
}
inline constexpr PolicyRow<Strategy (*)(LossRule)> kStrategyRows[] = {
    {"expand", "take the nearest systems, a third guarding home", with_losses<strategy::Expand>},
    {"rush", "one stack straight at the enemy home", with_losses<strategy::Rush>},
    {"raid", "two-ship detachments against the enemy's systems", with_losses<strategy::Raid>},
    {"random",
     "every legal choice at random: any design or saving, any merge or split, any hex in reach, "
     "any loss, retreat or not",
     with_losses<strategy::Random>},
    {"strike",
     "expand until 1.5 times the enemy's ships, then all but the home guard at the enemy home",
     with_losses<strategy::Strike>},
    {"wander", "a random heading every turn, retreating on a 6 (random up to msc/4)",
     with_losses<strategy::Wander>},
    {"sneak", "one ship at the enemy home, the rest holding home", with_losses<strategy::Sneak>},
};

struct LossRow {
    std::string_view name;
    std::string_view help;
    LossRule rule;
};
inline constexpr LossRow kLossRows[] = {
    {"cheap-first", "losing the cheapest ships first", LossRule::cheap_first},
    {"keep-guns", "losing the ships with the least offence first", LossRule::keep_guns},
    {"keep-speed", "losing the slowest ships first", LossRule::keep_speed},
};
inline constexpr int kLossRules = static_cast<int>(std::size(kLossRows));

// mcts's rollout strategies: every strategy of kStrategyRows but mcts with every loss rule, named
// as the table names them (strategy, strategy/loss-rule), in kStrategyRows x kLossRows order.
inline constexpr std::string_view kRollouts[] = {"expand", "expand/keep-guns", "expand/keep-speed",
                                                 "rush",   "rush/keep-guns",   "rush/keep-speed",
                                                 "raid",   "raid/keep-guns",   "raid/keep-speed",
                                                 "random", "random/keep-guns", "random/keep-speed",
                                                 "strike", "strike/keep-guns", "strike/keep-speed",
                                                 "wander", "wander/keep-guns", "wander/keep-speed",
                                                 "sneak",  "sneak/keep-guns",  "sneak/keep-speed"};
static_assert(std::size(kRollouts) == std::size(kStrategyRows) * std::size(kLossRows));
inline constexpr std::int64_t kRushRollout = 3;  // rush, losing the cheapest ships first

// DOCTRINE/mcts[:N[:C[:H]]][:rollout=STRATEGY[/LOSS]]: N iterations (default 100), exploration
// C, H turns of rollout past the current one (default 10; 0: to the end), the rollout strategy
// (default rush: the strongest rule of thumb, and so the most dangerous opponent to assume).
inline constexpr PolicyParam kMctsParams[] = {{"N", "iterations", 1, 1'000'000, 100},
                                              odds::mcts_c_param(),
                                              {"H", "turns", 0, 1000, 10},
                                              odds::mcts_rollout_param(kRollouts, kRushRollout)};

// The rollout strategy named kRollouts[k].
inline Basic rollout_strategy(std::size_t k) {
    const std::size_t losses = std::size(kLossRows);
    return narrow_policy<Basic>(kStrategyRows[k / losses].make(kLossRows[k % losses].rule));
}

// What a row of the policy table makes: a seat's doctrine, and its strategy with its loss rule,
// or (search) mcts with the row's parameters.
struct PolicyRecipe {
    Doctrine doctrine;
    Strategy (*strategy)(LossRule);
    LossRule loss;
    bool search = false;
    Policy operator()(const Options& o, const PolicyArgs& a) const {
        if (!search) return {doctrine, strategy(loss)};
        return {doctrine,
                Mcts(static_cast<int>(a[0]), static_cast<double>(a[1]) / 100,
                     rollout_strategy(static_cast<std::size_t>(a[3])), static_cast<int>(a[2]), o)};
    }
};

inline constexpr std::size_t kPolicyCount =
    std::size(kDoctrineRows) * std::size(kStrategyRows) * std::size(kLossRows) +
    std::size(kDoctrineRows);

// The policies in `odds list` order: the default first, then every (doctrine, strategy, loss rule)
// in that nesting, named design/strategy (losing the cheapest ships first) or
// design/strategy/loss-rule, then design/mcts for each doctrine. The default, turtle/strike, plays
// its mirror to a decision in most campaigns on the seed's map (expand never attacks, so the old
// default, balanced/expand, always reached the turn cap; the balanced/strike mirror does in more
// than half of them).
inline const std::array<PolicyRow<PolicyRecipe>, kPolicyCount>& policy_table() {
    static const auto rows = [] {
        struct Parts {
            std::size_t doctrine, strategy, loss;
        };
        constexpr std::size_t kCombinations = kPolicyCount - std::size(kDoctrineRows);
        constexpr Parts kDefault{2, 4, 0};  // turtle/strike
        std::array<Parts, kCombinations> parts{};
        std::size_t k = 0;
        parts[k++] = kDefault;
        for (std::size_t d = 0; d < std::size(kDoctrineRows); ++d)
            for (std::size_t st = 0; st < std::size(kStrategyRows); ++st)
                for (std::size_t l = 0; l < std::size(kLossRows); ++l)
                    if (d != kDefault.doctrine || st != kDefault.strategy || l != kDefault.loss)
                        parts[k++] = {d, st, l};
        static std::array<std::string, kPolicyCount> names, helps;
        std::array<PolicyRow<PolicyRecipe>, kPolicyCount> out{};
        const auto ships = [](const DoctrineRow& d) {
            return std::string(d.help) + " ships (" + to_string(doctrine_main(d.doctrine)) +
                   ", escorts " + to_string(doctrine_escort(d.doctrine)) + "); ";
        };
        for (k = 0; k < kCombinations; ++k) {
            const DoctrineRow& d = kDoctrineRows[parts[k].doctrine];
            const auto& st = kStrategyRows[parts[k].strategy];
            const LossRow& l = kLossRows[parts[k].loss];
            // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "/" + std::string(...)
            names[k].append(d.name).append("/").append(st.name);
            if (parts[k].loss) names[k].append("/").append(l.name);
            helps[k] = ships(d) + std::string(st.help) + "; " + std::string(l.help);
            out[k] = {names[k], helps[k], {d.doctrine, st.make, l.rule}};
        }
        for (std::size_t d = 0; d < std::size(kDoctrineRows); ++d, ++k) {
            const DoctrineRow& doc = kDoctrineRows[d];
            names[k].append(doc.name).append("/mcts");
            helps[k] = ships(doc) +
                       "UCT tree search for the side's win probability (draws half) over a plan "
                       "a turn (which of expand, rush, raid, strike and the rollout strategy "
                       "orders its fleets this turn): N iterations, exploration C, rolling out the "
                       "named strategy on both sides (its model of the opponent) H turns past the "
                       "current one (0: to the end; cut short: scored by the side's share of "
                       "ships' BPs, BPs saved and ten turns' production); its builds, merges, "
                       "losses and retreats are the rollout strategy's";
            out[k] = {names[k],
                      helps[k],
                      {doc.doctrine, with_losses<strategy::Strike>, LossRule::cheap_first, true},
                      kMctsParams};
        }
        return out;
    }();
    return rows;
}

}  // namespace odds::msc
