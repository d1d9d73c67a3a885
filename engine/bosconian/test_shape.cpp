// The shape of a mission (shape.hpp): the solver's backward pass (MissionValues) against its
// forward solve from every mid-mission start it is asked at (exact against exact), and the
// traced missions against the kernel's own playouts.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/bosconian/shape.hpp"
#include "engine/dice.hpp"

using namespace odds;
namespace bos = odds::bosconian;
namespace ex = odds::exact::bosconian;

namespace {

std::uint64_t mask_of(std::initializer_list<int> sectors) {
    std::uint64_t m = 0;
    for (int s : sectors) m |= std::uint64_t{1} << (s - 1);
    return m;
}

}  // namespace

TEST_CASE("the backward pass gives the forward solve's P(win) from every start",
          "[bosconian][exact][shape]") {
    const std::pair<Settings, std::string> cases[] = {
        {{}, "book"},
        {{{"hull", "60"}, {"alert.encounters", "3"}, {"spy_ship.alert", "2d6"}}, "variant"},
        {{{"start_encounter", "true"}}, "sector 1 first"}};
    for (const auto& [extra, name] : cases) {
        Settings base = extra;
        base.emplace_back("layout", "4,9,17,22,30");
        const bos::Options o = bos::parse_options(base);
        const ex::MissionValues values(o);
        const int first = o.lap_position(o.effective_start());
        const ex::WinTable t = values.table(mask_of({4, 9, 17, 22, 30}), first);
        for (const auto& [sector, damage, alert] : {std::tuple{2, 0, 0},
                                                    {4, 10, 0},
                                                    {9, 38, 2},
                                                    {14, 38, 2},
                                                    {14, 5, 7},
                                                    {22, 50, 1},
                                                    {30, 30, 40},
                                                    {30, 99, 0}}) {
            if (damage >= o.hull) continue;
            Settings s = base;
            s.emplace_back("start_sector", std::to_string(sector));
            s.emplace_back("start_damage", std::to_string(damage));
            s.emplace_back("start_alert", std::to_string(alert));
            const double forward = ex::solve(bos::parse_options(s)).win.mass[1];
            INFO(name << ": sector " << sector << " damage " << damage << " alert " << alert);
            CHECK(std::abs(t.at(o.lap_position(sector), damage, alert) - forward) < 1e-12);
        }
    }
}

TEST_CASE("a traced mission ends on its playout's outcome, from the solver's P(win)",
          "[bosconian][shape]") {
    const bos::Options o = bos::parse_options({});
    const bos::shape::Tracer tracer(o);
    std::vector<double> p;
    for (std::uint64_t i = 0; i < 50; ++i) {
        tracer.trace(7, i, p);
        Dice dice(stream_seed(7, i));
        bos::RulesAsWritten rules;
        const bos::Outcome out = bos::play(o, rules, dice);
        REQUIRE(p.size() == static_cast<std::size_t>(out.sectors_entered) + 2);
        CHECK(p.front() == tracer.prior());
        CHECK(p.back() == (out.won ? 1.0 : 0.0));
        for (double x : p) CHECK((x >= 0 && x <= 1));
    }
    CHECK(std::abs(tracer.prior() - ex::solve(o).win.mass[1]) == 0);
}
