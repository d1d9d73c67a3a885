// The exact solver (sim/exact/bosconian) against Monte Carlo, within 4 standard errors at fixed
// seeds, for fixed layouts of 1, 3 and 6 bases, a mid-mission start, a changed hull, changed
// base cannons, and the random layout (where the solver's unresolved mass widens the band).
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <numeric>

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "sim/registry.hpp"
#include "tests/exact.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace bos = odds::bosconian;
namespace ex = odds::exact::bosconian;

namespace {

Tally monte_carlo(const Settings& settings, std::uint64_t playouts, std::uint64_t seed) {
    return test::monte_carlo("bosconian", settings, {}, playouts, seed);
}
using test::counts;

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

}  // namespace

TEST_CASE("exact laws are complete: win + loss = 1 within 1e-12", "[bosconian][exact]") {
    for (const Settings& s : {Settings{{"layout", "4,9,15"}}, Settings{},
                              Settings{{"layout", "7"}, {"start_alert", "40"}},
                              Settings{{"bases", "3"}, {"start_encounter", "true"}}}) {
        const auto r = ex::solve(bos::parse_options(s));
        INFO(bos::scenario(bos::parse_options(s)));
        CHECK(std::abs(sum(r.win.mass) + r.win.unresolved - 1) < 1e-12);
        CHECK(std::abs(sum(r.damage.mass) + r.damage.unresolved - 1) < 1e-12);
        CHECK(std::abs(sum(r.sectors_entered.mass) + r.sectors_entered.unresolved - 1) < 1e-12);
        CHECK(std::abs(sum(r.bases_placed.mass) - 1) < 1e-12);
    }
}

