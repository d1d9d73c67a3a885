#include "engine/bosconian/exact.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cstdio>
#include <utility>

#include "engine/stop.hpp"
#include "reports/csv.hpp"

namespace odds::exact::bosconian {

namespace {

using Vec = std::vector<double>;
using Matrix = Eigen::MatrixXd;

// a * b, truncated to `max` + 1 values.
Vec convolve(const Vec& a, const Vec& b, std::size_t max) {
    Vec c(std::min(a.size() + b.size() - 1, max + 1), 0.0);
    for (std::size_t i = 0; i < a.size() && i < c.size(); ++i)
        for (std::size_t j = 0; j < b.size() && i + j < c.size(); ++j) c[i + j] += a[i] * b[j];
    return c;
}

Vec point0() { return Vec{1.0}; }

Vec sum_d6(int n) {
    Vec d = point0();
    const Vec die{0, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6};
    for (int i = 0; i < n; ++i) d = convolve(d, die, 6 * static_cast<std::size_t>(n));
    return d;
}

// p * a + q * b
Vec mix(double p, const Vec& a, double q, const Vec& b) {
    Vec c(std::max(a.size(), b.size()), 0.0);
    for (std::size_t i = 0; i < a.size(); ++i) c[i] += p * a[i];
    for (std::size_t i = 0; i < b.size(); ++i) c[i] += q * b[i];
    return c;
}

// The law of a dice expression's total, indexed from 0 (DiceExpr law() starts at its minimum).
Vec dice_law(const odds::DiceExpr& e) {
    const Vec dice = law(e);
    Vec v(static_cast<std::size_t>(e.min()), 0.0);
    v.insert(v.end(), dice.begin(), dice.end());
    return v;
}

// The chance that a d6 shows one of `faces`.
double chance(const odds::FaceSet& faces) { return faces.count(6) / 6.0; }

// B5, B8: one single threat under the options: destroyed on its faces, else the damage
// expression's law (by convolution, DiceExpr law()), indexed from damage 0.
Vec threat_law(const odds::FaceSet& destroyed_on, const odds::DiceExpr& damage_dice) {
    const double p = 1.0 - destroyed_on.count(6) / 6.0;
    return mix(1 - p, point0(), p, dice_law(damage_dice));
}

// B7: a formation of one type and `missiles` missiles. f(k): the leader and k others left; g(k):
// k others only. The targeting d6 picks the leader with chance 1/6 whatever the leader's number
// (a face of a d6; formation.leader_rerolled_on only decides which).
Vec formation_law(const odds::FaceSet& destroyed_on, const odds::DiceExpr& damage_dice,
                  int missiles, std::size_t max) {
    const double p = 1.0 - destroyed_on.count(6) / 6.0;
    const Vec single = threat_law(destroyed_on, damage_dice);
    const Vec damage = dice_law(damage_dice);
    Vec others = point0();
    Vec f = single;  // only the leader: targeted without a roll
    for (int k = 1; k < missiles; ++k) {
        others = convolve(others, single, max);
        // 1/6: the leader is targeted; destroyed ends the attack, a hit leaves the k others.
        const Vec leader = mix(1 - p, point0(), p, convolve(damage, others, max));
        // 5/6: another missile, destroyed or spent.
        f = mix(1.0 / 6, leader, 5.0 / 6, convolve(single, f, max));
    }
    return f;
}

// A lower-triangular Toeplitz matrix: T * x convolves x with `law`, truncated to h rows.
Matrix toeplitz(const Vec& law, int h) {
    Matrix t = Matrix::Zero(h, h);
    const int n = static_cast<int>(law.size());
    for (int i = 0; i < h; ++i)
        for (int j = std::max(0, i - n + 1); j <= i; ++j) t(i, j) = law[i - j];
    return t;
}

// A spy ship that escapes (B5): its encounter faces x its faces that miss (1/6 x 4/6 by the book).
double spy_escapes(const Options& o) {
    return chance(o.encounter_spy_ship) * (6 - o.spy_ship_destroyed_on.count(6)) / 6.0;
}

// B2's placement gap (placement.gap: a d6 by the book), the sectors counted on from the last
// base: P(gap = k) for k = lo..hi, and the hazard of each count, P(gap = d | gap >= d). A single
// die (1dX+K) keeps the book's arithmetic, whole numbers over X, so the book's d6 solves to the
// same digits as before the option existed.
struct GapLaw {
    int lo = 1, hi = 6;
    int sides = 0;  // X of a single die 1dX+K, else 0
    Vec p;          // p[k]: P(gap = k), k = 0..hi
    Vec tail;       // tail[k]: P(gap >= k), k = 0..hi + 1

