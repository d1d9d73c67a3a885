#include "engine/dimension_duel/exact.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "engine/dimension_duel/equilibrium.hpp"
#include "engine/stop.hpp"
#include "reports/csv.hpp"

namespace odds::exact::dimension_duel {

using namespace odds::dimension_duel;

namespace {

// A turn's dice under the options (D4, D5): sums[n][t] = P(n dice awarded total t), n = 0..9
// (D4 gives at most 3 in the book), each die's law from damage.die; mult[i] the multiplier of i
// Intensifiers.
struct Damage {
    std::array<std::vector<double>, kMaxDice + 1> sums;
    std::array<int, 3> mult{1, 2, 4};
    explicit Damage(const Options& o)
        : sums(damage_laws(o)), mult{o.multiplier(0), o.multiplier(1), o.multiplier(2)} {}
};

// Outcome classes of a turn's functions: 0 = nothing rolled (a Disruptor); else dice per side,
// multiplier and deflection.
constexpr int kClasses = 1 + kOutcomes;
int class_of(const Resolution& r) { return r.disrupted ? 0 : 1 + outcome_index(r); }
Resolution resolution_of(int cls) {
    Resolution r;
    if (cls == 0) {
        r.disrupted = true;
        return r;
    }
    int c = cls - 1;
    r.deflected = c % 2;
    c /= 2;
    r.intensifiers = c % 3;
    c /= 3;
    r.defender_dice = c % 4;
    r.attacker_dice = c / 4;
    return r;
}
// Does this class ever deal damage? (Dice totals are at least 1 a die.)
bool stays(int cls) {
    const Resolution r = resolution_of(cls);
    return r.disrupted || (r.attacker_dice == 0 && r.defender_dice == 0);
}

// Calls f(damage to Tau, damage to Kaon, probability) for every dice outcome of a class.
template <class F>
void for_each_damage(const Damage& dm, int cls, Seat attacker, F&& f) {
    Resolution r = resolution_of(cls);
    r.multiplier = dm.mult[static_cast<std::size_t>(r.intensifiers)];
    if (r.disrupted) {
        f(0, 0, 1.0);
        return;
    }
    const auto& sa = dm.sums[static_cast<std::size_t>(r.attacker_dice)];
    const auto& sd = dm.sums[static_cast<std::size_t>(r.defender_dice)];
    for (std::size_t x = 0; x < sa.size(); ++x) {
        if (sa[x] == 0) continue;
        for (std::size_t y = 0; y < sd.size(); ++y) {
            if (sd[y] == 0) continue;
            const int ta = static_cast<int>(x) * r.multiplier,
                      td = static_cast<int>(y) * r.multiplier;
            // D5: deflected, each total hits its roller; else the other side.
            const int to_attacker = r.deflected ? ta : td, to_defender = r.deflected ? td : ta;
            const int to_tau = attacker == kTau ? to_attacker : to_defender;
            const int to_kaon = attacker == kTau ? to_defender : to_attacker;
            f(to_tau, to_kaon, sa[x] * sd[y]);
        }
    }
}

// mcts states no laws: the solvers refuse it, one line.
void refuse_search(const Policy& p, const char* what) {
    if (std::holds_alternative<odds::dimension_duel::Mcts>(p))
        throw UsageError(std::string("dimension-duel: ") + what +
                         " needs policies that state their choices as probabilities; mcts "
                         "searches (valid: dice, aggressor, survivor, calibrator, best-response, "
                         "equilibrium)");
}

// The laws of a policy variant (never mcts: refuse_search).
struct Laws {
    const Policy& p;
    template <class F>
    auto of(F&& law) const {
        return std::visit(
            [&](const auto& x) {
                if constexpr (SolvablePolicy<std::decay_t<decltype(x)>>)
                    return law(x);
                else
                    return decltype(law(DicePolicy{})){};
            },
            p);
    }
    ParticleLaw particle(const View& v) const {
        return of([&](const auto& x) { return x.particle_law(v); });
    }
    RegionLaw region(const View& v, int ray, int shield) const {
        return of([&](const auto& x) { return x.region_law(v, ray, shield); });
    }
    FunctionLaw function(const View& v, const Calibration& c) const {
        return of([&](const auto& x) { return x.function_law(v, c); });
    }
};

struct Space {
    int h;
    explicit Space(int hp) : h(hp) {}
    int states() const { return h * h * 2; }
    int index(int ht, int hk, Seat attacker) const {
        return ((ht - 1) * h + (hk - 1)) * 2 + attacker;
    }
    View view(const Options& o, int ht, int hk, Seat me, bool attacking) const {
        const int mine = me == kTau ? ht : hk, theirs = me == kTau ? hk : ht;
        return View{me, attacking, mine, theirs, 0, 0, &o};
    }
};

// class_table(o)[calibration][fa][fd]: the outcome class of every turn (D3-D5), computed once a
// solve (the dice awarded are options).
using ClassTable =
    std::array<std::array<std::array<std::uint8_t, kFunctionCount>, kFunctionCount>, 36>;
static_assert(kClasses <= 256);
ClassTable class_table(const Options& o) {
    ClassTable t{};
    {
        for (int ray = 0; ray < 2; ++ray)
            for (int shield = 0; shield < 2; ++shield)
                for (int focus = 0; focus < 3; ++focus)
                    for (int region = 0; region < 3; ++region) {
                        const Calibration c{ray, shield, focus, region};
                        for (int i = 0; i < kFunctionCount; ++i)
                            for (int j = 0; j < kFunctionCount; ++j)
                                t[static_cast<std::size_t>(BestResponseTable::calibration_index(c))]
                                 [i][j] = static_cast<std::uint8_t>(class_of(resolve(
                                     c, static_cast<Function>(i), static_cast<Function>(j), o)));
                    }
    }
    return t;
}

// The probability of each outcome class in state (ht, hk, attacker) under two policies.
std::array<double, kClasses> class_law(const Options& o, const ClassTable& table, const Space& sp,
                                       int ht, int hk, Seat a, const Laws& la, const Laws& ld) {
    const Seat d = a == kTau ? kKaon : kTau;
    const View va = sp.view(o, ht, hk, a, true), vd = sp.view(o, ht, hk, d, false);
    std::array<double, kClasses> w{};
    const ParticleLaw pa = la.particle(va), pd = ld.particle(vd);
    for (int ray = 0; ray < 2; ++ray)
        for (int shield = 0; shield < 2; ++shield) {
            const double w1 = pa[ray] * pd[shield];
            if (w1 == 0) continue;
            const RegionLaw ra = la.region(va, ray, shield), rd = ld.region(vd, ray, shield);
            for (int focus = 0; focus < 3; ++focus)
                for (int region = 0; region < 3; ++region) {
                    const double w2 = w1 * ra[focus] * rd[region];
                    if (w2 == 0) continue;
                    const Calibration c{ray, shield, focus, region};
                    const FunctionLaw fa = la.function(va, c), fd = ld.function(vd, c);
                    const auto& classes =
                        table[static_cast<std::size_t>(BestResponseTable::calibration_index(c))];
                    for (std::size_t i = 0; i < kFunctionCount; ++i) {
                        if (fa[i] == 0) continue;
                        const double wi = w2 * fa[i];
                        for (std::size_t j = 0; j < kFunctionCount; ++j)
                            w[classes[i][j]] += wi * fd[j];
                    }
                }
        }
    return w;
}

// A turn's damage law from a state: P(Tau loses r hit points, Kaon loses k), r and k within
// 0..72 (D4, D5). It depends on the state only through the law of outcome classes the two
// policies give there, and the shipped policies give a handful of such laws over all the states
// (`dice` one a seat, `equilibrium` a few dozen), so each is built once and shared: the solver's
// memory follows the number of distinct laws, not the states, and the passes over the states
// read their laws from the cache.
// The most one turn can take from a player is Options::max_hit() (D4, D5: 3 dice x 6 x 4 in the
// book); the kernels' columns are bytes, so the solver takes up to 255 and refuses more.
constexpr int kMaxHit = 255;
constexpr int kMaxSpan = kMaxHit + 1;

struct Kernel {
    int rows = 0;  // r = 0..rows-1; row r's cells are [start[r], start[r + 1]) in Transitions
    std::array<std::uint32_t, kMaxSpan + 1> start{};
};

// Every state's turn: which kernel, and the chance that the duel ends in it. States are indexed
// by the seat attacking, then by cell(ht, hk).
struct Transitions {
    int h = 0;
    std::vector<Kernel> kernels;
    // The kernels' cells with a chance, row by row, each row in increasing k: P(r, k) = prob,
    // k = col.
    std::vector<std::uint8_t> col;
    std::vector<double> prob;
    std::array<std::vector<std::uint32_t>, 2> kernel_of;
    // P(Tau wins, Kaon wins, draw) in this turn: the cells that take a player to 0 (D6).
    std::array<std::vector<std::array<double, 3>>, 2> ends_now;