TEST_CASE("exact equals Monte Carlo for fixed layouts and mid-mission starts",
          "[bosconian][exact][statistics]") {
    const Settings scenarios[] = {
        {{"layout", "9"}},                                 // one base
        {{"layout", "4,9,15"}},                            // three bases
        {{"layout", "3,8,12,18,25,31"}, {"hull", "250"}},  // six bases
        {{"layout", "4,9,17,22,30"},
         {"start_sector", "14"},  // the table-side question
         {"start_damage", "38"},
         {"start_alert", "2"}},
        {{"layout", "6,12,20"}, {"hull", "60"}},            // a changed hull
        {{"layout", "6,12,20"}, {"base_cannons", "3"}},     // changed base cannons
        {{"layout", "1,20"}, {"start_encounter", "true"}},  // sector 1 first
    };
    std::uint64_t seed = 1000;
    for (const auto& s : scenarios) {
        const auto options = bos::parse_options(s);
        INFO(bos::scenario(options));
        const auto exact = ex::solve(options);
        REQUIRE(exact.win.unresolved == 0);
        const Tally mc = monte_carlo(s, 300'000, ++seed);
        test::require_matches(counts(mc, bos::kWin), exact.win.mass);
        test::require_matches(counts(mc, bos::kDamage), exact.damage.mass);
        test::require_matches(counts(mc, bos::kSectors), exact.sectors_entered.mass);
    }
}

TEST_CASE("exact brackets Monte Carlo for the random layout", "[bosconian][exact][statistics]") {
    for (const Settings& s : {Settings{}, Settings{{"bases", "4"}, {"hull", "150"}}}) {
        const auto options = bos::parse_options(s);
        INFO(bos::scenario(options));
        const auto exact = ex::solve(options);
        const Tally mc = monte_carlo(s, 1'000'000, 77);
        const double n = static_cast<double>(mc.playouts());

        // P(win) lies in [resolved, resolved + unresolved]: Monte Carlo within 4 sigma of it.
        const double low = exact.win.mass[1], high = low + exact.win.unresolved;
        const double p_hat = static_cast<double>(mc.counts(bos::kWin)[1]) / n;
        const double se = std::sqrt(high * (1 - low) / n);
        CHECK(p_hat >= low - 4 * se);
        CHECK(p_hat <= high + 4 * se);
        // Exactly resolved: bases placed.
        test::require_matches(counts(mc, bos::kBasesPlaced), exact.bases_placed.mass);
        // The damage mean, with the unresolved mass anywhere in 0..hull.
        double mean_low = 0;
        for (std::size_t v = 0; v < exact.damage.mass.size(); ++v)
            mean_low += static_cast<double>(v) * exact.damage.mass[v];
        const double mean_high = mean_low + exact.damage.unresolved * options.hull;
        double mc_mean = 0, mc_sq = 0;
        const auto dmg = mc.counts(bos::kDamage);
        for (std::size_t v = 0; v < dmg.size(); ++v) {
            mc_mean += static_cast<double>(v) * static_cast<double>(dmg[v]) / n;
            mc_sq += static_cast<double>(v * v) * static_cast<double>(dmg[v]) / n;
        }
        const double se_mean = std::sqrt((mc_sq - mc_mean * mc_mean) / n);
        CHECK(mc_mean >= mean_low - 4 * se_mean);
        CHECK(mc_mean <= mean_high + 4 * se_mean);
        // Every sectors-entered frequency within its band.
        const auto sec = mc.counts(bos::kSectors);
        for (std::size_t v = 0; v < sec.size(); ++v) {
            const double f = static_cast<double>(sec[v]) / n;
            const double lo = exact.sectors_entered.mass[v];
            const double hi = lo + exact.sectors_entered.unresolved;
            const double s_v = std::sqrt(std::max(hi * (1 - lo), 1.0 / n) / n);
            INFO("sectors " << v << ": " << f << " vs [" << lo << ", " << hi << "]");
            CHECK(f >= lo - 4 * s_v);
            CHECK(f <= hi + 4 * s_v);
        }
    }
}

TEST_CASE("the random layout without wrapping is resolved exactly", "[bosconian][exact]") {
    // Three bases in 36 sectors never wrap (at most 18 sectors on).
    const auto options = bos::parse_options({{"bases", "3"}});
    const auto exact = ex::solve(options);
    CHECK(exact.p_wrap == 0);
    CHECK(exact.win.unresolved == 0);
    const Tally mc = monte_carlo({{"bases", "3"}}, 300'000, 31);
    test::require_matches(counts(mc, bos::kWin), exact.win.mass);
    test::require_matches(counts(mc, bos::kSectors), exact.sectors_entered.mass);
    test::require_matches(counts(mc, bos::kDamage), exact.damage.mass);
}

TEST_CASE("the wrap probability of the placement matches enumeration", "[bosconian][exact]") {
    // No wrap iff the N gaps (each a d6) sum to at most 35: P(wrap) = sum_N P(N) P(S_N > 35).
    double p_wrap = 0;
    const auto two = test::sum_d6(2);
    for (int n = 2; n <= 12; ++n) {
        const auto s = test::sum_d6(n);
        double tail = 0;
        for (std::size_t v = 36; v < s.size(); ++v) tail += s[v];
        p_wrap += two[n] * tail;
    }
    CHECK(ex::solve(bos::parse_options({})).p_wrap == Approx(p_wrap).epsilon(1e-12));
}

TEST_CASE(
    "the seed mission's wrapping layouts: P(win) bounded within 1e-6, as an independent "
    "exact computation brackets it",
    "[bosconian][exact]") {
    // Issue 30: up to bosconian/2 the bound on what wrapping layouts add to P(win) counted only
    // their base fights (6.24e-5 wide: 3.8430%-3.8492%). An independent exact computation puts
    // P(win) within [0.0384301129, 0.0384307204].
    const auto r = ex::solve(bos::parse_options({}));
    const double low = r.win.mass[1], high = low + r.win.unresolved;
    INFO("P(win) in [" << low << ", " << high << "], width " << r.win.unresolved);
    CHECK(r.win.unresolved == r.win_bound);
    CHECK(r.win_bound <= 1e-6);
    CHECK(r.win_bound > 0);
    // Both are bounds on the same number: they overlap, and the exactly resolved part (the
    // layouts that do not wrap) is the independent computation's lower bound.
    CHECK(low <= 0.0384307204);
    CHECK(high >= 0.0384301129);
    CHECK(low == Approx(0.0384301129).margin(1e-10));
}

namespace {

// B2 by enumeration, independent of the solver's renewal scan: every layout the placement can
// roll, with its probability. From the last base (first: sector 1), the gap (gap[k] = P(k), a d6
// by the book) counts on, wrapping past the last sector; an occupied sector is rolled again (so
// the base falls on the free sectors the gap reaches, in proportion to their chances); with all
// of them occupied, the first free one after them (B2a, B2c).
std::map<std::uint64_t, double> enumerate_layouts(int sectors, const std::vector<double>& count,
                                                  const std::vector<double>& gap) {
    const int hi = static_cast<int>(gap.size()) - 1;
    std::map<std::uint64_t, double> layouts;
    // (placed, last) -> probability, one base at a time.
    std::map<std::pair<std::uint64_t, int>, double> now{{{0, 1}, 1.0}};
    for (std::size_t b = 1; b < count.size(); ++b) {
        std::map<std::pair<std::uint64_t, int>, double> next;
        for (const auto& [state, p] : now) {
            const auto [placed, last] = state;
            auto ahead = [&, last = last](int k) { return (last - 1 + k) % sectors + 1; };
            auto free = [&, placed = placed](int sector) {
                return (placed >> (sector - 1) & 1) == 0;
            };
            double room = 0;
            for (int k = 1; k <= hi; ++k) room += free(ahead(k)) ? gap[k] : 0.0;
            if (room > 0) {
                for (int k = 1; k <= hi; ++k)
                    if (free(ahead(k)) && gap[k] > 0)
                        next[{placed | std::uint64_t{1} << (ahead(k) - 1), ahead(k)}] +=
                            p * gap[k] / room;
            } else {
                int k = hi + 1;
                while (!free(ahead(k))) ++k;
                next[{placed | std::uint64_t{1} << (ahead(k) - 1), ahead(k)}] += p;
            }
        }
        now = std::move(next);
        for (const auto& [state, p] : now) layouts[state.first] += p * count[b];
    }
    return layouts;
}

}  // namespace

TEST_CASE("the random layout against an enumeration of every layout, each solved as a fixed one",
          "[bosconian][exact]") {
    // P(win) under the random layout is the sum over layouts of P(layout) x P(win | layout). In
    // 12 sectors 2d6 bases wrap most of the time: the enumeration must lie within the solver's
    // bounds. In 20 sectors 3 bases never wrap: it must equal the solver's answer. The count and
    // the gap are the laws written here, not read from the options (B2c variants among them).
    auto uniform = [](int lo, int hi) {  // P(v) for v = 0..hi: one die's faces, shifted
        std::vector<double> p(static_cast<std::size_t>(hi) + 1, 0.0);
        for (int v = lo; v <= hi; ++v) p[static_cast<std::size_t>(v)] = 1.0 / (hi - lo + 1);
        return p;
    };
    std::vector<double> two_d6(13, 0.0);
    for (std::size_t c = 2; c <= 12; ++c) two_d6[c] = test::sum_d6(2)[c];
    const std::vector<double> d6 = uniform(1, 6), three{0, 0, 0, 1.0};
    struct Case {
        Settings settings;
        bool wraps;
        std::vector<double> count, gap;
    };
    const Case cases[] = {
        {{{"sectors", "12"}, {"hull", "40"}}, true, two_d6, d6},
        {{{"sectors", "12"}, {"hull", "40"}, {"start_sector", "6"}, {"start_damage", "5"}},
         true,
         two_d6,
         d6},
        {{{"sectors", "12"}, {"hull", "40"}, {"start_encounter", "true"}, {"start_alert", "2"}},
         true,
         two_d6,
         d6},
        {{{"sectors", "20"}, {"hull", "40"}, {"bases", "3"}}, false, three, d6},
        // B2c: variants of the count and of the gap, single dice and a sum (2d2: 2, 3, 3, 4).
        {{{"sectors", "20"}, {"hull", "40"}, {"bases", "1d3"}, {"placement.gap", "1d4"}},
         false,
         uniform(1, 3),
         uniform(1, 4)},
        {{{"sectors", "30"}, {"hull", "40"}, {"bases", "1d6+2"}, {"placement.gap", "1d3"}},
         false,
         uniform(3, 8),
         uniform(1, 3)},
        {{{"sectors", "16"}, {"hull", "40"}, {"bases", "3"}, {"placement.gap", "2d2"}},
         false,
         three,
         {0, 0, 0.25, 0.5, 0.25}},
        {{{"sectors", "12"}, {"hull", "40"}, {"bases", "1d4+1"}, {"placement.gap", "1d3+1"}},
         true,
         uniform(2, 5),
         uniform(2, 4)},
        {{{"sectors", "12"}, {"hull", "30"}, {"bases", "2d2"}, {"placement.gap", "2d3"}},
         true,
         {0, 0, 0.25, 0.5, 0.25},
         {0, 0, 1.0 / 9, 2.0 / 9, 3.0 / 9, 2.0 / 9, 1.0 / 9}},
        // Issue 40: gaps as long as the quadrant or longer, which carry the first base itself
        // past the last sector (a first pass of no base) or wrap a layout more than once.
        {{{"sectors", "12"}, {"hull", "40"}, {"bases", "1d4+1"}, {"placement.gap", "12"}},
         true,
         uniform(2, 5),
         uniform(12, 12)},
        {{{"sectors", "12"}, {"hull", "40"}, {"bases", "1d4+1"}, {"placement.gap", "1d6+10"}},
         true,
         uniform(2, 5),
         uniform(11, 16)},
        {{{"sectors", "10"}, {"hull", "40"}, {"bases", "1d3"}, {"placement.gap", "1d10+9"}},
         true,
         uniform(1, 3),
         uniform(10, 19)},
        {{{"sectors", "12"}, {"hull", "40"}, {"bases", "2d2"}, {"placement.gap", "1d12+4"}},
         true,
         {0, 0, 0.25, 0.5, 0.25},
         uniform(5, 16)},
        {{{"sectors", "12"},
          {"hull", "40"},
          {"bases", "1d4+1"},
          {"placement.gap", "1d6+10"},
          {"start_sector", "5"}},
         true,
         uniform(2, 5),
         uniform(11, 16)},
        {{{"sectors", "12"}, {"hull", "40"}, {"bases", "1d3+1"}, {"placement.gap", "25"}},
         true,
         uniform(2, 4),
         uniform(25, 25)},
        // Issue 40's property test: a count of d6s less a constant (it threw bad_alloc).
        {{{"sectors", "12"}, {"hull", "40"}, {"bases", "2d6-1"}},
         true,
         {0, 1.0 / 36, 2.0 / 36, 3.0 / 36, 4.0 / 36, 5.0 / 36, 6.0 / 36, 5.0 / 36, 4.0 / 36,
          3.0 / 36, 2.0 / 36, 1.0 / 36},
         d6},
    };
    for (const auto& [settings, wraps, count, gap] : cases) {
        const auto options = bos::parse_options(settings);
        INFO(bos::scenario(options));
        const auto layouts = enumerate_layouts(options.sectors, count, gap);
        const int start_pos = options.lap_position(options.effective_start());
        double win = 0, total = 0;
        for (const auto& [layout, p] : layouts) {
            total += p;
            bool ahead = false;  // B3a: with no base left ahead, the mission is won
            for (int pos = start_pos; pos < options.sectors; ++pos)
                ahead = ahead || (layout >> (options.sector_at(pos) - 1) & 1) != 0;
            if (!ahead) {
                win += p;
                continue;
            }
            bos::Options fixed = options;
            fixed.layout = layout;
            fixed.bases = DiceExpr::of(0, 0, std::popcount(layout));
            win += p * ex::solve(fixed).win.mass[1];
        }
        CHECK(total == Approx(1).margin(1e-12));
        const auto r = ex::solve(options);
        const double low = r.win.mass[1], high = low + r.win.unresolved;
        INFO("enumerated " << win << ", solver [" << low << ", " << high << "]");
        CHECK((r.p_wrap > 0) == wraps);
        CHECK(win >= low - 1e-12);
        CHECK(win <= high + 1e-12);
        if (!wraps) CHECK(win == Approx(low).margin(1e-12));
    }
}

TEST_CASE("Bosconian exact: cosmo_mine variants against an enumeration of the encounter's faces",
          "[exact][bosconian][variant]") {
    // The encounter law (no alert) by the solver, against every face sequence of a cosmo-mine
    // enumerated here: it differs from the book's by 1/6 x (variant mine - book mine).
    auto mine = [](std::initializer_list<int> kill, int dice, int sides, int plus) {
        std::vector<double> m(200, 0.0);
        for (int d = 1; d <= 6; ++d) {
            if (std::find(kill.begin(), kill.end(), d) != kill.end()) {
                m[0] += 1.0 / 6;
                continue;
            }
            const int outcomes = static_cast<int>(std::pow(sides, dice));
            for (int k = 0; k < outcomes; ++k) {
                int total = plus;
                for (int i = 0, x = k; i < dice; ++i, x /= sides) total += x % sides + 1;
                m[static_cast<std::size_t>(total)] += 1.0 / 6 / outcomes;
            }
        }
        return m;
    };
    const auto book_mine = mine({2, 3, 4, 5}, 4, 6, 0);
    struct Case {
        Settings set;
        std::vector<double> law;
    };
    const Case cases[] = {
        {{{"cosmo_mine.damage", "3d6"}}, mine({2, 3, 4, 5}, 3, 6, 0)},
        {{{"cosmo_mine.damage", "2d8+1"}, {"cosmo_mine.destroyed_on", "6"}}, mine({6}, 2, 8, 1)}};
    const auto book = ex::encounter_law_without_alert(150);
    for (const auto& c : cases) {
        const auto o = bos::parse_options(c.set);
        const auto law = ex::encounter_law_without_alert(o, 150);
        for (std::size_t v = 0; v <= 150; ++v) {
            const double b = v < book.size() ? book[v] : 0.0;
            const double x = v < law.size() ? law[v] : 0.0;
            INFO("damage " << v);
            CHECK(x - b == Approx((c.law[v] - book_mine[v]) / 6).margin(1e-12));
        }
    }
    // asteroid.*: the same against the book's asteroid (2, 4, 6; 1d6).
    const auto o =
        bos::parse_options({{"asteroid.damage", "2d4"}, {"asteroid.destroyed_on", "1-2"}});
    const auto law = ex::encounter_law_without_alert(o, 150);
    const auto rock = mine({1, 2}, 2, 4, 0), book_rock = mine({2, 4, 6}, 1, 6, 0);
    for (std::size_t v = 0; v <= 150; ++v) {
        const double b = v < book.size() ? book[v] : 0.0;
        const double x = v < law.size() ? law[v] : 0.0;
        INFO("asteroid, damage " << v);
        CHECK(x - b == Approx((rock[v] - book_rock[v]) / 6).margin(1e-12));
    }
}

TEST_CASE("Bosconian exact: cosmo_mine.damage=3d6 against Monte Carlo",
          "[exact][bosconian][variant]") {
    const Settings set{{"sectors", "12"},
                       {"layout", "5,9,12"},
                       {"hull", "60"},
                       {"cosmo_mine.damage", "3d6"},
                       {"cosmo_mine.destroyed_on", "2-3"}};
    const auto solved = ex::solve(bos::parse_options(set));
    const std::uint64_t n = 200000;
    const Tally t = monte_carlo(set, n, 29);
    const double p = solved.win.mass[1];
    const double mc = static_cast<double>(counts(t, bos::kWin)[1]) / static_cast<double>(n);
    CHECK(std::abs(mc - p) <= 4 * std::sqrt(p * (1 - p) / static_cast<double>(n)));
}

TEST_CASE("Bosconian exact: spy_ship variants against Monte Carlo", "[exact][bosconian][variant]") {
    const Settings set{{"sectors", "12"},
                       {"layout", "6,12"},
                       {"hull", "60"},
                       {"spy_ship.alert", "1d4+2"},
                       {"spy_ship.destroyed_on", "6"}};
    const auto solved = ex::solve(bos::parse_options(set));
    const auto book =
        ex::solve(bos::parse_options({{"sectors", "12"}, {"layout", "6,12"}, {"hull", "60"}}));
    const std::uint64_t n = 200000;
    const Tally t = monte_carlo(set, n, 31);
    const double p = solved.win.mass[1];
    const double mc = static_cast<double>(counts(t, bos::kWin)[1]) / static_cast<double>(n);
    const double se = std::sqrt(p * (1 - p) / static_cast<double>(n));
    CHECK(std::abs(mc - p) <= 4 * se);
    CHECK(std::abs(book.win.mass[1] - p) > 8 * se);  // the variant is not the book
}

namespace {
// Independent enumerations for the variant tests below: every face of every die, one at a time,
// following the rule book's text, not the solver's formulas.
using Law = std::map<int, double>;  // damage -> probability

// The totals of n dice of `sides` faces plus `plus`, every face enumerated.
Law totals(int n, int sides, int plus) {
    Law out;
    const auto go = [&](auto&& self, int left, int total, double w) -> void {
        if (left == 0) {
            out[total] += w;
            return;
        }
        for (int f = 1; f <= sides; ++f) self(self, left - 1, total + f, w / sides);
    };
    go(go, n, plus, 1.0);
    return out;
}
struct Threat {
    std::vector<int> kill;  // the faces of its d6 that destroy it
    Law damage;
    bool kills(int d) const { return std::find(kill.begin(), kill.end(), d) != kill.end(); }
};
// B7: the formation's fights from (leader left, others left), leader number L, die by die.
void fight(const Threat& t, bool leader, int others, int L, int damage, double w, Law& out) {
    if (!leader && others == 0) {
        out[damage] += w;
        return;
    }
    const auto resolve = [&](bool at_leader, double w2) {
        for (int d = 1; d <= 6; ++d) {
            if (t.kills(d)) {
                if (at_leader)
                    out[damage] += w2 / 6;  // the rest scatter
                else
                    fight(t, leader, others - 1, L, damage, w2 / 6, out);
                continue;
            }
            for (const auto& [x, q] : t.damage)
                fight(t, at_leader ? false : leader, at_leader ? others : others - 1, L, damage + x,
                      w2 / 6 * q, out);
        }
    };
    if (leader && others > 0)
        for (int f = 1; f <= 6; ++f) resolve(f == L, w / 6);
    else
        resolve(leader, w);
}
}  // namespace

TEST_CASE("Bosconian exact: a variant's encounter table and formation against an enumeration",
          "[exact][bosconian][variant]") {
    const Settings set{{"encounter.i_missile", "1,2"},  {"encounter.cosmo_mine", "3"},
                       {"encounter.p_missile", "none"}, {"encounter.asteroid", "4"},
                       {"encounter.formation", "5"},    {"encounter.spy_ship", "6"},
                       {"i_missile.destroyed_on", "2"}, {"i_missile.damage", "1d4+1"},
                       {"p_missile.damage", "2d3"},     {"formation.missiles", "3"},
                       {"formation.i_type", "1-4"},     {"formation.leader_rerolled_on", "5-6"},
                       {"spy_ship.destroyed_on", "3"},  {"cosmo_mine.damage", "1d6"}};
    const auto o = bos::parse_options(set);
    const Threat i{{2}, totals(1, 4, 1)}, p{{1, 2, 5, 6}, totals(2, 3, 0)};
    const Threat mine{{2, 3, 4, 5}, totals(1, 6, 0)}, rock{{2, 4, 6}, totals(1, 6, 0)};
    Law want;
    const auto single = [&](const Threat& t, double w) {
        for (int d = 1; d <= 6; ++d) {
            if (t.kills(d)) {
                want[0] += w / 6;
                continue;
            }
            for (const auto& [x, q] : t.damage) want[x] += w / 6 * q;
        }
    };
    single(i, 2.0 / 6);                              // faces 1, 2
    single(mine, 1.0 / 6);                           // face 3
    single(rock, 1.0 / 6);                           // face 4
    for (int type = 1; type <= 6; ++type)            // face 5: 1-4 I-type, 5-6 P-type
        for (int leader = 1; leader <= 4; ++leader)  // 5-6 rolled again: 1-4 alike
            fight(type <= 4 ? i : p, true, 2, leader, 0, 1.0 / 6 / 6 / 4, want);
    want[0] += 1.0 / 6 / 6;  // face 6: a spy ship destroyed on a 3 (its escape raises an alert)
    const auto law = ex::encounter_law_without_alert(o, 200);
    double total = 0;
    for (std::size_t v = 0; v < law.size(); ++v) {
        INFO("damage " << v);
        CHECK(law[v] == Approx(want.count(static_cast<int>(v)) ? want[static_cast<int>(v)] : 0.0)
                            .margin(1e-13));
        total += law[v];
    }
    CHECK(total == Approx(1 - 1.0 / 6 * 5 / 6).margin(1e-13));
    // B5a: a 6 of no encounter is a quiet roll, damage 0, where the book's spy ship was.
    const auto quiet =
        ex::encounter_law_without_alert(bos::parse_options({{"encounter.spy_ship", "none"}}), 200);
    const auto book = ex::encounter_law_without_alert(200);
    CHECK(quiet[0] == Approx(book[0] - 1.0 / 6 * 2 / 6 + 1.0 / 6).margin(1e-15));
    CHECK(sum(quiet) == Approx(1).margin(1e-13));
    // The book's formation of five, for contrast: the variant's law is not the book's.
    CHECK(std::abs(ex::encounter_law_without_alert(200)[0] - law[0]) > 0.01);
}

TEST_CASE("Bosconian exact: a variant's base fight against round-by-round enumeration",
          "[exact][bosconian][variant]") {
    const Settings set{{"base_combat.cannon_destroyed_on", "1-2"},
                       {"base_attack.e_missile_on", "1"},
                       {"e_missile.destroyed_on", "3-5"},
                       {"e_missile.damage", "1d4+2"},
                       {"cannon_fire.shots", "1d8"},
                       {"cannon_fire.evaded", "1d4+1"}};
    const auto o = bos::parse_options(set);
    constexpr int kMax = 120, kCannons = 2;
    // The chain over (cannons left, damage) round by round: the combat die, the attack die, the
    // missile's die and damage, or every shot and evasion die; damage past kMax is dropped.
    std::vector<std::vector<double>> mass(kCannons + 1, std::vector<double>(kMax + 1, 0.0));
    mass[kCannons][0] = 1;
    std::vector<double> want(kMax + 1, 0.0);
    const Law missile = totals(1, 4, 2);
    for (int round = 0; round < 2000; ++round) {
        std::vector<std::vector<double>> next(kCannons + 1, std::vector<double>(kMax + 1, 0.0));
        double left = 0;
        for (int c = 1; c <= kCannons; ++c) {
            Law shots = totals(c, 8, 0), evaded = totals(c, 4, c);
            for (int v = 0; v <= kMax; ++v) {
                const double w = mass[c][v];
                if (w == 0) continue;
                const auto hit = [&](int x, double q) {
                    if (v + x <= kMax) next[c][v + x] += q;
                };
                for (int f = 1; f <= 6; ++f) {
                    if (f <= 2) {  // a cannon destroyed; the last one: the base
                        if (c == 1)
                            want[v] += w / 6;
                        else
                            next[c - 1][v] += w / 6;
                        continue;
                    }
                    for (int g = 1; g <= 6; ++g) {
                        const double wg = w / 36;
                        if (g == 1) {  // an E-type missile
                            for (int d = 1; d <= 6; ++d) {
                                if (d >= 3 && d <= 5)
                                    hit(0, wg / 6);
                                else
                                    for (const auto& [x, q] : missile) hit(x, wg / 6 * q);
                            }
                        } else {  // cannon fire
                            for (const auto& [s, qs] : shots)
                                for (const auto& [e, qe] : evaded)
                                    hit(std::max(s - e, 0), wg * qs * qe);
                        }
                    }
                }
            }
        }
        mass = std::move(next);
        for (const auto& m : mass) left += sum(m);
        if (left < 1e-16) break;
    }
    const auto law = ex::base_fight_law(o, kCannons, kMax);
    for (int v = 0; v <= kMax; ++v) {
        INFO("damage " << v);
        CHECK(law[static_cast<std::size_t>(v)] ==
              Approx(want[static_cast<std::size_t>(v)]).margin(1e-13));
    }
    // The book's fight of two cannons differs.
    CHECK(std::abs(ex::base_fight_law(kCannons, kMax)[0] - law[0]) > 0.01);
}

TEST_CASE("Bosconian exact: alert.encounters and a whole variant against Monte Carlo",
          "[exact][bosconian][variant][statistics]") {
    const Settings base{{"sectors", "12"},
                        {"layout", "5,12"},
                        {"hull", "80"},
                        {"start_alert", "2"},
                        {"spy_ship.destroyed_on", "6"}};
    std::uint64_t seed = 2900;
    for (const Settings& extra :
         {Settings{{"alert.encounters", "3"}}, Settings{{"alert.encounters", "1"}},
          Settings{{"alert.encounters", "4"},
                   {"encounter.spy_ship", "5,6"},
                   {"encounter.formation", "none"},
                   {"formation.missiles", "7"},
                   {"base_combat.cannon_destroyed_on", "1-2"},
                   {"cannon_fire.evaded", "1d4"},
                   {"e_missile.damage", "2d6"}},
          Settings{{"encounter.formation", "4,5"},
                   {"encounter.asteroid", "none"},
                   {"formation.missiles", "2"},
                   {"formation.leader_rerolled_on", "none"},
                   {"p_missile.damage", "1d10"}}}) {
        Settings set = base;
        set.insert(set.end(), extra.begin(), extra.end());
        const auto options = bos::parse_options(set);
        INFO(bos::scenario(options));
        const auto exact = ex::solve(options);
        REQUIRE(exact.win.unresolved == 0);
        const Tally mc = monte_carlo(set, 200'000, ++seed);
        test::require_matches(counts(mc, bos::kWin), exact.win.mass);
        test::require_matches(counts(mc, bos::kDamage), exact.damage.mass);
        test::require_matches(counts(mc, bos::kSectors), exact.sectors_entered.mass);
    }
}

TEST_CASE("Bosconian exact: a variant's placement (bases, placement.gap) against Monte Carlo",
          "[exact][bosconian][variant][statistics][B2c]") {
    // Random layouts that cannot wrap (the most bases times the longest gap stays inside the
    // quadrant), so the solver resolves them in full: a single-die gap (the solver's whole-number
    // path) and a sum (its general path), with counts rolled from dice.
    std::uint64_t seed = 2950;
    for (const Settings& set :
         {Settings{{"sectors", "36"}, {"bases", "1d4"}, {"placement.gap", "1d8"}},
          Settings{{"sectors", "50"}, {"bases", "1d6+2"}, {"placement.gap", "2d3"}}}) {
        const auto options = bos::parse_options(set);
        INFO(bos::scenario(options));
        const auto exact = ex::solve(options);
        REQUIRE(exact.p_wrap == 0);
        REQUIRE(exact.win.unresolved == 0);
        const Tally mc = monte_carlo(set, 100'000, ++seed);
        test::require_matches(counts(mc, bos::kWin), exact.win.mass);
        test::require_matches(counts(mc, bos::kDamage), exact.damage.mass);
        test::require_matches(counts(mc, bos::kSectors), exact.sectors_entered.mass);
        test::require_matches(counts(mc, bos::kBasesPlaced), exact.bases_placed.mass);
    }
}
