#include "engine/fpb/fpb.hpp"

#include <algorithm>

namespace odds::fpb {

namespace {
// One cell of the sniper's table (H6): area A+1, cover C.
template <std::size_t A, std::size_t C>
struct SniperCell {
    static FaceSet get(const Options& o) { return o.sniper_rows[A][C]; }
    static void set(Options& o, FaceSet v) { o.sniper_rows[A][C] = v; }
};
template <std::size_t A, std::size_t C>
inline constexpr Field<Options, FaceSet> sniper_cell{&SniperCell<A, C>::get,
                                                     &SniperCell<A, C>::set};

// H3a (restricted play): the choices barred, a bit each in kRestrictWords' order (Options::kBar*).
constexpr std::string_view kRestrictWords = "smoke,cover,halt,move,carry,first_out";
constexpr std::string_view kRestrictTakes =
    "none, or comma-separated: smoke, cover (covering fire), halt, move (the Lt's orders, H4), "
    "carry (a voluntary carry, H5), first_out (choosing which wounded man goes first, H7a)";
std::string read_barred(Options& o, std::string_view text) {
    const auto bits = read_word_set(text, kRestrictWords);
    if (!bits) return std::string(kRestrictTakes);
    o.barred = static_cast<std::uint8_t>(*bits);
    return "";
}
std::string write_barred(const Options& o) { return write_word_set(o.barred, kRestrictWords); }

// The most a Guts roll totals (H2): a Guts above it always succeeds (at or under).
std::int64_t guts_most(const Options& o) { return std::max(0, o.guts_dice.max()); }

constexpr Option<Options> kOptions[] = {
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 250),
     .help = "turns after which the game ends, everyone on the board left behind, {range}",
     .ruling = "H3"},
    {.name = "field.areas",
     .type = integer(field<&Options::areas>, 2, kMaxAreas),
     .help = "areas from the exposed area 1 back to the last, the cover area where the squad "
             "starts and bugs out (the book's area 3), {range}",
     .ruling = "H1, H1a",
     .named_when_changed = true},
    {.name = "squad.size",
     .type = integer(field<&Options::squad_size>, 2, kSquad),
     .help = "marines in the game: the first of the roster lt, icecube, tex, buster, reflex, "
             "snowball, legs, edsel; the others stay out of it, counted nowhere, {range}",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.icecube_area",
     .type = integer(field<&Options::icecube_area>, 1, named("field.areas")),
     .help = "the area where Ice-cube lies wounded at the start, {range}",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.lt_area",
     .type = integer(element<&Options::start_area, 0>, 1, named("field.areas"), "cover"),
     .help = "the area where lt starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.tex_area",
     .type = integer(element<&Options::start_area, 2>, 1, named("field.areas"), "cover"),
     .help = "the area where tex starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.buster_area",
     .type = integer(element<&Options::start_area, 3>, 1, named("field.areas"), "cover"),
     .help = "the area where buster starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.reflex_area",
     .type = integer(element<&Options::start_area, 4>, 1, named("field.areas"), "cover"),
     .help = "the area where reflex starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.snowball_area",
     .type = integer(element<&Options::start_area, 5>, 1, named("field.areas"), "cover"),
     .help = "the area where snowball starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.legs_area",
     .type = integer(element<&Options::start_area, 6>, 1, named("field.areas"), "cover"),
     .help = "the area where legs starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "squad.edsel_area",
     .type = integer(element<&Options::start_area, 7>, 1, named("field.areas"), "cover"),
     .help = "the area where edsel starts, {range} (cover: the last area, the book's area 3)",
     .ruling = "H1",
     .named_when_changed = true},
    {.name = "sniper.area1.open",
     .type = faces_option(sniper_cell<0, 0>),
     .help = "the sniper's d6 faces that wound a fit marine in area 1, no smoke, no covering fire",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "sniper.area1.covered",
     .type = faces_option(sniper_cell<0, 1>),
     .help = "the sniper's d6 faces that wound a fit marine in area 1, covering fire, no smoke",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "sniper.area1.smoke",
     .type = faces_option(sniper_cell<0, 2>),
     .help = "the sniper's d6 faces that wound a fit marine in area 1, smoke in the area, covering "
             "fire or not",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "sniper.area2.open",
     .type = faces_option(sniper_cell<1, 0>),
     .help = "the sniper's d6 faces that wound a fit marine in area 2, no smoke, no covering fire",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "sniper.area2.covered",
     .type = faces_option(sniper_cell<1, 1>),
     .help = "the sniper's d6 faces that wound a fit marine in area 2, covering fire, no smoke",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "sniper.area2.smoke",
     .type = faces_option(sniper_cell<1, 2>),
     .help = "the sniper's d6 faces that wound a fit marine in area 2, smoke in the area, covering "
             "fire or not",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "sniper.area3.open",
     .type = faces_option(sniper_cell<2, 0>),
     .help = "the sniper's d6 faces that wound a fit marine in area 3, no smoke, no covering fire "
             "(a target once field.areas is 4 or more; the book: none)",
     .ruling = "H6, H1a",
     .named_when_changed = true},
    {.name = "sniper.area3.covered",
     .type = faces_option(sniper_cell<2, 1>),
     .help = "the sniper's d6 faces that wound a fit marine in area 3, covering fire, no smoke (a "
             "target once field.areas is 4 or more; the book: none)",
     .ruling = "H6, H1a",
     .named_when_changed = true},
    {.name = "sniper.area3.smoke",
     .type = faces_option(sniper_cell<2, 2>),
     .help = "the sniper's d6 faces that wound a fit marine in area 3, smoke in the area, covering "
             "fire or not (a target once field.areas is 4 or more; the book: none)",
     .ruling = "H6, H1a",
     .named_when_changed = true},
    {.name = "sniper.area4.open",
     .type = faces_option(sniper_cell<3, 0>),
     .help = "the sniper's d6 faces that wound a fit marine in area 4, no smoke, no covering fire "
             "(a target once field.areas is 5 or more; the book: none)",
     .ruling = "H6, H1a",
     .named_when_changed = true},
    {.name = "sniper.area4.covered",
     .type = faces_option(sniper_cell<3, 1>),
     .help = "the sniper's d6 faces that wound a fit marine in area 4, covering fire, no smoke (a "
             "target once field.areas is 5 or more; the book: none)",
     .ruling = "H6, H1a",
     .named_when_changed = true},
    {.name = "sniper.area4.smoke",
     .type = faces_option(sniper_cell<3, 2>),
     .help = "the sniper's d6 faces that wound a fit marine in area 4, smoke in the area, covering "
             "fire or not (a target once field.areas is 5 or more; the book: none)",
     .ruling = "H6, H1a",
     .named_when_changed = true},
    {.name = "guts.roll",
     .type = dice_option(field<&Options::guts_dice>, 1, 100),
     .help = "the dice of every Guts roll, {range}",
     .ruling = "H2, H2a",
     .named_when_changed = true},
    {.name = "guts.succeeds",
     .type = choice(field<&Options::guts_at_or_over>, "at_or_under,at_or_over"),
     .help = "a Guts roll succeeds with a total at or under the marine's Guts (the book), or at "
             "or over it",
     .ruling = "H2",
     .named_when_changed = true},
    {.name = "guts.critical",
     .type = choice(field<&Options::guts_critical>, "double,pair,none"),
     .help = "a Guts roll's critical (Heroics, a sure carry): double, every die alike (2d6: the "
             "book's natural double); pair, any two dice alike; none",
     .ruling = "H2, H2a",
     .named_when_changed = true},
    {.name = "guts.lt",
     .type = integer(element<&Options::guts, 0>, 0, {guts_most, "guts.roll's most"}),
     .help = "lt's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "guts.tex",
     .type = integer(element<&Options::guts, 2>, 0, {guts_most, "guts.roll's most"}),
     .help = "tex's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "guts.buster",
     .type = integer(element<&Options::guts, 3>, 0, {guts_most, "guts.roll's most"}),
     .help = "buster's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "guts.reflex",
     .type = integer(element<&Options::guts, 4>, 0, {guts_most, "guts.roll's most"}),
     .help = "reflex's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "guts.snowball",
     .type = integer(element<&Options::guts, 5>, 0, {guts_most, "guts.roll's most"}),
     .help = "snowball's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "guts.legs",
     .type = integer(element<&Options::guts, 6>, 0, {guts_most, "guts.roll's most"}),
     .help = "legs's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "guts.edsel",
     .type = integer(element<&Options::guts, 7>, 0, {guts_most, "guts.roll's most"}),
     .help = "edsel's Guts: a Guts roll at or under it succeeds (guts.succeeds), {range}",
     .ruling = "H1, H2",
     .after = "guts.roll",
     .named_when_changed = true},
    {.name = "leader.reach",
     .type = integer(field<&Options::lt_reach>, 0, kMaxAreas - 1),
     .help = "areas from his own the Lt reaches with an order: smoke, covering fire, halt, move "
             "(the book: 1, the same or an adjacent area), {range}",
     .ruling = "H4",
     .named_when_changed = true},
    {.name = "leader.orders",
     .type = integer(field<&Options::orders>, 0, 3),
     .help = "leader actions the Lt attempts a turn (the book: one), {range}",
     .ruling = "H4",
     .named_when_changed = true},
    {.name = "smoke.turns",
     .type = dice_option(field<&Options::smoke_turns>, 0, 100),
     .help = "turns a smoke order's smoke lasts in its area (the longer stays), {range}",
     .ruling = "H4",
     .named_when_changed = true},
    {.name = "smoke.orders",
     .type = integer(field<&Options::smoke_orders>, 1, 50, "unlimited"),
     .help = "smoke orders the Lt has for the game, each attempt using one (the book: no limit), "
             "{range}",
     .ruling = "H4",
     .named_when_changed = true},
    {.name = "covering_fire.firers",
     .type = integer(field<&Options::cover_firers>, 1, kSquad - 1),
     .help = "marines firing anywhere that put the sniper at the covering-fire disadvantage "
             "(the book: at least one), {range}",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "friendly_fire.wounds_on",
     .type = faces_option(field<&Options::friendly_fire>),
     .help =
         "the d6 faces that wound a fit marine in smoke when covering fire comes from area 2 or 3",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "friendly_fire.from_area",
     .type = integer(field<&Options::friendly_from>, 1, named("field.areas")),
     .help = "covering fire from this area or any behind it risks friendly fire on the men in "
             "smoke (the book: area 2 or 3), {range}",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "excess.max_wounded",
     .type = integer(field<&Options::max_wounded_per_area>, 1, 2),
     .help = "wounded men an area holds before the most recently wounded dies, {range}",
     .ruling = "H6",
     .named_when_changed = true},
    {.name = "bug_out.lt_reach",
     .type = integer(field<&Options::bug_out_lt_reach>, 0, kMaxAreas - 1),
     .help = "areas from cover within which a fit Lt makes one Guts roll for the whole bug-out "
             "(the book: 1, area 2 or 3), {range}",
     .ruling = "H7",
     .named_when_changed = true},
    {.name = "bug_out.wounded_each",
     .type = integer(field<&Options::bug_out_wounded>, 0, 2),
     .help = "wounded marines in cover each withdrawing marine takes with him (the book: one), "
             "{range}",
     .ruling = "H7",
     .named_when_changed = true},
    {.name = "restrict",
     .type = Text<Options>{.read = read_barred,
                           .write = write_barred,
                           .takes = kRestrictTakes,
                           .comma_list = true,
                           .words = kRestrictWords},
     .help = "restricted play: the choices the player may never make (every policy honours it; "
             "a barred order is played as no order)",
     .ruling = "H3a",
     .named_when_changed = true},
};
constexpr OptionTable<Options> kTable{"fpb", kOptions};
}  // namespace

