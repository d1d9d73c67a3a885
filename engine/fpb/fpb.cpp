#include "engine/fpb/fpb.hpp"

#include <algorithm>

namespace odds::fpb {

namespace {
// H3a (restricted play): the choices barred, a bit each in kRestrictWords' order (Options::kBar*).
constexpr std::string_view kRestrictWords = "smoke,cover,halt,move,carry,first_out";
constexpr std::string_view kRestrictTakes =
    "none, or comma-separated: smoke, cover (covering fire), halt, move (the Lt's orders, H4), "
    "carry (a voluntary carry, H5), first_out (choosing which wounded man goes first, H7a)";

// The most a Guts roll totals (H2): a Guts above it always succeeds (at or under).
std::int64_t guts_most(const Options& o) { return std::max(0, o.guts_dice.max()); }

// H6: the sniper's table, the fields of area A+1's row (open, covered, smoke), and the words of
// each column.
constexpr std::array kSniperRows = {
    elements<&Options::sniper_rows, 0>, elements<&Options::sniper_rows, 1>,
    elements<&Options::sniper_rows, 2>, elements<&Options::sniper_rows, 3>};
static_assert(kSniperRows.size() == kMaxAreas - 1);
constexpr std::string_view kCovers[] = {"open", "covered", "smoke"};
constexpr std::string_view kCoverWords[] = {"no smoke, no covering fire", "covering fire, no smoke",
                                            "smoke in the area, covering fire or not"};

void check_options(Options& o, const OptionReader& r);

OptionTable<Options> make_table() {
    using O = Options;
    OptionTable<O> t("fpb");
    t.add({
        {"max_turns", integer(field<&O::max_turns>, 1, 250), "H3",
         "turns after which the game ends, everyone on the board left behind, {range}",
         Naming::always},
        {"field.areas", integer(field<&O::areas>, 2, kMaxAreas), "H1, H1a",
         "areas from the exposed area 1 back to the last, the cover area where the squad starts "
         "and bugs out (the book's area 3), {range}"},
        {"squad.size", integer(field<&O::squad_size>, 2, kSquad), "H1",
         "marines in the game: the first of the roster lt, icecube, tex, buster, reflex, "
         "snowball, legs, edsel; the others stay out of it, counted nowhere, {range}"},
        {"squad.icecube_area", integer(field<&O::icecube_area>, 1, named("field.areas")), "H1",
         "the area where Ice-cube lies wounded at the start, {range}"},
    });
    for (int i = 0; i < kSquad; ++i)  // H1
        if (i != kIceCube)
            t.add({concat("squad.", kNames[i], "_area"),
                   integer(elements<&O::start_area>[i], 1, named("field.areas"), "cover"), "H1",
                   concat("the area where ", kNames[i],
                          " starts, {range} (cover: the last area, the book's area 3)")});
    for (int a = 1; a < kMaxAreas; ++a)  // H6; H1a: the areas past the book's two
        for (int c = 0; c < 3; ++c)
            t.add({concat("sniper.area", std::to_string(a), ".", kCovers[c]),
                   faces_option(kSniperRows[a - 1][c]), a < 3 ? "H6" : "H6, H1a",
                   concat("the sniper's d6 faces that wound a fit marine in area ",
                          std::to_string(a), ", ", kCoverWords[c],
                          a < 3 ? ""
                                : concat(" (a target once field.areas is ", std::to_string(a + 1),
                                         " or more; the book: none)"))});
    t.add({
        {"guts.roll", dice_option(field<&O::guts_dice>, 1, 100), "H2, H2a",
         "the dice of every Guts roll, {range}"},
        {"guts.succeeds", choice(field<&O::guts_at_or_over>, "at_or_under,at_or_over"), "H2",
         "a Guts roll succeeds with a total at or under the marine's Guts (the book), or at or "
         "over it"},
        {"guts.critical", choice(field<&O::guts_critical>, "double,pair,none"), "H2, H2a",
         "a Guts roll's critical (Heroics, a sure carry): double, every die alike (2d6: the "
         "book's natural double); pair, any two dice alike; none"},
    });
    t.defaults({.after = "guts.roll"});
    for (int i = 0; i < kSquad; ++i)  // H1, H2
        if (i != kIceCube)
            t.add(
                {concat("guts.", kNames[i]),
                 integer(
                     elements<&O::guts>[i], 0, Bound<O> { guts_most, "guts.roll's most" }),
                 "H1, H2",
                 concat(kNames[i],
                        "'s Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}")});
    t.defaults({});
    t.add({
        {"leader.reach", integer(field<&O::lt_reach>, 0, kMaxAreas - 1), "H4",
         "areas from his own the Lt reaches with an order: smoke, covering fire, halt, move (the "
         "book: 1, the same or an adjacent area), {range}"},
        {"leader.orders", integer(field<&O::orders>, 0, 3), "H4",
         "leader actions the Lt attempts a turn (the book: one), {range}"},
        {"smoke.turns", dice_option(field<&O::smoke_turns>, 0, 100), "H4",
         "turns a smoke order's smoke lasts in its area (the longer stays), {range}"},
        {"smoke.orders", integer(field<&O::smoke_orders>, 1, 50, "unlimited"), "H4",
         "smoke orders the Lt has for the game, each attempt using one (the book: no limit), "
         "{range}"},
        {"covering_fire.firers", integer(field<&O::cover_firers>, 1, kSquad - 1), "H6",
         "marines firing anywhere that put the sniper at the covering-fire disadvantage (the "
         "book: at least one), {range}"},
        {"friendly_fire.wounds_on", faces_option(field<&O::friendly_fire>), "H6",
         "the d6 faces that wound a fit marine in smoke when covering fire comes from area 2 or 3"},
        {"friendly_fire.from_area", integer(field<&O::friendly_from>, 1, named("field.areas")),
         "H6",
         "covering fire from this area or any behind it risks friendly fire on the men in smoke "
         "(the book: area 2 or 3), {range}"},
        {"excess.max_wounded", integer(field<&O::max_wounded_per_area>, 1, 2), "H6",
         "wounded men an area holds before the most recently wounded dies, {range}"},
        {"bug_out.lt_reach", integer(field<&O::bug_out_lt_reach>, 0, kMaxAreas - 1), "H7",
         "areas from cover within which a fit Lt makes one Guts roll for the whole bug-out (the "
         "book: 1, area 2 or 3), {range}"},
        {"bug_out.wounded_each", integer(field<&O::bug_out_wounded>, 0, 2), "H7",
         "wounded marines in cover each withdrawing marine takes with him (the book: one), "
         "{range}"},
        {"restrict", word_set<kRestrictWords, kRestrictTakes, &O::barred>(), "H3a",
         "restricted play: the choices the player may never make (every policy honours it; a "
         "barred order is played as no order)"},
    });
    t.after_reading(check_options);
    return t;
}
}  // namespace

const OptionTable<Options>& option_table() { return built_once<make_table>(); }

Options parse_options(const Settings& settings) { return option_table().parse(settings); }

namespace {
// What no bound states, checked once the options are read (OptionTable::after_reading).
void check_options(Options& o, const OptionReader& r) {
    // H2, H2a: a Guts roll of two d6 and a constant (the book's 2d6 among them) is rolled as
    // two faces, whatever guts.succeeds and guts.critical say.
    const DiceExpr& g = o.guts_dice;
    // H2a: a critical reads the dice one by one, which a kept, exploding, counted or rerolled
    // term does not show.
    if (!g.plain() && o.guts_critical != Options::kNoCritical)
        r.fail("guts.roll", to_string(g),
               "dice NdX (or a sum of those) while guts.critical reads each die; kept, exploding, "
               "counted or rerolled dice with guts.critical=none");
    o.guts_two_d6 = g.only_d6 && g.d6 == 2;
    o.guts_add = g.constant;
    o.guts_double_critical = o.guts_critical != Options::kNoCritical;
}
}  // namespace

std::string scenario(const Options& o) { return option_table().scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    MetricSpecs<Options> m{o, {}};
    declare_metrics(m);
    return std::move(m.specs);
}

std::vector<SurvivalSpec> survival_specs() {
    // P(neither wounded nor killed) by turn: the squad's first casualty, then each marine's.
    std::vector<SurvivalSpec> s = {SurvivalSpec{kSquadTime, kSquadHit, 1, "turn", "squad",
                                                "a marine (Ice-cube aside) is wounded or killed"}};
    for (int i = 0, k = 0; i < kSquad; ++i) {
        if (i == kIceCube) continue;
        s.push_back(SurvivalSpec{kMarineTime + 2 * k, kMarineTime + 2 * k + 1, 1, "turn", kNames[i],
                                 std::string(kNames[i]) + " is wounded or killed"});
        ++k;
    }
    return s;
}

}  // namespace odds::fpb