    std::size_t cell(int ht, int hk) const {
        return static_cast<std::size_t>((ht - 1) * h + (hk - 1));
    }
    std::uint32_t kernel_id(Seat a, int ht, int hk) const { return kernel_of[a][cell(ht, hk)]; }

    // f(p, target) for each cell that leaves both players standing; target is a state of the
    // other seat attacking. The cell r = k = 0 is the pair's other state: a turn without damage.
    template <class F>
    void for_each_step(Seat a, int ht, int hk, F&& f) const {
        const Kernel& kn = kernels[kernel_id(a, ht, hk)];
        const int rows = std::min(kn.rows, ht);
        for (int r = 0; r < rows; ++r)
            for (std::uint32_t e = kn.start[r]; e < kn.start[r + 1] && col[e] < hk; ++e)
                f(prob[e], cell(ht - r, hk - col[e]));
    }
    // f(kind, winner's hp, p) for each cell that ends the duel in this turn: kind 0 Tau wins,
    // 1 Kaon wins, 2 both fall (a draw, D6: hp 0).
    template <class F>
    void for_each_end(Seat a, int ht, int hk, F&& f) const {
        const Kernel& kn = kernels[kernel_id(a, ht, hk)];
        for (int r = 0; r < kn.rows; ++r) {
            std::uint32_t e = kn.start[r];
            if (r < ht) {  // only the cells with k >= hk end the duel: the row's last ones
                if (e == kn.start[r + 1] || col[kn.start[r + 1] - 1] < hk) continue;
                while (col[e] < hk) ++e;
            }
            for (; e < kn.start[r + 1]; ++e) {
                const int k = col[e];
                if (r < ht)
                    f(0, ht - r, prob[e]);
                else if (k < hk)
                    f(1, hk - k, prob[e]);
                else
                    f(2, 0, prob[e]);
            }
        }
    }
    // P(no damage): the turn leads to the pair's other state.
    double stay(Seat a, int ht, int hk) const {
        const Kernel& kn = kernels[kernel_id(a, ht, hk)];
        return kn.rows > 0 && kn.start[1] > kn.start[0] && col[kn.start[0]] == 0 ? prob[kn.start[0]]
                                                                                 : 0.0;
    }
};

// The damage law of an outcome-class law w with `a` attacking, normalised to sum to 1 as far as
// doubles allow (so the forward pass over thousands of turns loses no mass), appended to the
// cells.
Kernel make_kernel(const Damage& dm, int kSpan, Seat a, const std::array<double, kClasses>& w,
                   std::vector<double>& scratch, Transitions& tr) {
    std::fill(scratch.begin(), scratch.end(), 0.0);
    for (int cls = 0; cls < kClasses; ++cls)
        if (w[cls] != 0)
            for_each_damage(dm, cls, a, [&](int dt, int dk, double p) {
                scratch[static_cast<std::size_t>(dt * kSpan + dk)] += w[cls] * p;
            });
    long double sum = 0;
    for (const double x : scratch) sum += x;
    Kernel kn;
    for (int r = 0; r < kSpan; ++r) {
        kn.start[r] = static_cast<std::uint32_t>(tr.prob.size());
        for (int k = 0; k < kSpan; ++k)
            if (const double x = scratch[static_cast<std::size_t>(r * kSpan + k)]; x > 0) {
                tr.col.push_back(static_cast<std::uint8_t>(k));
                tr.prob.push_back(static_cast<double>(x / sum));
                kn.rows = r + 1;
            }
    }
    kn.start[kSpan] = static_cast<std::uint32_t>(tr.prob.size());
    return kn;
}

Transitions transitions(const Options& o, const Policy& tau, const Policy& kaon) {
    const Space sp(o.hp);
    const int h = o.hp;
    Transitions tr;
    tr.h = h;
    const Laws lt{tau}, lk{kaon};
    std::map<std::pair<int, std::array<double, kClasses>>, std::uint32_t> seen;
    const Damage dm(o);
    const ClassTable table = class_table(o);
    const int kSpan = o.max_hit() + 1;
    std::vector<double> scratch(static_cast<std::size_t>(kSpan * kSpan));
    for (int att = 0; att < 2; ++att) {
        tr.kernel_of[att].resize(static_cast<std::size_t>(h * h));
        tr.ends_now[att].resize(static_cast<std::size_t>(h * h));
    }
    for (int att = 0; att < 2; ++att) {
        const Seat a = static_cast<Seat>(att);
        for (int ht = 1; ht <= h; ++ht) {
            throw_if_stop_requested();  // once a row of states (engine/stop.hpp)
            for (int hk = 1; hk <= h; ++hk) {
                const auto w = a == kTau ? class_law(o, table, sp, ht, hk, a, lt, lk)
                                         : class_law(o, table, sp, ht, hk, a, lk, lt);
                const auto [it, fresh] =
                    seen.try_emplace({att, w}, static_cast<std::uint32_t>(tr.kernels.size()));
                if (fresh) tr.kernels.push_back(make_kernel(dm, kSpan, a, w, scratch, tr));
                const std::size_t c = tr.cell(ht, hk);
                tr.kernel_of[att][c] = it->second;
                std::array<double, 3> e{};
                tr.for_each_end(a, ht, hk, [&](int kind, int, double p) { e[kind] += p; });
                tr.ends_now[att][c] = e;
            }
        }
    }
    return tr;
}

// States from which the duel can end (ends[seat][cell]); mass in any other stalls until the turn
// cap. Decided by which outcomes are possible, not by how likely: a chance too small for the
// backward pass's doubles still counts.
std::array<std::vector<char>, 2> can_end(const Transitions& tr) {
    const int h = tr.h;
    std::array<std::vector<char>, 2> ends;
    for (auto& e : ends) e.assign(static_cast<std::size_t>(h * h), 0);
    for (int ht = 1; ht <= h; ++ht)
        for (int hk = 1; hk <= h; ++hk) {
            const std::size_t c = tr.cell(ht, hk);
            std::array<bool, 2> own{};
            for (int att = 0; att < 2; ++att) {
                const auto& e = tr.ends_now[att][c];
                own[att] = e[0] > 0 || e[1] > 0 || e[2] > 0;
                const auto& next = ends[1 - att];  // the pair's other state: still 0 here
                tr.for_each_step(static_cast<Seat>(att), ht, hk,
                                 [&](double, std::size_t to) { own[att] = own[att] || next[to]; });
            }
            // A turn without damage leads to the other state of the pair.
            ends[kTau][c] = own[kTau] || (tr.stay(kTau, ht, hk) > 0 && own[kKaon]);
            ends[kKaon][c] = own[kKaon] || (tr.stay(kKaon, ht, hk) > 0 && own[kTau]);
        }
    return ends;
}

// P(Tau wins), P(Kaon wins), P(both fall) from every state (value[seat][kind][cell]), by one
// backward pass: hit points never rise, and a turn without damage only swaps who attacks, so
// each pair of states with the same hit points is a 2x2 linear system (x = r + q x', Eigen). A
// pair from which the duel can never end is left at 0.
using Values = std::array<std::array<std::vector<double>, 3>, 2>;
Values absorption(const Transitions& tr) {
    const int h = tr.h;
    Values v;
    for (auto& seat : v)
        for (auto& kind : seat) kind.assign(static_cast<std::size_t>(h * h), 0.0);
    for (int ht = 1; ht <= h; ++ht)
        for (int hk = 1; hk <= h; ++hk) {
            const std::size_t c = tr.cell(ht, hk);
            std::array<std::array<double, 3>, 2> r{};
            std::array<double, 2> q{};
            for (int att = 0; att < 2; ++att) {
                const Seat a = static_cast<Seat>(att);
                const auto& next = v[1 - att];  // the pair's other state is still 0 here
                tr.for_each_step(a, ht, hk, [&](double p, std::size_t to) {
                    for (int k = 0; k < 3; ++k) r[att][k] += p * next[k][to];
                });
                for (int k = 0; k < 3; ++k) r[att][k] += tr.ends_now[att][c][k];
                q[att] = tr.stay(a, ht, hk);
            }
            Eigen::Matrix2d m;
            m << 1, -q[0], -q[1], 1;
            if (std::abs(m.determinant()) < 1e-300) continue;  // never ends: all zero
            const auto lu = m.partialPivLu();
            for (int k = 0; k < 3; ++k) {
                const Eigen::Vector2d x = lu.solve(Eigen::Vector2d(r[0][k], r[1][k]));
                v[kTau][k][c] = x(0);
                v[kKaon][k][c] = x(1);
            }
        }
    return v;
}

}  // namespace

namespace {
// Refuses what the solver cannot do in reasonable time and memory (hp^2 states).
// `hint` ends the line: what to do instead (the exact solver: play the game; a policy that
// solves while it is prepared, under odds run itself: another policy).
void check_size(const Options& o, const char* what, const char* hint) {
    if (o.hp > kMaxExactHp)
        throw UsageError(std::string("dimension-duel: ") + what + " handles hp up to " +
                         std::to_string(kMaxExactHp) + " (hp=" + std::to_string(o.hp) +
                         " has too many states); " + hint);
    if (o.max_hit() > kMaxHit)
        throw UsageError(
            std::string("dimension-duel: ") + what + " handles at most " + std::to_string(kMaxHit) +
            " damage in one turn ((calibrate.dice + focus.dice + delayed.dice) x damage.die's "
            "most x intensifier.factor^2 = " +
            std::to_string(o.max_hit()) + "); " + hint);
}
constexpr const char* kPlayIt = "use 'odds run'";
constexpr const char* kOtherPolicy = "give a smaller game, or another policy";
// D7's single_use would put every used function in the state: not solved. `hint` ends the line.
void refuse_single_use(const Options& o, const char* what, const char* hint = "") {
    if (o.single_use)
        throw UsageError(std::string("dimension-duel: ") + what +
                         " does not handle single_use=true (the state would need every function "
                         "each player has used)" +
                         hint);
}
// Planning as if no turn cap existed (D6) is exact only where the cap cannot bind.
void refuse_turn_cap(const Options& o, const char* what) {
    if (o.max_turns < kBestResponseMinTurns)
        throw UsageError(std::string("dimension-duel: ") + what +
                         " plans as if no turn cap existed; it needs max_turns of at least " +
                         std::to_string(kBestResponseMinTurns) +
                         " (max_turns=" + std::to_string(o.max_turns) + ")");
}
}  // namespace

Result solve(const Options& o, const Policy& tau, const Policy& kaon) {
    return solve_from(o, tau, kaon, opening(o));
}

Result solve_from(const Options& o, const Policy& tau, const Policy& kaon, const State& at) {
    refuse_search(tau, "the exact solver");
    refuse_search(kaon, "the exact solver");
    check_size(o, "the exact solver", kPlayIt);
    refuse_single_use(o, "the exact solver", "; use 'odds run'");
    const int h = o.hp;
    const Transitions tr = transitions(o, tau, kaon);
    const Values value = absorption(tr);
    const auto ends = can_end(tr);

    Result r;
    const int first = at.turn + 1;  // the turn about to be played
    Seat a = attacker(at);
    const std::size_t start = tr.cell(at.hp[kTau], at.hp[kKaon]);
    r.turns.assign(static_cast<std::size_t>(first), 0.0);
    r.winner_hp.assign(static_cast<std::size_t>(h) + 1, 0.0);
    // The forward pass, turn by turn, gives the law of the duel's length and each state's
    // expected visits (occupation), from which the laws of the outcome and the winner's hit
    // points follow. The chain conserves mass; rounding over thousands of turns would not. So
    // every turn the mass still playing is rescaled to exactly what has not ended (kept in long
    // double), and the laws sum to 1 within 1e-15.
    std::vector<double> live(static_cast<std::size_t>(h * h), 0.0), next(live.size(), 0.0);
    std::array<std::vector<double>, 2> visits{live, live};
    live[start] = 1.0;
    long double stalled = 0, playing = 1, ended_before = 0;
    bool capped = false;  // the turn cap cut off duels that could still have ended
    for (int t = first; t <= o.max_turns && playing > 1e-15; ++t) {
        throw_if_stop_requested();  // once a turn
        std::fill(next.begin(), next.end(), 0.0);
        long double ended = 0;
        for (int ht = 1; ht <= h; ++ht) {
            const double* row = &live[tr.cell(ht, 1)];
            int lo = 1, hi = h;  // the row's states with mass
            while (lo <= h && row[lo - 1] == 0) ++lo;
            while (hi >= lo && row[hi - 1] == 0) --hi;
            while (lo <= hi) {
                // A run of states lo..end with one kernel: each of its cells moves the whole
                // run's mass at once, a shifted copy of the row (vectorised).
                const std::uint32_t id = tr.kernel_id(a, ht, lo);
                int end = lo;
                while (end < hi && tr.kernel_id(a, ht, end + 1) == id) ++end;
                for (int hk = lo; hk <= end; ++hk) {
                    const std::size_t c = tr.cell(ht, hk);
                    visits[a][c] += row[hk - 1];
                    const auto& e = tr.ends_now[a][c];
                    ended += row[hk - 1] * (e[0] + e[1] + e[2]);
                }
                const Kernel& kn = tr.kernels[id];
                for (int dt = 0; dt < std::min(kn.rows, ht); ++dt)
                    for (std::uint32_t e = kn.start[dt]; e < kn.start[dt + 1]; ++e) {
                        const int k = tr.col[e];
                        const int from = std::max(lo, k + 1);  // k < hk: Kaon still stands
                        if (from > end) break;
                        const double p = tr.prob[e];
                        double* to = &next[tr.cell(ht - dt, from - k)];
                        const double* src = &row[from - 1];
                        for (int i = 0, n = end - from + 1; i < n; ++i) to[i] += p * src[i];
                    }
                lo = end + 1;
            }
        }
        r.turns.push_back(static_cast<double>(ended));
        ended_before += ended;
        a = a == kTau ? kKaon : kTau;
        // Mass in a state that can never end waits for the turn cap.
        long double sum = 0;
        for (std::size_t c = 0; c < next.size(); ++c) {
            if (next[c] == 0) continue;
            if (!ends[a][c]) {
                stalled += next[c];
                next[c] = 0;
            } else {
                sum += next[c];
            }
        }
        const long double not_ended = 1 - ended_before - stalled;
        playing = sum > 0 ? not_ended : 0;
        if (sum > 0) {
            const double scale = static_cast<double>(not_ended / sum);
            for (double& x : next) x *= scale;
        }
        std::swap(live, next);
        if (t == o.max_turns && playing > 0) {  // D6: the cap ends what still plays as a draw
            capped = true;
            stalled += playing;
            playing = 0;
        }
    }
    long double kinds[3] = {0, 0, 0};
    std::vector<long double> winner_hp(static_cast<std::size_t>(h) + 1, 0.0);
    for (int att = 0; att < 2; ++att)
        for (int ht = 1; ht <= h; ++ht)
            for (int hk = 1; hk <= h; ++hk)
                if (const double n = visits[att][tr.cell(ht, hk)]; n > 0)
                    tr.for_each_end(static_cast<Seat>(att), ht, hk,
                                    [&](int kind, int hp, double p) {
                                        kinds[kind] += n * p;
                                        winner_hp[static_cast<std::size_t>(hp)] += n * p;
                                    });
    if (stalled > 0) {
        r.turns.resize(static_cast<std::size_t>(o.max_turns) + 1, 0.0);
        r.turns[o.max_turns] += static_cast<double>(stalled);
        r.timeout = static_cast<double>(stalled);
        winner_hp[0] += stalled;
    }
    if (capped) {
        r.tau_win = static_cast<double>(kinds[0]);
        r.kaon_win = static_cast<double>(kinds[1]);
        r.draw = static_cast<double>(kinds[2] + stalled);
    } else {
        // The duel ended before the cap: the backward pass gives the same probabilities without
        // the forward pass's rounding (stall mass, if any, is the draw by the cap).
        const Seat s = attacker(at);
        r.tau_win = value[s][0][start];
        r.kaon_win = value[s][1][start];
        r.draw = value[s][2][start] + static_cast<double>(stalled);
    }
    for (std::size_t v = 0; v < winner_hp.size(); ++v)
        r.winner_hp[v] = static_cast<double>(winner_hp[v]);
    r.unresolved = static_cast<double>(playing);
    for (std::size_t t = 0; t < r.turns.size(); ++t)
        r.expected_turns += static_cast<double>(t) * r.turns[t];
    return r;
}

ValueTable values(const Options& o, const Policy& tau, const Policy& kaon) {
    refuse_search(tau, "the value table");
    refuse_search(kaon, "the value table");
    check_size(o, "the value table", kOtherPolicy);
    refuse_single_use(o, "the value table");
    refuse_turn_cap(o, "the value table");
    const Transitions tr = transitions(o, tau, kaon);
    const Values value = absorption(tr);
    ValueTable t;
    const int h = o.hp;
    t.hp = h;
    t.tau_win.assign(static_cast<std::size_t>(h * h * 2), 0.0);
    t.draw.assign(t.tau_win.size(), 0.0);
    for (int ht = 1; ht <= h; ++ht)
        for (int hk = 1; hk <= h; ++hk)
            for (int att = 0; att < 2; ++att) {
                const std::size_t c = tr.cell(ht, hk);
                const auto& v = value[static_cast<std::size_t>(att)];
                const std::size_t i = t.index(ht, hk, static_cast<Seat>(att));
                t.tau_win[i] = v[0][c];
                // Both fall (D6), or the duel never ends (the turn cap's draw): what is left.
                t.draw[i] = v[2][c] + std::max(0.0, 1 - v[0][c] - v[1][c] - v[2][c]);
            }
    return t;
}

double ValueTable::tau_score(const State& s) const {
    if (s.over) return s.out.winner == kTau ? 1.0 : (s.out.winner < 0 ? 0.5 : 0.0);
    const std::size_t i = index(s.hp[kTau], s.hp[kKaon], attacker(s));
    return tau_win[i] + draw[i] / 2;
}

std::shared_ptr<const BestResponseTable> best_response(const Options& o, Seat seat,
                                                       const Policy& opponent) {
    refuse_search(opponent, "best-response");
    check_size(o, "best-response", kOtherPolicy);
    refuse_turn_cap(o, "best-response");
    refuse_single_use(o, "best-response");
    const int h = o.hp;
    const Space sp(h);
    const Laws lo{opponent};
    const Seat other = seat == kTau ? kKaon : kTau;
    auto table = std::make_shared<BestResponseTable>();
    table->hp = h;
    table->entries.resize(static_cast<std::size_t>(h * h * 2));
    std::vector<double> value(static_cast<std::size_t>(sp.states()), 0.0);  // P(seat wins)
    const Damage dm(o);
    // Every turn's class, and the classes that deal damage under these options (most of
    // kClasses never occur), listed once.
    const ClassTable classes = class_table(o);
    std::array<bool, kClasses> occurs{};
    for (const auto& by_c : classes)
        for (const auto& row : by_c)
            for (const std::uint8_t cls : row) occurs[cls] = true;
    std::vector<int> dealing;
    for (int cls = 0; cls < kClasses; ++cls)
        if (occurs[static_cast<std::size_t>(cls)] && !stays(cls)) dealing.push_back(cls);

    // The value of each class that deals damage, from states already solved.
    auto class_values = [&](int ht, int hk, Seat a) {
        std::array<double, kClasses> v{};
        const Seat next = a == kTau ? kKaon : kTau;
        for (const int cls : dealing) {
            for_each_damage(dm, cls, a, [&](int dt, int dk, double p) {
                const int nt = ht - dt, nk = hk - dk;
                double x;
                if (nt > 0 && nk > 0)
                    x = value[static_cast<std::size_t>(sp.index(nt, nk, next))];
                else if (nt <= 0 && nk <= 0)
                    x = 0;  // a draw is not a win
                else
                    x = (nk <= 0) == (seat == kTau) ? 1.0 : 0.0;
                v[cls] += p * x;
            });
        }
        return v;
    };

    // One state's turn, folded over the opponent's laws (which do not depend on the values):
    // for each calibration and each function of ours, the value as a + b g, where g is the
    // value of staying (a turn without damage leads to the other state of the pair).
    struct Folded {
        ParticleLaw po{};
        std::array<RegionLaw, 4> ro{};  // by (ray, shield)
        std::array<std::array<std::pair<double, double>, kFunctionCount>, 36> ab{};
    };
    auto fold = [&](int ht, int hk, Seat a, const std::array<double, kClasses>& cv) {
        Folded f;
        const bool seat_attacks = a == seat;
        const View vo = sp.view(o, ht, hk, other, !seat_attacks);
        f.po = lo.particle(vo);
        for (int ray = 0; ray < 2; ++ray)
            for (int shield = 0; shield < 2; ++shield) {
                f.ro[ray * 2 + shield] = lo.region(vo, ray, shield);
                for (int focus = 0; focus < 3; ++focus)
                    for (int region = 0; region < 3; ++region) {
                        const Calibration c{ray, shield, focus, region};
                        const FunctionLaw fo = lo.function(vo, c);
                        const auto ci =
                            static_cast<std::size_t>(BestResponseTable::calibration_index(c));
                        auto& row = f.ab[ci];
                        for (int fb = 0; fb < kFunctionCount; ++fb) {
                            double av = 0, bv = 0;
                            for (int j = 0; j < kFunctionCount; ++j) {
                                const double p = fo[j];
                                if (p == 0) continue;
                                const int fa = seat_attacks ? fb : j, fd = seat_attacks ? j : fb;
                                const int cls = classes[ci][static_cast<std::size_t>(fa)]
                                                       [static_cast<std::size_t>(fd)];
                                if (stays(cls))
                                    bv += p;
                                else
                                    av += p * cv[cls];
                            }
                            row[fb] = {av, bv};
                        }
                    }
            }
        return f;
    };

    // A higher value wins; between equal values the one that stays less (smaller slope), so a
    // choice that ends the duel beats one that only promises to, and the greedy policy stays
    // proper (a policy that never ends the duel is worth 0, whatever g promises).
    const auto better = [](double v, double slope, double best, double best_slope) {
        return v > best + 1e-13 || (v > best - 1e-13 && slope < best_slope - 1e-13);
    };

    // The turn's value given g, as value and slope in g; records the maximising choices.
    auto turn = [&](const Folded& f, Seat a, double g, BestResponseTable::Entry& e) {
        const bool seat_attacks = a == seat;
        double best1 = -1, slope1 = 2;
        for (int x = 0; x < 2; ++x) {
            double v1 = 0, s1 = 0;
            for (int y = 0; y < 2; ++y) {
                const double py = f.po[y];
                if (py == 0) continue;
                const int ray = seat_attacks ? x : y, shield = seat_attacks ? y : x;
                const RegionLaw& ro = f.ro[ray * 2 + shield];
                double best2 = -1, slope2 = 2;
                int arg2 = 0;
                for (int rb = 0; rb < 3; ++rb) {
                    double v2 = 0, s2 = 0;
                    for (int rq = 0; rq < 3; ++rq) {
                        const double pr = ro[rq];
                        if (pr == 0) continue;
                        const Calibration c{ray, shield, seat_attacks ? rb : rq,
                                            seat_attacks ? rq : rb};
                        const int ci = BestResponseTable::calibration_index(c);
                        const auto& row = f.ab[ci];
                        double best3 = -1, slope3 = 2;
                        int arg3 = 0;
                        for (int fb = 0; fb < kFunctionCount; ++fb) {
                            if (o.is_barred(seat, static_cast<Function>(fb)))
                                continue;  // D2b: its best reply among the functions it may play
                            const auto [av, bv] = row[fb];
                            const double v3 = av + bv * g;
                            if (better(v3, bv, best3, slope3)) {
                                best3 = v3;
                                slope3 = bv;
                                arg3 = fb;
                            }
                        }
                        e.function[ci] = static_cast<std::uint8_t>(arg3);
                        v2 += pr * best3;
                        s2 += pr * slope3;
                    }
                    if (better(v2, s2, best2, slope2)) {
                        best2 = v2;
                        slope2 = s2;
                        arg2 = rb;
                    }
                }
                e.region[ray * 2 + shield] = static_cast<std::uint8_t>(arg2);
                v1 += py * best2;
                s1 += py * slope2;
            }
            if (better(v1, s1, best1, slope1)) {
                best1 = v1;
                slope1 = s1;
                e.particle = static_cast<std::uint8_t>(x);
            }
        }
        return std::pair{best1, slope1};
    };

    auto entry = [&](int ht, int hk, Seat a) -> BestResponseTable::Entry& {
        const int mine = seat == kTau ? ht : hk, theirs = seat == kTau ? hk : ht;
        return table
            ->entries[static_cast<std::size_t>(((mine - 1) * h + theirs - 1) * 2 + (a == seat))];
    };

    for (int ht = 1; ht <= h; ++ht)
        for (int hk = 1; hk <= h; ++hk) {
            throw_if_stop_requested(hk - 1);
            const Folded ft = fold(ht, hk, kTau, class_values(ht, hk, kTau));
            const Folded fk = fold(ht, hk, kKaon, class_values(ht, hk, kKaon));
            // Policy iteration on the pair: choices for the current values, then the values of
            // those choices exactly (V_t = a_t + b_t V_k, V_k = a_k + b_k V_t, with Eigen),
            // until the values settle.
            double vt = 0, vk = 0;
            for (int iter = 0; iter < 200; ++iter) {
                const auto [xt, bt] = turn(ft, kTau, vk, entry(ht, hk, kTau));
                const auto [xk, bk] = turn(fk, kKaon, vt, entry(ht, hk, kKaon));
                const double at = xt - bt * vk, ak = xk - bk * vt;
                double nt, nk;
                Eigen::Matrix2d m;
                m << 1, -bt, -bk, 1;
                if (std::abs(m.determinant()) > 1e-9) {
                    const Eigen::Vector2d sol = m.partialPivLu().solve(Eigen::Vector2d(at, ak));
                    nt = sol(0);
                    nk = sol(1);
                } else {  // the greedy policy barely ends the duel: a value-iteration step
                    nt = xt;
                    nk = turn(fk, kKaon, nt, entry(ht, hk, kKaon)).first;
                }
                const bool done = std::abs(nt - vt) <= 1e-14 && std::abs(nk - vk) <= 1e-14;
                vt = nt;
                vk = nk;
                if (done) break;
            }
            turn(ft, kTau, vk, entry(ht, hk, kTau));
            turn(fk, kKaon, vt, entry(ht, hk, kKaon));
            value[static_cast<std::size_t>(sp.index(ht, hk, kTau))] = vt;
            value[static_cast<std::size_t>(sp.index(ht, hk, kKaon))] = vk;
        }
    return table;
}

std::string limits() {
    return "hp up to " + std::to_string(kMaxExactHp) +
           ", single_use=false; best-response likewise, and max_turns of " +
           std::to_string(kBestResponseMinTurns) + " or more";
}

void solve_against(const Options& o, std::size_t seat, Policy& mine, const Policy& other) {
    std::get<odds::dimension_duel::BestResponse>(mine).table =
        best_response(o, static_cast<odds::dimension_duel::Seat>(seat), other);
}

void report(ExactReport& rep, const Options& o, const std::array<Policy, 2>& seats,
            const odds::dimension_duel::State& start) {
    namespace dd = odds::dimension_duel;
    const Result r = solve_from(o, seats[0], seats[1], start);
    const auto specs = dd::metric_specs(o);
    const double u = r.unresolved;
    auto rest = [u](double p) { return std::max(0.0, 1 - p - u); };  // no rounding below zero
    auto law = [&](int m, std::vector<double> mass) {
        rep.laws.push_back({specs[static_cast<std::size_t>(m)], mass, u});
    };
    law(dd::kTauWin, {rest(r.tau_win), r.tau_win});
    law(dd::kKaonWin, {rest(r.kaon_win), r.kaon_win});
    law(dd::kDraw, {rest(r.draw), r.draw});
    law(dd::kAdvantageFirst, {r.kaon_win, r.draw, r.tau_win});
    law(dd::kTurns, {r.turns.begin() + 1, r.turns.end()});
    law(dd::kWinnerHp, r.winner_hp);
    law(dd::kTimeouts, {rest(r.timeout), r.timeout});
    law(dd::kDrawishness, {rest(r.draw - r.timeout), r.draw - r.timeout});
    try {  // the game's value, where it is solved
        const double v = dd::equilibrium(o)->value();
        rep.value = v;
        rep.notes.push_back("the game's value for tau under optimal play (draws half, D2a): " +
                            std::to_string(v) + "; policy equilibrium plays it");
    } catch (const UsageError&) {}
    // P(still running after t turns): every duel ends by the event.
    rep.survival = survival_csv_exact({r.turns.begin() + 1, r.turns.end()}, {}, 1);
}

}  // namespace odds::exact::dimension_duel