    explicit GapLaw(const odds::DiceExpr& e) : lo(e.min()), hi(e.max()) {
        if (e.one_die()) sides = e.terms[0].sides;
        p = dice_law(e);
        tail.assign(static_cast<std::size_t>(hi) + 2, 0.0);
        for (int k = hi; k >= 0; --k)
            tail[static_cast<std::size_t>(k)] =
                tail[static_cast<std::size_t>(k) + 1] + p[static_cast<std::size_t>(k)];
    }
    // P(the next base is d sectors on | not nearer), d = 1..hi.
    double hazard(int d) const {
        if (d < lo) return 0.0;
        if (sides) return 1.0 / (hi + 1 - d);
        return p[static_cast<std::size_t>(d)] / tail[static_cast<std::size_t>(d)];
    }
    // P(gap >= m), m >= 1.
    double at_least(int m) const {
        if (m > hi) return 0.0;
        if (sides) return std::min(sides, hi + 1 - m) / static_cast<double>(sides);
        return tail[static_cast<std::size_t>(std::max(m, 0))];
    }
    // x * P(gap = k), k = lo..hi.
    double times(double x, int k) const {
        return sides ? x / sides : x * p[static_cast<std::size_t>(k)];
    }
};

struct Solver {
    const Options& o;
    int h;        // hull: damage rows 0..h-1
    int cols;     // alert columns 0..sectors
    int alerted;  // the encounters of an alerted empty sector (B6, alert.encounters; 2 by the book)
    // te[j - 1]: the damage of j encounters that raise no alert (B5), j = 1..alerted; tb: a base
    // fight.
    std::vector<Matrix> te;
    Matrix tb;
    GapLaw gap;
    int deltas;  // hidden states per count of bases ahead: sectors since the last base, 0..hi
    double spy;  // a spy ship that escapes (B5)
    // alert[j]: the alert j escaped spy ships add (B6), j = 1..alerted (alert[0] unused).
    std::vector<Vec> alert;
    Result res;

    explicit Solver(const Options& opt)
        : o(opt),
          h(opt.hull),
          cols(opt.sectors + 1),
          alerted(opt.alert_encounters),
          gap(opt.placement_gap),
          deltas(gap.hi + 1) {
        const Vec e1 = encounter_law_without_alert(o, static_cast<std::size_t>(h));
        Vec ej = e1;
        te.push_back(toeplitz(e1, h));
        for (int j = 2; j <= alerted; ++j) {
            ej = convolve(ej, e1, static_cast<std::size_t>(h));
            te.push_back(toeplitz(ej, h));
        }
        tb = toeplitz(base_fight_law(o, o.base_cannons, static_cast<std::size_t>(h)), h);
        spy = spy_escapes(o);
        alert.assign(static_cast<std::size_t>(alerted) + 1, Vec{});
        alert[1] = dice_law(o.spy_ship_alert);
        for (int j = 2; j <= alerted; ++j)
            alert[static_cast<std::size_t>(j)] =
                convolve(alert[static_cast<std::size_t>(j) - 1], alert[1],
                         static_cast<std::size_t>(j) * alert[1].size());
        res.win.mass.assign(2, 0.0);
        res.damage.mass.assign(static_cast<std::size_t>(h) + 1, 0.0);
        res.sectors_entered.mass.assign(static_cast<std::size_t>(o.sectors) + 1, 0.0);
        res.bases_placed.mass.assign(static_cast<std::size_t>(o.sectors) + 1, 0.0);
        res.lost_at.assign(static_cast<std::size_t>(o.sectors) + 1, 0.0);
        res.won_at.assign(static_cast<std::size_t>(o.sectors) + 1, 0.0);
    }

    int cap(int a) const { return std::min(a, cols - 1); }

    // The products a sector needs, of one matrix or of several packed side by side (one
    // product per sector however many hidden states): T * P through the lower triangle alone,
    // for T is lower-triangular Toeplitz (half the multiplications of a dense product).
    struct Products {
        std::vector<Matrix> m;  // m[j - 1] = te[j - 1] * P, j = 1..alerted
        Matrix mb;              // tb * P
    };
    // Into x's matrices, which keep their storage from sector to sector (no page faults).
    void products(const Matrix& p, bool empty, bool base, Products& x) const {
        // A stop is looked at between the products, the longest steps (a third of a second
        // each at hull 1000, packed; engine/stop.hpp).
        if (empty) {
            x.m.resize(te.size());
            for (std::size_t j = 0; j < te.size(); ++j) {
                x.m[j].noalias() = te[j].triangularView<Eigen::Lower>() * p;
                throw_if_stop_requested();
            }
        }
        if (base) x.mb.noalias() = tb.triangularView<Eigen::Lower>() * p;
    }

