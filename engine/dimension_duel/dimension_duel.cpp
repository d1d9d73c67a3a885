#include "engine/dimension_duel/dimension_duel.hpp"

namespace odds::dimension_duel {

namespace {
// D2b: restrict.tau / restrict.kaon, the functions a seat may never play: a comma list of
// function names (changer: both modes), or none. Bluff cannot be barred.
constexpr std::string_view kRestrictTakes =
    "none, or function names, comma-separated: disruptor, delayed, deflector, intensifier, "
    "changer_self, changer_opponent, changer (both modes); never bluff";

// The restrictions odds restrict tries one at a time (OptionInfo::words): each function, and the
// changer in both modes.
constexpr std::string_view kRestrictWords =
    "disruptor,delayed,deflector,intensifier,changer_self,changer_opponent,changer";

template <int kSeat>
std::string read_barred(Options& o, std::string_view text) {
    std::uint8_t bits = 0;
    if (text != "none") {
        std::size_t at = 0;
        for (;;) {
            const auto comma = text.find(',', at);
            const std::string_view name = text.substr(
                at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
            if (name == "changer") {
                bits |= static_cast<std::uint8_t>(1u << kChangerSelf | 1u << kChangerOpponent);
            } else {
                int f = kDisruptor;
                while (f < kFunctionCount && name != kFunctionNames[f]) ++f;
                if (f == kFunctionCount) return std::string(kRestrictTakes);
                bits |= static_cast<std::uint8_t>(1u << f);
            }
            if (comma == std::string_view::npos) break;
            at = comma + 1;
        }
    }
    o.barred[kSeat] = bits;
    return "";
}

template <int kSeat>
std::string write_barred(const Options& o) {
    const std::uint8_t bits = o.barred[kSeat];
    std::string t;
    const auto add = [&](std::string_view name) {
        t += t.empty() ? "" : ",";
        t += name;
    };
    for (int f = kDisruptor; f < kChangerSelf; ++f)
        if (bits >> f & 1u) add(kFunctionNames[f]);
    const bool self = bits >> kChangerSelf & 1u, opponent = bits >> kChangerOpponent & 1u;
    if (self && opponent)
        add("changer");
    else if (self)
        add(kFunctionNames[kChangerSelf]);
    else if (opponent)
        add(kFunctionNames[kChangerOpponent]);
    return t.empty() ? "none" : t;
}

template <int kSeat>
constexpr Text<Options> kBarred{.read = read_barred<kSeat>,
                                .write = write_barred<kSeat>,
                                .takes = kRestrictTakes,
                                .comma_list = true,
                                .words = kRestrictWords};

// D2: the function chart's rows, in the order it is read (the first with the face): chart.KEY,
// what its faces give.
constexpr Member<Options, FaceSet> kFunctionChart[] = {
    {"disruptor", "the Disruptor", field<&Options::chart_disruptor>},
    {"delayed", "the Delayed Attack", field<&Options::chart_delayed>},
    {"deflector", "the Deflector", field<&Options::chart_deflector>},
    {"intensifier", "the Intensifier", field<&Options::chart_intensifier>},
    {"changer", "a Particle Changer (its mode rolled again: chart.changer_self)",
     field<&Options::chart_changer>}};

void check_options(Options& o, const OptionReader& r);

OptionTable<Options> make_table() {
    using O = Options;
    OptionTable<O> t("dimension-duel");
    t.defaults({.naming = Naming::always});  // the scenario's own knobs
    t.add({
        {"hp", integer(field<&O::hp>, 1, 1000), "D1",
         "hit points each player starts with, {range}"},
        {"max_turns", integer(field<&O::max_turns>, 1, 1'000'000), "D6",
         "turns after which the duel is a draw, {range}"},
        {"single_use", boolean(field<&O::single_use>), "D7",
         "true: each function but Bluff can be used once per game"},
        {"changers", choice(field<&O::separate_changers>, "shared,separate"), "D7a",
         "under single_use, the changer's two modes are one function (shared) or two (separate)"},
    });
    t.defaults({});  // the rule book's numbers
    t.add({
        {"chart.tau", faces_option(field<&O::chart_tau>), "D2",
         "the step-1 chart: d6 faces that fire a Tau ray or raise an anti-Tau shield (the rest: "
         "Kaon), {range}"},
        {"chart.head", faces_option(field<&O::chart_head>), "D2",
         "the step-2 chart: d6 faces that choose the head, {range}"},
        {"chart.torso", faces_option(field<&O::chart_torso>), "D2",
         "the step-2 chart: d6 faces that choose the torso (unless chart.head has them; the rest: "
         "extremities), {range}"},
        {"chart.changer_self", faces_option(field<&O::chart_changer_self>), "D2",
         "the function chart's re-roll on a 6: faces for Particle Changer-Self (the rest: "
         "Opponent), {range}"},
    });
    for (const auto& f : kFunctionChart)  // D2
        t.add({concat("chart.", f.key), faces_option(f.field), "D2",
               concat("the function chart: d6 faces for ", f.words,
                      " (the first of disruptor, delayed, deflector, intensifier, changer with the "
                      "face; a face in none is a Bluff), {range}")});
    t.add({
        {"calibrate.dice", integer(field<&O::calibrate_dice>, 0, 3), "D4",
         "step 1: dice the attacker gets when the shield does not stop his ray, {range}"},
        {"focus.dice", integer(field<&O::focus_dice>, 0, 3), "D4",
         "step 2: dice the attacker gets when the defender reinforced another region, {range}"},
        {"delayed.dice", integer(field<&O::delayed_dice>, 0, 3), "D4",
         "dice a Delayed Attack gives its player, attacker or defender, {range}"},
        {"damage.die", dice_option(field<&O::die>, 1, 100), "D4",
         "what each die awarded rolls (the book's 1d6)"},
        {"intensifier.factor", integer(field<&O::intensifier_factor>, 1, 10), "D5",
         "each Intensifier played multiplies both totals by this, {range} (two: its square)"},
        {"restrict.tau", kBarred<kTau>, "D2b",
         "restricted play: the functions Tau may never play (every policy of the seat honours it; "
         "equilibrium solves the restricted game)"},
        {"restrict.kaon", kBarred<kKaon>, "D2b",
         "restricted play: the functions Kaon may never play, as restrict.tau"},
    });
    t.after_reading(check_options);
    return t;
}
}  // namespace

std::array<std::vector<double>, kMaxDice + 1> damage_laws(const Options& o) {
    // One die: p[t] = P(total t). A plain 1dX+K is uniform, divided by X as the solvers always
    // did (the book's d6 laws bit for bit); any other expression's law by convolution.
    const DiceExpr& e = o.die;
    const int lo = e.min();
    const bool plain = e.one_die();
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

const OptionTable<Options>& option_table() { return built_once<make_table>(); }

Options parse_options(const Settings& settings) { return option_table().parse(settings); }

namespace {
// What no bound states, checked once the options are read (OptionTable::after_reading).
void check_options(Options& o, const OptionReader&) {
    // D7: under single_use the dice policy rolls again for a used function, so the function chart
    // needs a Bluff (never used up), or it could roll for ever.
    bool bluff = false;
    for (int face = 1; face <= 6; ++face) bluff = bluff || o.function_on(face) == kBluff;
    if (o.single_use && !bluff)
        throw UsageError(
            "dimension-duel: single_use=true needs a face of the function chart that is a Bluff (a "
            "face in none of chart.disruptor, chart.delayed, chart.deflector, chart.intensifier, "
            "chart.changer): the dice policy rolls again for a used function (D7)");
    // D2b: the dice policy rolls again for a barred function, so each seat's function chart
    // (with the changer's re-roll) needs a face it may play.
    for (const Seat seat : {kTau, kKaon}) {
        bool playable = false;
        for (int face = 1; face <= 6; ++face) {
            const Function f = o.function_on(face);
            if (f != kChangerSelf) {
                playable = playable || !o.is_barred(seat, f);
                continue;
            }
            for (int mode = 1; mode <= 6; ++mode)
                playable = playable ||
                           !o.is_barred(seat, o.chart_changer_self.has(mode) ? kChangerSelf
                                                                             : kChangerOpponent);
        }
        if (!playable)
            throw UsageError("dimension-duel: restrict." + std::string(kSeatNames[seat]) + "=" +
                             (seat == kTau ? write_barred<kTau>(o) : write_barred<kKaon>(o)) +
                             " bars every function the function chart can roll (chart.disruptor, "
                             "chart.delayed, chart.deflector, chart.intensifier, chart.changer, "
                             "chart.changer_self): the dice policy rolls again for a barred "
                             "function (D2b)");
    }
    o.settle();  // the book's fast path when every turn option is the book's
}
}  // namespace

std::string scenario(const Options& o) { return option_table().scenario(o); }

void Options::settle() {
    book = option_table().is_book(*this);
    book_dice = calibrate_dice == 1 && focus_dice == 1 && delayed_dice == 1 &&
                die == DiceExpr::of(1, 6) && intensifier_factor == 2;
    charts = chart_faces();
}

std::vector<MetricSpec> metric_specs(const Options& o) {
    MetricSpecs<Options> m{o, {}};
    declare_metrics(m);
    return std::move(m.specs);
}

SurvivalSpec survival_spec() {
    // P(the duel is still running after t turns): every duel ends by the event.
    return SurvivalSpec{kTurns, -1, 1, "turns", "", "the duel ends"};
}

}  // namespace odds::dimension_duel
