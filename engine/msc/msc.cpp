#include "engine/msc/msc.hpp"

namespace odds::msc {

namespace {
// M1, M1b: example, random, or the path of a map file.
std::string read_map(Options& o, std::string_view text) {
    o.random_map = text == "random";
    if (text != "example" && !o.random_map) {  // M1b: a designer's own map
        o.map_file = read_map_file(std::string(text));
        o.map_path = text;
    }
    return "";
}
std::string write_map(const Options& o) {
    return o.random_map ? "random" : o.map_file ? o.map_path : "example";
}

// M2a: a design such as E3S4T4W2, or doctrine (the policy's); legal under the ships.* options.
constexpr std::string_view kDesignTakes =
    "E<engine>S<shields>T<to-hit>W<weapons>, each rating 0..5, costing 10, 15 or 20 BP (a weapon "
    "2 BP; other costs, maxima and sizes under the ships.* options), or doctrine";
constexpr std::string_view kShipOptions =
    "ships.engine_bp,ships.shields_bp,ships.to_hit_bp,ships.weapon_bp,ships.max_engine,"
    "ships.max_shields,ships.max_to_hit,ships.small_bp,ships.medium_bp,ships.large_bp";
std::string read_design(std::optional<Design>& d, std::string_view text, const ShipRules& r) {
    d = text == "doctrine" ? std::nullopt : parse_design(text, r);
    if (text == "doctrine") return "";
    return d ? "" : std::string(kDesignTakes);
}
std::string write_design(const std::optional<Design>& d) { return d ? to_string(*d) : "doctrine"; }
template <auto Plan, int Side>
constexpr Text<Options> design{
    .read = [](Options& o, std::string_view t) { return read_design((o.*Plan)[Side], t, o.ships); },
    .write = [](const Options& o) { return write_design((o.*Plan)[Side]); },
    .takes = kDesignTakes};

bool random_map(const Options& o) { return o.random_map; }

// M2c, M5b, M7f (restricted play): what a side may never do, a bit each (Options::Bar).
constexpr std::string_view kRestrictWords = "small,medium,large,merge,split,retreat";
constexpr std::string_view kRestrictTakes =
    "none, or comma-separated: small, medium, large (never build a ship of that size, "
    "ships.*_bp, M2), merge (never merge fleets, M5a), split (never detach ships, M5a), retreat "
    "(never retreat by choice, M7)";
// M7: a field of the combat rules; M2, M5: of the ship rules, or one of its sizes.
template <auto... P>
constexpr auto combat = field<&Options::combat, P...>;
template <auto... P>
constexpr auto ships = field<&Options::ships, P...>;

void check_options(Options& o, const OptionReader& r);

OptionTable<Options> make_table() {
    using O = Options;
    // The scenario names the map first, then what sets the sides apart, then the rest.
    OptionTable<O> t("msc", {}, {"map", "width", "height", "systems", "swap_homes", "initiative"});
    t.defaults({.naming = Naming::always});  // the scenario's own knobs
    t.add(
        {"map",
         Text<O>{.read = read_map,
                 .write = write_map,
                 .takes = "example, random or the path of a map file",
                 .comma_list = true},
         "M1, M1b",
         "example (the seed's map, 26 x 22, 30 systems), random, or the path of a map file in the "
         "same format ({ruling}); a path may hold commas, so odds sweep takes one map per --vary"});
    t.defaults({.naming = Naming::always, .in_scenario = random_map});
    t.add({
        {"width", integer(field<&O::width>, 8, kMaxMapSide), "M1",
         "random map: columns of hexes, {range}"},
        {"height", integer(field<&O::height>, 8, kMaxMapSide), "M1",
         "random map: rows of hexes, {range}"},
        {"systems", integer(field<&O::systems>, 2, 100), "M1",
         "random map: star systems besides the homes, {range}"},
    });
    t.defaults({.naming = Naming::always});
    t.add({
        {"budget", integer(field<&O::budget>, 10, 5000), "M3",
         "BPs each side spends on its starting fleet, {range}"},
        {"max_turns", integer(field<&O::max_turns>, 1, 1000), "M8",
         "turns after which the campaign is a draw, {range}"},
    });
    // Named only where they differ from the default: when they set the sides apart.
    t.defaults({});
    t.add({
        {"swap_homes", boolean(field<&O::swap_homes>), "M1a",
         "true: side A starts at the map's second home, side B at the first"},
        {"initiative", choice(field<&O::initiative>, "roll,a,b", -1), "M4a",
         "roll: both roll for Player 1 every turn (M4); a or b: that side is always Player 1, to "
         "measure what initiative is worth"},
    });
    t.defaults({.naming = Naming::always, .after = kShipOptions});  // designs: legal under ships.*
    t.add({
        {"design_a", design<&O::design, 0>, "M2a",
         "side A's main design, e.g. E3S4T4W2 (ENGINE, SHIELDS, TO-HIT, weapons), or doctrine"},
        {"design_b", design<&O::design, 1>, "M2a", "side B's main design, likewise"},
        {"escort_a", design<&O::escort, 0>, "M2a",
         "side A's escort design, e.g. E3S2T3W1, or doctrine (its design at 10 BP)"},
        {"escort_b", design<&O::escort, 1>, "M2a", "side B's escort design, likewise"},
    });
    t.defaults({.naming = Naming::always});
    t.add({
        {"escorts_a", integer(field<&O::escort_share, 0>, 0, 100), "M2a",
         "percent of side A's ships built as escorts, {range}"},
        {"escorts_b", integer(field<&O::escort_share, 1>, 0, 100), "M2a",
         "percent of side B's ships built as escorts, {range}"},
    });
    t.defaults({});  // the rule book's numbers
    t.add({
        {"combat.offense_bp_per_die", integer(combat<&CombatRules::offense_bp_per_die>, 1, 100),
         "M7",
         "Strategic Combat: an attacking side rolls a die per this many offensive BPs of its "
         "fleets in the hex (rounded down), {range}"},
        {"combat.defense_bp_per_die", integer(combat<&CombatRules::defense_bp_per_die>, 1, 100),
         "M7",
         "Strategic Combat: a defending side rolls a die per this many defensive BPs (rounded "
         "down), {range}"},
        {"combat.hits_on", faces_option(combat<&CombatRules::hits_on>, 6), "M7",
         "the attacker's d6 faces that destroy a ship"},
        {"combat.saves_on", faces_option(combat<&CombatRules::saves_on>, 6), "M7",
         "the defender's d6 faces that cancel a hit"},
        {"combat.max_rounds", integer(field<&O::max_rounds>, 1, 10000), "M7a",
         "rounds of one combat after which the attacker retreats (where it can), {range}"},
        {"production.bp_per_system", integer(field<&O::bp_per_system>, 0, 100), "M4",
         "BPs each owned system yields a turn, the home too (unless production.home_bp), {range}"},
        {"production.home_bp", integer(field<&O::home_bp>, 1, 100, "same"), "M4, M1",
         "BPs the home yields a turn while no enemy occupies it, {range} (same: as any owned "
         "system, production.bp_per_system)"},
        {"capture.turns_alone", integer(field<&O::capture_turns>, 1, 100), "M6",
         "turns in a row a side's fleet ends alone in a system to capture it, {range}"},
        {"capture.produces_after", integer(field<&O::produces_after>, 0, 100), "M6",
         "a system captured on turn T produces from turn T plus this many, {range}"},
        {"ships.engine_bp", integer(ships<&ShipRules::engine_bp>, 1, 10), "M2",
         "BPs a point of ENGINE costs, {range}"},
        {"ships.shields_bp", integer(ships<&ShipRules::shields_bp>, 1, 10), "M2",
         "BPs a point of SHIELDS costs (a ship's defensive BPs), {range}"},
        {"ships.to_hit_bp", integer(ships<&ShipRules::to_hit_bp>, 1, 10), "M2",
         "BPs a point of TO-HIT costs (offensive BPs), {range}"},
        {"ships.weapon_bp", integer(ships<&ShipRules::weapon_bp>, 1, 20), "M2",
         "BPs a weapon costs (offensive BPs), {range}"},
        {"ships.max_engine", integer(ships<&ShipRules::max_engine>, 0, kMaxRating), "M2",
         "the most ENGINE a ship may have, {range} (5 is also the program's limit)"},
        {"ships.max_shields", integer(ships<&ShipRules::max_shields>, 0, kMaxRating), "M2",
         "the most SHIELDS a ship may have, {range}"},
        {"ships.max_to_hit", integer(ships<&ShipRules::max_to_hit>, 0, kMaxRating), "M2",
         "the most TO-HIT a ship may have, {range}"},
        {"ships.small_bp", integer(ships<&ShipRules::sizes, 0>, 1, kMaxShipBp), "M2",
         "the BPs of the smallest ship size, {range}"},
        {"ships.medium_bp",
         integer(ships<&ShipRules::sizes, 1>, named("ships.small_bp"), kMaxShipBp), "M2",
         "the BPs of the middle ship size, {range} (equal to another size: one size fewer)"},
        {"ships.large_bp",
         integer(ships<&ShipRules::sizes, 2>, named("ships.medium_bp"), kMaxShipBp), "M2",
         "the BPs of the largest ship size, {range}"},
        {"doctrine.main_size", choice(field<&O::main_size>, "small,medium,large"), "M2a",
         "the size of the doctrines' main design (ships.small_bp, ships.medium_bp or "
         "ships.large_bp: the book's 15 BP)"},
        {"doctrine.escort_size", choice(field<&O::escort_size>, "small,medium,large"), "M2a",
         "the size of the doctrines' escort design (the book's 10 BP)"},
        {"movement.hexes_per_engine",
         integer(ships<&ShipRules::hexes_per_engine>, 1, kMaxHexesPerEngine), "M5",
         "hexes a fleet moves a point of its lowest ENGINE, {range}"},
        {"turn.initiative_die", integer(field<&O::initiative_die>, 2, 100), "M4",
         "the sides of the die both sides roll for Player 1 (ties rolled again), {range}"},
        {"retreat.hexes", integer(field<&O::retreat_hexes>, 1, 10), "M7",
         "hexes a retreat moves toward the side's home (never past it), {range}"},
        {"restrict.a", word_set<kRestrictWords, kRestrictTakes, &O::barred, 0>(), "M2c, M5b, M7f",
         "restricted play: what side A may never do (every policy honours it)"},
        {"restrict.b", word_set<kRestrictWords, kRestrictTakes, &O::barred, 1>(), "M2c, M5b, M7f",
         "restricted play: what side B may never do, as restrict.a"},
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
    // M1: the size of the map is the random map's.
    if (!o.random_map && (r.text("width") || r.text("height") || r.text("systems")))
        r.fail("map", o.map_file ? o.map_path : "example",
               "random when width, height or systems are given");
    // M2: the sizes in order (a named bound checks the larger against a smaller one given; this
    // checks a smaller one given against the larger ones' values, given or not).
    const auto& z = o.ships.sizes;
    if (z[0] > z[1])
        r.fail("ships.small_bp", std::to_string(z[0]),
               "at most ships.medium_bp (" + std::to_string(z[1]) + ")");
    if (z[1] > z[2])
        r.fail(r.text("ships.medium_bp") ? "ships.medium_bp" : "ships.large_bp",
               std::to_string(r.text("ships.medium_bp") ? z[1] : z[2]),
               r.text("ships.medium_bp")
                   ? "at most ships.large_bp (" + std::to_string(z[2]) + ")"
                   : "at least ships.medium_bp (" + std::to_string(z[1]) + ")");
    if (o.random_map && o.systems > o.width * o.height / 4)
        r.fail("systems", std::to_string(o.systems),
               "at most a quarter of the hexes (" + std::to_string(o.width * o.height / 4) + ")");
}
}  // namespace

std::string scenario(const Options& o) { return option_table().scenario(o); }

namespace {
Design doctrine_at(Doctrine d, int size, const Options& o) {
    const int bp = o.ships.sizes[static_cast<std::size_t>(size)];
    if (const auto x = doctrine_design(d, bp, o.ships)) return *x;
    const char* name = size == o.main_size ? "doctrine.main_size" : "doctrine.escort_size";
    static constexpr std::string_view kSizes[] = {"small", "medium", "large"};
    throw UsageError("msc: " + std::string(name) + "='" +
                     std::string(kSizes[static_cast<std::size_t>(size)]) +
                     "' is not valid; no legal design costs " + std::to_string(bp) +
                     " BP under the ships.* options, so a doctrine has no ship of that size: "
                     "choose another size or other costs (M2, M2a)");
}
}  // namespace

Design doctrine_main(Doctrine d, const Options& o) { return doctrine_at(d, o.main_size, o); }
Design doctrine_escort(Doctrine d, const Options& o) { return doctrine_at(d, o.escort_size, o); }

Plan plan_of(const Options& o, std::size_t side, Doctrine d) {
    return Plan(o.design[side] ? *o.design[side] : doctrine_main(d, o),
                o.escort[side] ? *o.escort[side] : doctrine_escort(d, o), o.escort_share[side]);
}

std::string to_string(const Plan& p) {
    if (p.escort_share == 0) return to_string(p.design[0]);
    return to_string(p.design[0]) + "+" + to_string(p.design[1]) + "@" +
           std::to_string(p.escort_share) + "%";
}

std::string scenario(const Run& r) {
    return scenario(r.rules) + " ships=" + to_string(r.plans[0]) + "/" + to_string(r.plans[1]);
}

std::vector<std::string> seat_scenario(const Run& r) {
    return {"ships_a=" + to_string(r.plans[0]), "ships_b=" + to_string(r.plans[1])};
}

int State::owned(int side) const noexcept {
    int n = 0;
    for (int i = 0; i < n_sys; ++i) {
        const System& y = sys[i];
        n += y.home_of == side ? !occupied_by(y.pos, 1 - side) : y.owner == side;
    }
    return n;
}

namespace {

// The rows of metric_specs and to_metrics. Bounds: a side produces at most
// production.bp_per_system a system a turn (its home production.home_bp), and builds ships of
// ships.small_bp or more (M2, M4).
template <class M>
constexpr void declare_metrics(M& m) {
    using K = MetricKind;
    const auto n = [](const Options& o) {
        return (o.random_map ? o.systems : static_cast<int>(o.star_map().systems.size())) + 2;
    };
    const auto bp = [=](const Options& o) {
        const int home = o.home_bp > 0 ? o.home_bp : o.bp_per_system;  // M4: production.home_bp
        return o.max_turns * ((n(o) - 1) * o.bp_per_system + home);
    };
    const auto ships = [=](const Options& o) {
        return (o.budget + bp(o)) / o.ships.smallest() + 1;
    };
    versus::outcome_rows(
        m, "M8", "the turn cap, or both sides won at once", "both sides won at once",
        [](const State& s) { return s.winner; }, [](const State& s) { return s.turn; },
        [](const State& s) { return s.end == State::kTurnCap; });
    m(kEndHome, "end_home", "ended by a fleet alone in the enemy home (M8)", K::rate, 0, 1,
      [](const State& s) { return s.end == State::kHome; });
    m(kEndAnnihilation, "end_annihilation", "ended with a side without ships (M8)", K::rate, 0, 1,
      [](const State& s) { return s.end == State::kAnnihilation; });
    m(kSystemsA, "systems_owned_a", "systems side A owned at the end, its home included (M6)",
      counts("systems"), 0, n, [](const State& s) { return s.owned(0); });
    m(kSystemsB, "systems_owned_b", "systems side B owned at the end (M6)", counts("systems"), 0, n,
      [](const State& s) { return s.owned(1); });
    m(kBuiltA, "ships_built_a", "ships side A built, the starting fleet included (M3, M4)",
      counts("ships"), 0, ships, [](const State& s) { return s.built[0]; });
    m(kBuiltB, "ships_built_b", "ships side B built (M3, M4)", counts("ships"), 0, ships,
      [](const State& s) { return s.built[1]; });
    m(kShipsLostA, "ships_lost_a", "ships side A lost (M7)", counts("ships"), 0, ships,
      [](const State& s) { return s.lost[0]; });
    m(kShipsLostB, "ships_lost_b", "ships side B lost (M7)", counts("ships"), 0, ships,
      [](const State& s) { return s.lost[1]; });
    m(kBpA, "bp_produced_a", "BPs side A produced (M4)", counts("BPs"), 0, bp,
      [](const State& s) { return s.produced[0]; });
    m(kBpB, "bp_produced_b", "BPs side B produced (M4)", counts("BPs"), 0, bp,
      [](const State& s) { return s.produced[1]; });
    m(
        kFleetCapHits, "fleet_cap_hits",
        "times a side was held back by its 16 fleet slots: a detachment refused, or a turn's "
        "ships not built (M5a)",
        counts("times"), 0, [](const Options& o) { return 2 * (kMaxFleets + 1) * o.max_turns; },
        [](const State& s) { return s.cap_hits[0] + s.cap_hits[1]; });
}
static_assert(metrics_in_order<kMetricCount>([](auto& m) { declare_metrics(m); }));

}  // namespace

std::vector<MetricSpec> metric_specs(const Options& o) {
    MetricSpecs<Options> m{o, {}};
    declare_metrics(m);
    return std::move(m.specs);
}

SurvivalSpec survival_spec() {
    return SurvivalSpec{kTurns, -1, 1, "turns", "", "the campaign ends"};
}

void to_metrics(const State& s, std::int32_t* out) noexcept {
    MetricValues<State> m{s, out};
    declare_metrics(m);
}

}  // namespace odds::msc
