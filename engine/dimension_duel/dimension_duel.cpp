#include "engine/dimension_duel/dimension_duel.hpp"

#include "engine/line_reader.hpp"

namespace odds::dimension_duel {

namespace {
constexpr Option<Options> kOptions[] = {
    {.name = "hp",
     .type = integer(field<&Options::hp>, 1, 1000),
     .help = "hit points each player starts with, {range}",
     .ruling = "D1"},
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 1'000'000),
     .help = "turns after which the duel is a draw, {range}",
     .ruling = "D6"},
    {.name = "single_use",
     .type = boolean(field<&Options::single_use>),
     .help = "true: each function but Bluff can be used once per game",
     .ruling = "D7"},
    {.name = "changers",
     .type = choice(field<&Options::separate_changers>, "shared,separate"),
     .help =
         "under single_use, the changer's two modes are one function (shared) or two (separate)",
     .ruling = "D7a"},
    {.name = "chart.tau",
     .type = faces_option(field<&Options::chart_tau>),
     .help = "the step-1 chart: d6 faces that fire a Tau ray or raise an anti-Tau shield (the "
             "rest: Kaon), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.head",
     .type = faces_option(field<&Options::chart_head>),
     .help = "the step-2 chart: d6 faces that choose the head, {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.torso",
     .type = faces_option(field<&Options::chart_torso>),
     .help = "the step-2 chart: d6 faces that choose the torso (unless chart.head has them; "
             "the rest: extremities), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.changer_self",
     .type = faces_option(field<&Options::chart_changer_self>),
     .help = "the function chart's re-roll on a 6: faces for Particle Changer-Self (the rest: "
             "Opponent), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.disruptor",
     .type = faces_option(field<&Options::chart_disruptor>),
     .help = "the function chart: d6 faces for the Disruptor (the first of disruptor, delayed, "
             "deflector, intensifier, changer with the face; a face in none is a Bluff), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.delayed",
     .type = faces_option(field<&Options::chart_delayed>),
     .help =
         "the function chart: d6 faces for the Delayed Attack (the first of disruptor, delayed, "
         "deflector, intensifier, changer with the face; a face in none is a Bluff), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.deflector",
     .type = faces_option(field<&Options::chart_deflector>),
     .help = "the function chart: d6 faces for the Deflector (the first of disruptor, delayed, "
             "deflector, intensifier, changer with the face; a face in none is a Bluff), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.intensifier",
     .type = faces_option(field<&Options::chart_intensifier>),
     .help = "the function chart: d6 faces for the Intensifier (the first of disruptor, delayed, "
             "deflector, intensifier, changer with the face; a face in none is a Bluff), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "chart.changer",
     .type = faces_option(field<&Options::chart_changer>),
     .help = "the function chart: d6 faces for a Particle Changer (its mode rolled again: "
             "chart.changer_self) (the first of disruptor, delayed, "
             "deflector, intensifier, changer with the face; a face in none is a Bluff), {range}",
     .ruling = "D2",
     .named_when_changed = true},
    {.name = "calibrate.dice",
     .type = integer(field<&Options::calibrate_dice>, 0, 3),
     .help = "step 1: dice the attacker gets when the shield does not stop his ray, {range}",
     .ruling = "D4",
     .named_when_changed = true},
    {.name = "focus.dice",
     .type = integer(field<&Options::focus_dice>, 0, 3),
     .help = "step 2: dice the attacker gets when the defender reinforced another region, {range}",
     .ruling = "D4",
     .named_when_changed = true},
    {.name = "delayed.dice",
     .type = integer(field<&Options::delayed_dice>, 0, 3),
     .help = "dice a Delayed Attack gives its player, attacker or defender, {range}",
     .ruling = "D4",
     .named_when_changed = true},
    {.name = "damage.die",
     .type = dice_option(field<&Options::die>, 1, 100),
     .help = "what each die awarded rolls (the book's 1d6)",
     .ruling = "D4",
     .named_when_changed = true},
    {.name = "intensifier.factor",
     .type = integer(field<&Options::intensifier_factor>, 1, 10),
     .help = "each Intensifier played multiplies both totals by this, {range} (two: its square)",
     .ruling = "D5",
     .named_when_changed = true},
};
constexpr OptionTable<Options> kTable{"dimension-duel", kOptions};
}  // namespace

