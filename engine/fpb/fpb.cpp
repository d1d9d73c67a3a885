#include "engine/fpb/fpb.hpp"

#include <algorithm>

#include "engine/line_reader.hpp"

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
};
constexpr OptionTable<Options> kTable{"fpb", kOptions};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

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

namespace {
constexpr const char* kStates[] = {"fit", "firing",      "wounded", "dead",
                                   "out", "out-wounded", "absent"};

std::string state_word(const Marine& x, int i) {
    switch (x.status) {
        case kFit:
            return x.firing ? "firing" : "fit";
        case kWounded:
            return "wounded";
        case kDead:
            return "dead";
        case kAbsent:
            return "absent";
        default:
            return x.was_wounded && i != kIceCube ? "out-wounded" : "out";
    }
}
}  // namespace

std::string write_position(const State& s, const Options&) {
    std::string t =
        "# fpb position (engine/fpb/RULES.md, Positions): the game between two turns\n"
        "turn " +
        std::to_string(s.turn) + "   # turns played (H3)\n";
    for (int a = 1; a <= s.areas; ++a)
        t += "smoke " + std::to_string(a) + " " + std::to_string(s.smoke[a]) +
             "   # turns of smoke left in area " + std::to_string(a) + " (H4)\n";
    if (s.smoke_left != State::kNoLimit)
        t += "smoke_orders " + std::to_string(s.smoke_left) +
             "   # smoke orders left for the game (H4: smoke.orders)\n";
    t += "# marine NAME AREA STATE: area 1 (exposed) to " + std::to_string(s.areas) +
         " (cover), '-' for the dead and the "
         "withdrawn;\n# STATE fit, firing (covering fire), wounded, dead, out or out-wounded "
         "(withdrawn)\n";
    int n = 0;
    for (int i = 0; i < kSquad; ++i) {
        const Marine& x = s.m[i];
        n += x.wounded();
        if (!x.wounded())
            t += "marine " + std::string(kNames[i]) + " " +
                 (x.on_board() ? std::to_string(x.area) : std::string("-")) + " " +
                 state_word(x, i) + "\n";
    }
    if (n > 0) t += "# the wounded, in the order they were hit (H6: the latest die first)\n";
    for (int last = -1; n > 0; --n) {  // the next wounded man by wound_order, ties by roster
        int next = -1;
        for (int i = 0; i < kSquad; ++i) {
            const Marine& x = s.m[i];
            const int key = x.wound_order * kSquad + i;
            if (x.wounded() && key > last &&
                (next < 0 || key < s.m[next].wound_order * kSquad + next))
                next = i;
        }
        last = s.m[next].wound_order * kSquad + next;
        t += "marine " + std::string(kNames[next]) + " " + std::to_string(s.m[next].area) +
             " wounded\n";
    }
    return t;
}