const OptionTable<Options>& option_table() { return kTable; }

Options parse_options(const Settings& settings) {
    Options o = kTable.read(kTable.reader(settings));
    o.guts_book = o.guts_dice == kBookOptions.guts_dice && !o.guts_at_or_over &&
                  o.guts_critical == Options::kDouble;  // H2: the book's roll, its fast path
    return o;
}

std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    const int t = o.max_turns;
    std::vector<MetricSpec> m = {
        {"withdrawn", "marines withdrawn, wounded ones included (H7, H8)", MetricKind::count, 0, 8},
        {"wounded_withdrawn", "wounded marines carried out (H7)", MetricKind::count, 0, 8},
        {"left_behind", "marines left on the board (H8; everyone at the turn cap)",
         MetricKind::count, 0, 8},
        {"killed", "marines killed by the sniper (H6)", MetricKind::count, 0, 8},
        {"icecube_rescued", "Ice-cube withdrawn (H8)", MetricKind::rate, 0, 1},
        {"turns", "turns played (H3)", MetricKind::count, 1, t},
        {"clean", "nobody left behind or killed (H8)", MetricKind::rate, 0, 1},
        {"costly", "some withdrawn, someone left or killed (H8)", MetricKind::rate, 0, 1},
        {"lost", "nobody withdrawn (H8)", MetricKind::rate, 0, 1},
        {"squad_time", "the turn of the squad's first casualty, or of the end", MetricKind::count,
         1, t},
        {"squad_hit", "someone besides Ice-cube was wounded or killed", MetricKind::rate, 0, 1},
    };
    for (int i = 0; i < kSquad; ++i) {
        if (i == kIceCube) continue;
        const std::string n = kNames[i];
        m.push_back(
            {n + "_time", "the turn " + n + " was hit, or left the game", MetricKind::count, 1, t});
        m.push_back({n + "_hit", n + " was wounded or killed", MetricKind::rate, 0, 1});
    }
    return m;
}

std::vector<SurvivalSpec> survival_specs() {
    // P(neither wounded nor killed) by turn: the squad's first casualty, then each marine's.
    std::vector<SurvivalSpec> s = {SurvivalSpec{kSquadTime, kSquadHit, 1, "turn", "squad"}};
    for (int i = 0, k = 0; i < kSquad; ++i) {
        if (i == kIceCube) continue;
        s.push_back(
            SurvivalSpec{kMarineTime + 2 * k, kMarineTime + 2 * k + 1, 1, "turn", kNames[i]});
        ++k;
    }
    return s;
}

}  // namespace odds::fpb