    using Block = Eigen::Ref<const Matrix>;
    auto block(Matrix& m, std::size_t i) const {
        return m.middleCols(static_cast<Eigen::Index>(i) * cols, cols);
    }
    auto block(const Matrix& m, std::size_t i) const {
        return m.middleCols(static_cast<Eigen::Index>(i) * cols, cols);
    }

    // The products of every hidden state with mass (slots: their indices, r >= 1 and
    // delta >= 1), packed side by side into one matrix: one product per sector, not one per
    // hidden state. block(x.m[0], i) is te[0] times slot i's matrix.
    void packed_products(const std::vector<Matrix>& hidden, std::vector<int>& slots, Matrix& p,
                         Products& x) const {
        slots.clear();
        for (std::size_t i = 0; i < hidden.size(); ++i)
            if (i % static_cast<std::size_t>(deltas) != 0 && hidden[i].size() != 0)
                slots.push_back(static_cast<int>(i));
        p.resize(h, static_cast<Eigen::Index>(slots.size()) * cols);
        for (std::size_t i = 0; i < slots.size(); ++i) block(p, i) = hidden[slots[i]];
        products(p, true, true, x);
    }

    // An empty sector's ways from each alert (B5, B6), always in this order, for the forward
    // step and its transpose: f(a, to, weight, fights): with probability `weight`, a sector
    // entered at alert `a` leaves alert `to` after `fights` encounters that raise no alert dealt
    // their damage (te[fights - 1]; 0: none). At alert 0, one encounter: its ship raises no alert,
    // or is a spy that escapes (alert[1]). Alerted, `alerted` encounters and the counter drops by
    // one: j of them are spy ships that escape (C(alerted, j) orders), the others raise no alert.
    template <class F>
    void alert_moves(const F& f) const {
        f(0, 0, 1.0, 1);
        const Vec& alert1 = alert[1];
        for (int s = 0; s < static_cast<int>(alert1.size()); ++s)
            if (alert1[s] > 0) f(0, cap(s), spy * alert1[s], 0);
        for (int a = 1; a < cols; ++a) {
            const int a1 = a - 1;
            f(a, a1, 1.0, alerted);
            double binomial = 1, spies = 1;
            for (int j = 1; j <= alerted; ++j) {
                binomial = binomial * (alerted - j + 1) / j;
                spies *= spy;
                const double coefficient = binomial * spies;
                const Vec& aj = alert[static_cast<std::size_t>(j)];
                for (int s = 0; s < static_cast<int>(aj.size()); ++s)
                    if (aj[s] > 0) f(a, cap(a1 + s), coefficient * aj[s], alerted - j);
            }
        }
    }

    // An empty sector (B4, B5, B6): one encounter, or `alerted` in an alerted sector; x.m[j - 1]
    // holds te[j - 1] times the hidden states packed side by side, p's among them at block i.
    Matrix empty_sector(const Block& p, const Products& x, std::size_t i) const {
        Matrix out = Matrix::Zero(h, cols);
        alert_moves([&](int a, int to, double weight, int fights) {
            if (fights > 0)
                out.col(to) += weight * block(x.m[static_cast<std::size_t>(fights) - 1], i).col(a);
            else
                out.col(to) += weight * p.col(a);
        });
        return out;
    }

    // A base sector (B4, B6, B8): the alert counter drops; the whole fight's damage, m = tb * p.
    Matrix base_sector(const Block& m) const {
        Matrix out = Matrix::Zero(h, cols);
        for (int a = 0; a < cols; ++a) out.col(std::max(a - 1, 0)) += m.col(a);
        return out;
    }

    // The mass lost in a step, `before` less `after`; rounding noise counts as none.
    static double lost(double before, double after) {
        const double d = before - after;
        return d > 1e-13 * before ? d : 0.0;
    }

    void record_loss(int sector_count, double mass) {
        if (mass <= 0) return;
        res.win.mass[0] += mass;
        res.damage.mass[h] += mass;
        res.sectors_entered.mass[sector_count] += mass;
        res.lost_at[sector_count] += mass;
    }

