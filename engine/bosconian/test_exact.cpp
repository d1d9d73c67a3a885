// The exact solver (sim/exact/bosconian) against Monte Carlo, within 4 standard errors at fixed
// seeds, for fixed layouts of 1, 3 and 6 bases, a mid-mission start, a changed hull, changed
// base cannons, and the random layout (where the solver's unresolved mass widens the band).
#include <catch2/catch.hpp>
#include <cmath>
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