std::array<std::vector<double>, kMaxDice + 1> damage_laws(const Options& o) {
    // One die: p[t] = P(total t). A plain 1dX+K is uniform, divided by X as the solvers always
    // did (the book's d6 laws bit for bit); any other expression's law by convolution.
    const DiceExpr& e = o.die;
    const int lo = e.min();
    const bool plain = e.n == 1 && e.terms[0].count == 1;
    const std::vector<double> conv = plain ? std::vector<double>{} : law(e);
    std::array<std::vector<double>, kMaxDice + 1> s;
    s[0] = {1.0};
    for (std::size_t n = 1; n <= kMaxDice; ++n) {
        s[n].assign(s[n - 1].size() + static_cast<std::size_t>(e.max()), 0.0);
        for (std::size_t v = 0; v < s[n - 1].size(); ++v)
            for (int t = lo; t <= e.max(); ++t)
                s[n][v + static_cast<std::size_t>(t)] +=
                    plain ? s[n - 1][v] / e.terms[0].sides
                          : s[n - 1][v] * conv[static_cast<std::size_t>(t - lo)];
    }
    return s;
}

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

Options parse_options(const Settings& settings) {
    Options o = kTable.read(kTable.reader(settings));
    // D7: under single_use the dice policy rolls again for a used function, so the function chart
    // needs a Bluff (never used up), or it could roll for ever.
    bool bluff = false;
    for (int face = 1; face <= 6; ++face) bluff = bluff || o.function_on(face) == kBluff;
    if (o.single_use && !bluff)
        throw UsageError(
            "dimension-duel: single_use=true needs a face of the function chart that is a Bluff (a "
            "face in none of chart.disruptor, chart.delayed, chart.deflector, chart.intensifier, "
            "chart.changer): the dice policy rolls again for a used function (D7)");
    o.settle();  // the book's fast path when every turn option is the book's
    return o;
}

std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    const int turns = o.max_turns;
    // The last blow may overshoot by at most one turn's most (3 dice x 6 x 4 in the book).
    const int dealt = o.hp + o.max_hit();
    std::vector<MetricSpec> m = {
        {"tau_win", "Tau won (D6)", MetricKind::rate, 0, 1},
        {"kaon_win", "Kaon won (D6)", MetricKind::rate, 0, 1},
        {"draw", "both died in one turn, or the turn cap (D6)", MetricKind::rate, 0, 1},
        {"advantage_first",
         "Tau's score, 1 a win, 1/2 a draw: P(Tau wins) + P(draw)/2 (Ludii's AdvantageP1)",
         MetricKind::count, 0, 2, 2},
        {"turns", "turns played (D1)", MetricKind::count, 1, turns},
        {"winner_hp", "the winner's hit points at the end (0 for a draw)", MetricKind::count, 0,
         o.hp},
        {"timeouts", "ended as a draw by max_turns (D6)", MetricKind::rate, 0, 1},
        {"drawishness", "a draw before max_turns: both died in one turn (D6)", MetricKind::rate, 0,
         1},
        {"tau_dealt", "damage Tau's dice did to Kaon", MetricKind::count, 0, dealt},
        {"kaon_dealt", "damage Kaon's dice did to Tau", MetricKind::count, 0, dealt},
    };
    for (int seat = 0; seat < 2; ++seat)
        for (int f = 0; f < kFunctionCount; ++f)
            m.push_back({std::string(kSeatNames[seat]) + "_" + kFunctionNames[f],
                         std::string("times ") + kSeatNames[seat] + " played " + kFunctionNames[f] +
                             " (D2)",
                         MetricKind::count, 0, turns});
    return m;
}

namespace {
Seat seat_named(const LineReader& r, std::string_view name) {
    if (name == kSeatNames[kTau]) return kTau;
    if (name == kSeatNames[kKaon]) return kKaon;
    std::string what = "'";
    what.append(name).append("' is not a seat (tau or kaon)");
    r.fail(what);
}
}  // namespace