    void record_win(int sector_count, const Matrix& p) {
        const double m = p.sum();
        res.win.mass[1] += m;
        res.sectors_entered.mass[sector_count] += m;
        res.won_at[sector_count] += m;
        const Eigen::VectorXd rows = p.rowwise().sum();
        for (int d = 0; d < h; ++d) res.damage.mass[d] += rows(d);
    }

    Matrix start_matrix() const {
        Matrix p = Matrix::Zero(h, cols);
        p(o.start_damage, cap(o.start_alert)) = 1.0;
        return p;
    }

    void solve_fixed() {
        const int start = o.lap_position(o.effective_start());
        int ahead = 0;
        for (int pos = start; pos < o.sectors; ++pos)
            ahead += (o.layout >> (o.sector_at(pos) - 1)) & 1 ? 1 : 0;
        res.bases_placed.mass[static_cast<std::size_t>(std::popcount(o.layout))] = 1.0;
        Matrix p = start_matrix();
        int t = 0;
        for (int pos = start; pos < o.sectors && ahead > 0; ++pos) {
            throw_if_stop_requested();  // a sector at hull 1000: well under a second
            ++t;
            const bool base = (o.layout >> (o.sector_at(pos) - 1)) & 1;
            const double before = p.sum();
            Products x;
            products(p, !base, base, x);
            p = base ? base_sector(x.mb) : empty_sector(p, x, 0);
            record_loss(t, lost(before, p.sum()));
            if (base && --ahead == 0) record_win(t, p);
        }
    }

    // q[s][r][delta]: the probability that placement wraps, from the hidden state (r, delta)
    // before the scan reaches sector s (2..sectors+1).
    using WrapTable = std::vector<std::vector<Vec>>;
    WrapTable wrap_probability(int rmax) const {
        const int n = o.sectors;
        WrapTable q(static_cast<std::size_t>(n) + 2,
                    std::vector<Vec>(static_cast<std::size_t>(rmax) + 1,
                                     Vec(static_cast<std::size_t>(deltas), 0.0)));
        for (int r = 1; r <= rmax; ++r)
            std::fill(q[static_cast<std::size_t>(n) + 1][r].begin(),
                      q[static_cast<std::size_t>(n) + 1][r].end(), 1.0);
        for (int s = n; s >= 2; --s)
            for (int r = 1; r <= rmax; ++r)
                for (int d = 1; d <= gap.hi; ++d) {
                    const double hz = gap.hazard(d);  // P(the next base is here | not before)
                    const auto& next = q[static_cast<std::size_t>(s) + 1];
                    const double placed = r == 1 ? 0.0 : next[static_cast<std::size_t>(r) - 1][1];
                    const double passed =
                        d < gap.hi ? next[r][static_cast<std::size_t>(d) + 1] : 0.0;
                    q[s][r][d] = hz * placed + (1 - hz) * passed;
                }
        return q;
    }