State read_position(std::string_view text, std::string_view file, const Options& o) {
    LineReader r(text, file);
    State s = State::start(o);  // the field and the Lt's command (H1, H4)
    const std::string areas_rule =
        o.areas == 3 ? std::string("H1: areas 1, 2 and 3")
                     : "H1: areas 1 to " + std::to_string(o.areas) + " (field.areas)";
    std::array<int, kSquad> line{}, wounded{};
    int n_wounded = 0, turn_line = 0, smoke_orders_line = 0;
    std::array<int, kMaxAreas + 1> smoke_line{};
    while (r.next()) {
        const std::string_view what = r.word(0);
        if (what == "turn") {
            r.expect_words(2, "turn N");
            r.once(turn_line, "turn");
            s.turn = static_cast<int>(
                r.integer(1, 0, o.max_turns - 1, "turn", "H3: max_turns ends the game"));
        } else if (what == "smoke") {
            r.expect_words(3, "smoke AREA TURNS");
            const auto a =
                static_cast<std::size_t>(r.integer(1, 1, o.areas, "smoke area", areas_rule));
            r.once(smoke_line[a], "smoke " + std::to_string(a));
            const std::string most =
                o.smoke_turns == kBookOptions.smoke_turns
                    ? std::string("H4: d6 + 2 at most")
                    : "H4: smoke.turns=" + to_string(o.smoke_turns) + " at most";
            s.smoke[a] = static_cast<std::uint8_t>(
                r.integer(2, 0, std::max(0, o.smoke_turns.max()), "smoke turns", most));
        } else if (what == "smoke_orders") {
            r.expect_words(2, "smoke_orders N");
            r.once(smoke_orders_line, "smoke_orders");
            if (o.smoke_orders == 0)
                r.fail(
                    "smoke_orders without a limit: smoke orders are unlimited unless "
                    "smoke.orders is set (H4)");
            s.smoke_left = static_cast<std::uint8_t>(
                r.integer(1, 0, o.smoke_orders, "smoke orders", "H4: smoke.orders at most"));
        } else if (what == "marine") {
            r.expect_words(4, "marine NAME AREA STATE");
            const std::string_view name = r.word(1);
            int i = 0;
            while (i < kSquad && name != kNames[i]) ++i;
            if (i == kSquad)
                r.fail("'" + std::string(name) +
                       "' is not a marine (lt, icecube, tex, buster, reflex, snowball, legs, "
                       "edsel; H1)");
            if (line[static_cast<std::size_t>(i)])
                r.fail("a second line for " + std::string(name) + " (the first is line " +
                       std::to_string(line[static_cast<std::size_t>(i)]) + ")");
            line[static_cast<std::size_t>(i)] = r.line();
            const std::string_view word = r.word(3);
            int st = 0;
            while (st < 7 && word != kStates[st]) ++st;
            if (st == 7)
                r.fail("state '" + std::string(word) +
                       "' is not one of fit, firing, wounded, dead, out, out-wounded, absent");
            if ((st == 6) != (i >= o.squad_size))
                r.fail(std::string(name) + (st == 6 ? " cannot be absent" : " must be absent") +
                       ": squad.size=" + std::to_string(o.squad_size) +
                       " takes the roster's first men (H1)");
            Marine& x = s.m[static_cast<std::size_t>(i)];
            x = Marine{};
            x.status = st <= 1   ? kFit
                       : st == 2 ? kWounded
                       : st == 3 ? kDead
                       : st == 6 ? kAbsent
                                 : kOut;
            x.firing = st == 1;
            x.was_wounded = st == 5 || (st == 4 && i == kIceCube);
            if (x.on_board() || r.word(2) != "-")
                x.area = static_cast<std::uint8_t>(r.integer(
                    2, 1, o.areas, "area",
                    o.areas == 3 ? std::string("H1: areas 1 (exposed), 2 and 3 (cover); '-' off "
                                               "the board")
                                 : "H1: areas 1 (exposed) to " + std::to_string(o.areas) +
                                       " (cover, field.areas); '-' off the board"));
            x.start_area = x.area;
            if (i == kIceCube && x.fit())
                r.fail("Ice-cube cannot be " + std::string(word) +
                       ": he is wounded, with no Guts (H1, H2)");
            if (i == kLt && x.firing)
                r.fail("the Lt cannot be firing: he orders covering fire for his men (H4a)");
            if (x.wounded()) {
                int here = 0;
                for (int k = 0; k < n_wounded; ++k)
                    here +=
                        s.m[static_cast<std::size_t>(wounded[static_cast<std::size_t>(k)])].area ==
                        x.area;
                if (here >= o.max_wounded_per_area)
                    r.fail(o.max_wounded_per_area == 2
                               ? "a third wounded marine in area " + std::to_string(x.area) +
                                     ": more than two are killed (H6)"
                               : "a wounded marine past excess.max_wounded in area " +
                                     std::to_string(x.area) + " (H6)");
                x.wound_order = static_cast<std::uint16_t>(n_wounded);
                wounded[static_cast<std::size_t>(n_wounded++)] = i;
            }
        } else {
            r.fail("unknown line '" + std::string(what) +
                   "' (an fpb position has turn, smoke, smoke_orders and marine lines)");
        }
    }
    if (!turn_line) r.fail("no 'turn' line (turn N)");
    for (int i = 0; i < kSquad; ++i) {
        if (!line[static_cast<std::size_t>(i)])
            r.fail("no line for marine " + std::string(kNames[i]) + " (marine NAME AREA STATE)");
        Marine& x = s.m[static_cast<std::size_t>(i)];
        const bool hit = x.status == kWounded || x.status == kDead || (x.was_wounded);
        if (i != kIceCube && (hit || x.status == kOut) && s.turn == 0)
            r.fail_at(line[static_cast<std::size_t>(i)],
                      std::string(kNames[i]) + " is " + state_word(x, i) +
                          " before the first turn: only Ice-cube begins wounded (H1)");
        if (i != kIceCube && hit) x.hit_turn = static_cast<std::uint8_t>(s.turn);
        if (!x.on_board()) x.end_turn = static_cast<std::uint8_t>(s.turn);
    }
    s.wound_clock = static_cast<std::uint16_t>(n_wounded > 0 ? n_wounded - 1 : 0);
    if (!s.any_fit_on_board()) r.fail("no fit marine on the board: the game is over (H8)");
    return s;
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