std::string write_position(const State& s, const Options& o) {
    std::string t =
        "# dimension-duel position (engine/dimension_duel/RULES.md, Positions): before a turn\n";
    for (const Seat seat : {kTau, kKaon})
        t += "hp " + std::string(kSeatNames[seat]) + " " + std::to_string(s.hp[seat]) +
             "   # hit points, 1.." + std::to_string(o.hp) + " (D1)\n";
    t += "turn " + std::to_string(s.turn + 1) + "   # the turn about to be played (D1, D6)\n";
    t += "attacker " + std::string(kSeatNames[attacker(s)]) +
         "   # who attacks it: tau on odd turns, kaon on even ones (D1)\n";
    if (o.single_use)
        for (const Seat seat : {kTau, kKaon}) {
            std::string names;
            std::uint8_t bits = 0;
            for (int f = kDisruptor; f < kFunctionCount; ++f) {
                const std::uint8_t b = o.bit(static_cast<Function>(f));
                if ((s.used[seat] & b) == 0 || (bits & b) != 0) continue;
                bits = static_cast<std::uint8_t>(bits | b);
                names += (names.empty() ? "" : ",") + std::string(kFunctionNames[f]);
            }
            t += "used " + std::string(kSeatNames[seat]) + " " + (names.empty() ? "none" : names) +
                 "   # functions used up, comma-separated, or none (D7)\n";
        }
    return t;
}

State read_position(std::string_view text, std::string_view file, const Options& o) {
    LineReader r(text, file);
    State s = opening(o);
    int hp_line[2] = {0, 0}, used_line[2] = {0, 0}, turn_line = 0, attacker_line = 0;
    int turn = 0;
    Seat first = kTau;
    while (r.next()) {
        const std::string_view what = r.word(0);
        if (what == "hp") {
            r.expect_words(3, "hp SEAT N");
            const Seat seat = seat_named(r, r.word(1));
            r.once(hp_line[seat], std::string("hp ") + kSeatNames[seat]);
            s.hp[seat] =
                static_cast<int>(r.integer(2, 1, o.hp, "hit points",
                                           "D1: they start at hp=" + std::to_string(o.hp) +
                                               " and never rise; D6: at 0 the duel is over"));
        } else if (what == "turn") {
            r.expect_words(2, "turn N");
            r.once(turn_line, "turn");
            turn = static_cast<int>(
                r.integer(1, 1, o.max_turns, "turn", "D6: max_turns ends the duel"));
        } else if (what == "attacker") {
            r.expect_words(2, "attacker SEAT");
            r.once(attacker_line, "attacker");
            first = seat_named(r, r.word(1));
        } else if (what == "used") {
            r.expect_words(3, "used SEAT NAME,NAME,... (or none)");
            const Seat seat = seat_named(r, r.word(1));
            r.once(used_line[seat], std::string("used ") + kSeatNames[seat]);
            if (!o.single_use) r.fail("functions are used up only under single_use=true (D7)");
            const std::string_view list = r.word(2);
            if (list == "none") continue;
            std::size_t at = 0;
            while (at <= list.size()) {
                const auto comma = list.find(',', at);
                const std::string_view name = list.substr(
                    at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
                int f = 0;
                while (f < kFunctionCount && name != kFunctionNames[f]) ++f;
                if (f == kFunctionCount || f == kBluff)
                    r.fail("'" + std::string(name) +
                           "' is not a function that is used up (disruptor, delayed, deflector, "
                           "intensifier, changer_self, changer_opponent; D7)");
                s.used[seat] =
                    static_cast<std::uint8_t>(s.used[seat] | o.bit(static_cast<Function>(f)));
                if (comma == std::string_view::npos) break;
                at = comma + 1;
            }
        } else {
            r.fail("unknown line '" + std::string(what) +
                   "' (a dimension-duel position has hp, turn, attacker and used lines)");
        }
    }
    for (const Seat seat : {kTau, kKaon})
        if (!hp_line[seat])
            r.fail("no 'hp " + std::string(kSeatNames[seat]) + "' line (hp SEAT N)");
    if (!attacker_line) r.fail("no 'attacker' line (attacker tau or attacker kaon)");
    if (!turn_line) turn = first == kTau ? 1 : 2;
    if ((turn % 2 == 1) != (first == kTau))
        r.fail_at(attacker_line, "attacker " + std::string(kSeatNames[first]) + " on turn " +
                                     std::to_string(turn) +
                                     ": Tau attacks on odd turns, Kaon on even ones (D1)");
    if (turn > o.max_turns)
        r.fail_at(attacker_line, "kaon attacks on turn 2, past max_turns=" +
                                     std::to_string(o.max_turns) + " (D1, D6)");
    s.turn = turn - 1;
    return s;
}

SurvivalSpec survival_spec() {
    // P(the duel is still running after t turns): every duel ends by the event.
    return SurvivalSpec{kTurns, -1, 1, "turns", ""};
}

}  // namespace odds::dimension_duel