    // What wrapping layouts do is not resolved; how much of them can be a win is bounded. A
    // layout wraps when a roll of its first pass (sector 1 + d6 gaps, B2) counts past the last
    // sector, from the first pass's last base p (a sector within 6 of the end). Whatever the
    // rest of its bases do (placed past p, wrapped to sectors before it, rolled again, B2a), a
    // win destroys every base ahead of the ship, p among them, so the ship enters every sector
    // of the lap from its start to p; of those, all but the bases are empty sectors, each with
    // at least one encounter (B4, B5; two when alerted, B6). Damage only adds up, and the
    // fights' and encounters' dice are fresh, so
    //   P(win and wrap) <= sum over (c bases, k in the first pass, its last at p, j of them
    //                      ahead of the ship) of P(that) x P(F fights + E encounters deal less
    //                      than the hull left),
    // F the bases surely fought (all c from the first sector; else the j first-pass bases
    // ahead) and E the empty sectors surely entered (the sectors from the start to p, less j
    // and the c - k bases of later passes, which may lie among them). From the first sector this
    // is about 3.4e-7 for the seed's mission (from fights alone, as up to bosconian/2: 6.2e-5).
    double wrap_win_bound(const Vec& count_law, int rmax) const {
        const int n = o.sectors;
        const int start_pos = o.lap_position(o.effective_start());
        const bool whole_lap = start_pos == 0;  // no base struck off (B3)
        const auto margin = static_cast<std::size_t>(h - o.start_damage);  // damage that kills
        // first[k][s][j]: P(the first k gaps sum to s <= n - 1, j of those bases ahead of the
        // ship); a base at sector 1 + s.
        const auto ks = static_cast<std::size_t>(rmax) + 1;
        std::vector<Vec> first(ks * static_cast<std::size_t>(n), Vec(ks, 0.0));
        auto at = [&](int k, int s) -> Vec& {
            return first[static_cast<std::size_t>(k) * static_cast<std::size_t>(n) +
                         static_cast<std::size_t>(s)];
        };
        at(0, 0)[0] = 1.0;
        for (int k = 1; k <= rmax; ++k)
            for (int s = 1; s < n; ++s) {
                const int ahead = o.lap_position(1 + s) >= start_pos ? 1 : 0;
                for (int g = gap.lo; g <= gap.hi && g <= s; ++g)
                    for (int j = 0; j + ahead <= k; ++j)
                        at(k, s)[static_cast<std::size_t>(j + ahead)] +=
                            gap.times(at(k - 1, s - g)[static_cast<std::size_t>(j)], g);
            }
        // P(f fights + e encounters deal less than `margin`): the fights' law convolved f
        // times, against the cumulative law of e encounters (the full law: a spy ship that
        // escapes does no damage).
        Vec enc = encounter_law_without_alert(o, margin);
        enc[0] += spy;
        const Vec fight = base_fight_law(o, o.base_cannons, margin);
        std::vector<Vec> fights{Vec{1.0}};
        for (int f = 1; f <= rmax; ++f) fights.push_back(convolve(fights.back(), fight, margin));
        std::vector<Vec> below;  // below[e][m]: P(e encounters deal at most m)
        for (Vec law{1.0}; below.size() <= static_cast<std::size_t>(n);
             law = convolve(law, enc, margin)) {
            Vec cdf(margin, 0.0);
            double acc = 0;
            for (std::size_t m = 0; m < margin; ++m) cdf[m] = acc += m < law.size() ? law[m] : 0.0;
            below.push_back(std::move(cdf));
        }
        auto survive = [&](int f, int e) {
            const Vec& a = fights[static_cast<std::size_t>(f)];
            const Vec& b = below[static_cast<std::size_t>(e)];
            double x = 0;
            for (std::size_t d = 0; d < a.size() && d < margin; ++d) x += a[d] * b[margin - 1 - d];
            return x;
        };
        double bound = 0;
        for (int c = 1; c <= rmax; ++c) {
            if (count_law[static_cast<std::size_t>(c)] == 0) continue;
            // B2c: a gap of the whole quadrant or more can carry the first base itself past
            // the last sector (placement.gap=1d6+35 always does): a first pass of no base. All
            // that is known of such a layout is its c bases, each fought from the first sector.
            if (const double past = gap.at_least(n); past > 0)
                bound += count_law[static_cast<std::size_t>(c)] * past *
                         (whole_lap ? survive(c, 0) : 1.0);
            for (int k = 1; k < c; ++k)
                for (int s = std::max(1, n - gap.hi); s < n; ++s) {
                    const double cross = gap.at_least(n - s);  // a roll past sector n
                    const int p = o.lap_position(1 + s);       // the first pass's last base
                    const Vec& js = at(k, s);
                    for (int j = 0; j <= k; ++j) {
                        const double w = count_law[static_cast<std::size_t>(c)] *
                                         js[static_cast<std::size_t>(j)] * cross;
                        if (w == 0) continue;
                        const int fought = whole_lap ? c : j;
                        const int empty =
                            p >= start_pos ? std::max(0, p - start_pos + 1 - j - (c - k)) : 0;
                        bound += w * survive(fought, std::min(empty, n));
                    }
                }
        }
        return std::min(bound, res.p_wrap);
    }

    void solve_random() {
        const int n = o.sectors;
        // B2: the count's law (2d6 by the book; a whole number: that count).
        const int rmax = o.bases.max();
        Vec count_law = o.bases.only_d6 ? sum_d6(o.bases.d6) : dice_law(o.bases);
        if (o.bases.only_d6 && o.bases.constant > 0)  // NdX+K of d6s: shifted by K
            count_law.insert(count_law.begin(), static_cast<std::size_t>(o.bases.constant), 0.0);
        if (o.bases.only_d6 && o.bases.constant < 0)  // NdX-K: the K counts below 0 never happen
            count_law.erase(count_law.begin(), count_law.begin() + (-o.bases.constant));
        count_law.resize(static_cast<std::size_t>(rmax) + 1, 0.0);
        for (int c = 0; c <= rmax; ++c) res.bases_placed.mass[c] = count_law[c];

        const auto q = wrap_probability(rmax);
        for (int c = 1; c <= rmax; ++c) res.p_wrap += count_law[c] * q[2][c][1];

        // Hidden states: index r * deltas + delta; an empty matrix means no mass.
        std::vector<Matrix> hidden(static_cast<std::size_t>((rmax + 1) * deltas));
        auto at = [&](int r, int d) -> Matrix& { return hidden[r * deltas + d]; };
        auto add = [&](int r, int d, const Matrix& m) {
            Matrix& slot = at(r, d);
            if (slot.size() == 0)
                slot = m;
            else
                slot += m;
        };
        const Matrix start = start_matrix();
        for (int c = 1; c <= rmax; ++c)
            if (count_law[c] > 0) add(c, 1, count_law[c] * start);

        const int start_pos = o.lap_position(o.effective_start());
        int t = 0;
        std::vector<int> slots;  // the packed hidden states, kept from sector to sector
        Matrix packed;
        Products x;
        for (int pos = 0; pos < n; ++pos) {
            throw_if_stop_requested();  // a sector at hull 1000: well under a second
            const int sector = o.sector_at(pos);
            const bool play = pos >= start_pos;
            if (sector == 1) {
                // Sector 1 holds no base of the first pass. Entered first (start_encounter) it
                // is an empty sector; entered last, every unwrapped layout has already ended.
                if (!play || !o.start_encounter) continue;
                ++t;
                packed_products(hidden, slots, packed, x);
                for (std::size_t i = 0; i < slots.size(); ++i) {
                    Matrix& m = hidden[slots[i]];
                    const double before = m.sum();
                    m = empty_sector(m, x, i);
                    record_loss(t, lost(before, m.sum()) *
                                       (1 - q[2][slots[i] / deltas][slots[i] % deltas]));
                }
                continue;
            }
            if (play && t == 0) {
                // B3a: every base already behind the ship: won before entering a sector.
                Matrix& done = at(0, 0);
                if (done.size() != 0) {
                    record_win(0, done);
                    done.resize(0, 0);
                }
            }
            if (play) ++t;
            std::vector<Matrix> next(hidden.size());
            auto put = [&](int r, int d, Matrix m) {
                Matrix& slot = next[r * deltas + d];
                if (slot.size() == 0)
                    slot = std::move(m);
                else
                    slot += m;
            };
            const auto& q_next = q[static_cast<std::size_t>(sector) + 1];
            if (play) packed_products(hidden, slots, packed, x);
            for (int r = 1; r <= rmax; ++r)
                for (int d = 1; d < deltas; ++d) {
                    const Matrix& m = at(r, d);
                    if (m.size() == 0) continue;
                    throw_if_stop_requested();
                    // Where this hidden state's products are in the packed ones.
                    const auto i = static_cast<std::size_t>(
                        std::find(slots.begin(), slots.end(), r * deltas + d) - slots.begin());
                    const double hz = gap.hazard(d);
                    // A base here (B2): fought if the ship has started, struck off if not (B3).
                    if (hz > 0) {
                        Matrix b = hz * (play ? base_sector(block(x.mb, i)) : m);
                        if (play) {
                            record_loss(
                                t, lost(hz * m.sum(), b.sum()) *
                                       (1 - (r == 1 ? 0.0
                                                    : q_next[static_cast<std::size_t>(r) - 1][1])));
                        }
                        if (r == 1) {
                            if (play)
                                record_win(t, b);
                            else
                                put(0, 0, std::move(b));
                        } else {
                            put(r - 1, 1, std::move(b));
                        }
                    }
                    if (d < gap.hi) {  // no base here
                        Matrix e = (1 - hz) * (play ? empty_sector(m, x, i) : m);
                        if (play) {
                            record_loss(t, lost((1 - hz) * m.sum(), e.sum()) *
                                               (1 - q_next[r][static_cast<std::size_t>(d) + 1]));
                        }
                        put(r, d + 1, std::move(e));
                    }
                }
            if (Matrix& done = at(0, 0); done.size() != 0) put(0, 0, std::move(done));
            hidden = std::move(next);
        }
        if (Matrix& done = at(0, 0); done.size() != 0) record_win(0, done);  // started past all

        res.win_bound = wrap_win_bound(count_law, rmax);
        res.win.mass[0] += res.p_wrap - res.win_bound;
        res.win.unresolved = res.win_bound;
        res.damage.mass[h] += res.p_wrap - res.win_bound;
        res.damage.unresolved = res.win_bound;
        res.sectors_entered.unresolved = res.p_wrap;
    }

    // The backward pass (the transpose of empty_sector and base_sector): w holds P(win) after
    // a sector by (damage, alert); returns it before. Base sector: the alert drops, then the
    // fight's damage (tb). Empty sector: te's damage and the escaped spies' alert, as forward.
    Matrix base_back(const Matrix& w) const {
        const Matrix tw = tb.triangularView<Eigen::Lower>().transpose() * w;
        Matrix v(h, cols);
        for (int a = 0; a < cols; ++a) v.col(a) = tw.col(std::max(a - 1, 0));
        return v;
    }
    Matrix empty_back(const Matrix& w) const {
        std::vector<Matrix> tw(te.size());  // tw[j - 1] = te[j - 1]^T w
        for (std::size_t j = 0; j < te.size(); ++j)
            tw[j].noalias() = te[j].triangularView<Eigen::Lower>().transpose() * w;
        Matrix v = Matrix::Zero(h, cols);
        alert_moves([&](int a, int to, double weight, int fights) {
            if (fights > 0)
                v.col(a) += weight * tw[static_cast<std::size_t>(fights) - 1].col(to);
            else
                v.col(a) += weight * w.col(to);
        });
        return v;
    }

    // P(win) before each sector of the lap from `first` on, for the surviving bases `bases`:
    // out[pos - first] by (damage, alert). Past the last base the mission is won.
    std::vector<Matrix> win_values(std::uint64_t bases, int first) const {
        int last = first - 1;
        for (int pos = first; pos < o.sectors; ++pos)
            if ((bases >> (o.sector_at(pos) - 1)) & 1) last = pos;
        std::vector<Matrix> out(static_cast<std::size_t>(std::max(last - first + 2, 1)));
        out.back() = Matrix::Ones(h, cols);
        for (int pos = last; pos >= first; --pos) {
            throw_if_stop_requested();
            const Matrix& w = out[static_cast<std::size_t>(pos - first) + 1];
            out[static_cast<std::size_t>(pos - first)] =
                (bases >> (o.sector_at(pos) - 1)) & 1 ? base_back(w) : empty_back(w);
        }
        return out;
    }
};

}  // namespace

struct MissionValues::Impl {
    Solver solver;
    explicit Impl(const Options& o) : solver(o) {}
};

MissionValues::MissionValues(const Options& o) : impl_(std::make_unique<Impl>(o)) {
    if (o.hull > kMaxExactHull)
        throw UsageError("bosconian: the exact solver handles hull up to " +
                         std::to_string(kMaxExactHull) + " (hull=" + std::to_string(o.hull) + ")");
}
MissionValues::~MissionValues() = default;

WinTable MissionValues::table(std::uint64_t bases, int first) const {
    const Solver& s = impl_->solver;
    WinTable t;
    t.first = first;
    t.hull = s.h;
    t.cols = s.cols;
    const auto m = s.win_values(bases, first);
    t.value.reserve(m.size() * static_cast<std::size_t>(s.h) * static_cast<std::size_t>(s.cols));
    for (const Matrix& x : m)
        for (int a = 0; a < s.cols; ++a)
            for (int d = 0; d < s.h; ++d) t.value.push_back(x(d, a));
    t.positions = static_cast<int>(m.size());
    return t;
}

Vec encounter_law_without_alert(std::size_t max) { return encounter_law_without_alert({}, max); }

Vec encounter_law_without_alert(const Options& o, std::size_t max) {
    // B7: the formation's type, then its missiles as single missiles of that type.
    const double i_type = chance(o.formation_i_type);
    const Vec formation =
        mix(i_type,
            formation_law(o.i_missile_destroyed_on, o.i_missile_damage, o.formation_missiles, max),
            1 - i_type,
            formation_law(o.p_missile_destroyed_on, o.p_missile_damage, o.formation_missiles, max));
    // B5: each encounter with the chance of its faces of the encounter die.
    const std::pair<const odds::FaceSet&, Vec> table[] = {
        {o.encounter_i_missile, threat_law(o.i_missile_destroyed_on, o.i_missile_damage)},
        {o.encounter_cosmo_mine, threat_law(o.cosmo_mine_destroyed_on, o.cosmo_mine_damage)},
        {o.encounter_p_missile, threat_law(o.p_missile_destroyed_on, o.p_missile_damage)},
        {o.encounter_asteroid, threat_law(o.asteroid_destroyed_on, o.asteroid_damage)},
        {o.encounter_formation, formation}};
    Vec law;
    for (const auto& [faces, x] : table) law = mix(1, law, chance(faces), x);
    // a spy ship destroyed (3-4 by the book)
    law = mix(1, law, chance(o.encounter_spy_ship) * o.spy_ship_destroyed_on.count(6) / 6.0,
              point0());
    // B5a: faces of no encounter, quiet rolls (none by the book)
    int quiet = 0;
    for (int f = 1; f <= 6; ++f) quiet += o.encounter_any(f) ? 0 : 1;
    if (quiet > 0) law = mix(1, law, quiet / 6.0, point0());
    if (law.size() > max + 1) law.resize(max + 1);
    return law;
}

Vec base_fight_law(int cannons, std::size_t max) { return base_fight_law({}, cannons, max); }

Vec base_fight_law(const Options& o, int cannons, std::size_t max) {
    // D_c = q D_{c-1} + A_c * D_c, where q is the chance that the ship destroys a cannon (1/2 by
    // the book) and A_c (mass 1 - q) one round in which the base fires: an E-type missile, or
    // cannon fire max(0, S - S') with S the sum of c shot rolls and S' of c evasion rolls.
    const double q = chance(o.base_combat_cannon_destroyed_on);
    const double missile = (1 - q) * chance(o.base_attack_e_missile_on);
    const double fired = (1 - q) * (1 - chance(o.base_attack_e_missile_on));
    const Vec e_missile = threat_law(o.e_missile_destroyed_on, o.e_missile_damage);
    const Vec shot = dice_law(o.cannon_fire_shots), evasion = dice_law(o.cannon_fire_evaded);
    Vec d = point0(), shots = point0(), evaded = point0();
    for (int c = 1; c <= cannons; ++c) {
        const auto n = static_cast<std::size_t>(c);
        shots = convolve(shots, shot, n * static_cast<std::size_t>(o.cannon_fire_shots.max()));
        evaded =
            convolve(evaded, evasion, n * static_cast<std::size_t>(o.cannon_fire_evaded.max()));
        Vec fire(shots.size(), 0.0);
        for (std::size_t a = 0; a < shots.size(); ++a)
            for (std::size_t b = 0; b < evaded.size(); ++b)
                fire[a > b ? a - b : 0] += shots[a] * evaded[b];
        const Vec round = mix(missile, e_missile, fired, fire);
        Vec next(max + 1, 0.0);
        for (std::size_t v = 0; v <= max; ++v) {
            double x = v < d.size() ? q * d[v] : 0.0;
            for (std::size_t j = 1; j <= v && j < round.size(); ++j) x += round[j] * next[v - j];
            next[v] = x / (1 - round[0]);
        }
        d = std::move(next);
    }
    return d;
}

Result solve(const Options& o) {
    if (o.hull > kMaxExactHull)
        throw UsageError("bosconian: the exact solver handles hull up to " +
                         std::to_string(kMaxExactHull) + " (hull=" + std::to_string(o.hull) +
                         "); use 'odds run'");
    Solver s(o);
    if (o.fixed_layout())
        s.solve_fixed();
    else
        s.solve_random();
    return s.res;
}

std::string unresolved_note(const Options& o, const Result& r) {
    // The fewest bases whose first pass can pass the last sector: the longest gaps (B2).
    const int fewest = (o.sectors - 1) / o.placement_gap.max() + 1;
    char line[512];
    std::snprintf(line, sizeof line,
                  "The random layout wraps past sector %d with probability %.6g; what those "
                  "layouts do is not resolved (the 'unresolved' column). They hold %d %s or "
                  "more, and a win must survive every base fight ahead and every empty sector "
                  "up to the last base before the wrap, so at most %.3g of it is a win: P(win) "
                  "lies in [%.10f, %.10f].",
                  o.sectors, r.p_wrap, fewest, fewest == 1 ? "base" : "bases", r.win_bound,
                  r.win.mass[1], r.win.mass[1] + r.win_bound);
    return line;
}

void report(ExactReport& r, const Options& o) {
    const Result solved = solve(o);
    const auto specs = odds::bosconian::metric_specs(o);
    namespace b = odds::bosconian;
    const std::pair<int, const MetricLaw*> laws[] = {{b::kWin, &solved.win},
                                                     {b::kDamage, &solved.damage},
                                                     {b::kSectors, &solved.sectors_entered},
                                                     {b::kBasesPlaced, &solved.bases_placed}};
    for (const auto& [metric, law] : laws)
        r.laws.push_back({specs[static_cast<std::size_t>(metric)], law->mass, law->unresolved});
    if (solved.p_wrap == 0)  // every layout resolved: the survival table too
        r.survival = survival_csv_exact(solved.lost_at, solved.won_at, 0);
    if (solved.p_wrap > 0) r.notes.push_back(unresolved_note(o, solved));
}

}  // namespace odds::exact::bosconian
