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

// M7: a field of the combat rules (Options::combat).
template <auto M>
struct CombatField {
    using T = typename odds::detail::member<decltype(M)>::type;
    static T get(const Options& o) { return o.combat.*M; }
    static void set(Options& o, T v) { o.combat.*M = v; }
};
template <auto M>
constexpr Field<Options, typename CombatField<M>::T> combat_field{&CombatField<M>::get,
                                                                  &CombatField<M>::set};

// M2, M5: a field of the ship rules (Options::ships), and one of its sizes.
template <auto M>
struct ShipField {
    static int get(const Options& o) { return o.ships.*M; }
    static void set(Options& o, int v) { o.ships.*M = v; }
};
template <auto M>
constexpr Field<Options, int> ship_field{&ShipField<M>::get, &ShipField<M>::set};
template <std::size_t I>
struct SizeField {
    static int get(const Options& o) { return o.ships.sizes[I]; }
    static void set(Options& o, int v) { o.ships.sizes[I] = v; }
};
template <std::size_t I>
constexpr Field<Options, int> size_field{&SizeField<I>::get, &SizeField<I>::set};

// M2c, M5b, M7f (restricted play): what a side may never do, a bit each (Options::Bar).
constexpr std::string_view kRestrictWords = "small,medium,large,merge,split,retreat";
constexpr std::string_view kRestrictTakes =
    "none, or comma-separated: small, medium, large (never build a ship of that size, "
    "ships.*_bp, M2), merge (never merge fleets, M5a), split (never detach ships, M5a), retreat "
    "(never retreat by choice, M7)";
template <std::size_t kSide>
std::string read_barred(Options& o, std::string_view text) {
    const auto bits = read_word_set(text, kRestrictWords);
    if (!bits) return std::string(kRestrictTakes);
    o.barred[kSide] = static_cast<std::uint8_t>(*bits);
    return "";
}
template <std::size_t kSide>
std::string write_barred(const Options& o) {
    return write_word_set(o.barred[kSide], kRestrictWords);
}

constexpr Option<Options> kOptions[] = {
    {.name = "map",
     .type = Text<Options>{.read = read_map,
                           .write = write_map,
                           .takes = "example, random or the path of a map file",
                           .comma_list = true},
     .help = "example (the seed's map, 26 x 22, 30 systems), random, or the path of a map file in "
             "the same format ({ruling}); a path may hold commas, so odds sweep takes one map per "
             "--vary",
     .ruling = "M1, M1b"},
    {.name = "width",
     .type = integer(field<&Options::width>, 8, kMaxMapSide),
     .help = "random map: columns of hexes, {range}",
     .ruling = "M1",
     .in_scenario = random_map},
    {.name = "height",
     .type = integer(field<&Options::height>, 8, kMaxMapSide),
     .help = "random map: rows of hexes, {range}",
     .ruling = "M1",
     .in_scenario = random_map},
    {.name = "systems",
     .type = integer(field<&Options::systems>, 2, 100),
     .help = "random map: star systems besides the homes, {range}",
     .ruling = "M1",
     .in_scenario = random_map},
    {.name = "budget",
     .type = integer(field<&Options::budget>, 10, 5000),
     .help = "BPs each side spends on its starting fleet, {range}",
     .ruling = "M3"},
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 1000),
     .help = "turns after which the campaign is a draw, {range}",
     .ruling = "M8"},
    {.name = "swap_homes",
     .type = boolean(field<&Options::swap_homes>),
     .help = "true: side A starts at the map's second home, side B at the first",
     .ruling = "M1a",
     .in_scenario = [](const Options& o) { return o.swap_homes; }},
    {.name = "initiative",
     .type = choice(field<&Options::initiative>, "roll,a,b", -1),
     .help = "roll: both roll for Player 1 every turn (M4); a or b: that side is always Player 1, "
             "to measure what initiative is worth",
     .ruling = "M4a",
     .in_scenario = [](const Options& o) { return o.initiative >= 0; }},
    {.name = "design_a",
     .type = design<&Options::design, 0>,
     .help = "side A's main design, e.g. E3S4T4W2 (ENGINE, SHIELDS, TO-HIT, weapons), or doctrine",
     .ruling = "M2a",
     .after = kShipOptions},
    {.name = "design_b",
     .type = design<&Options::design, 1>,
     .help = "side B's main design, likewise",
     .ruling = "M2a",
     .after = kShipOptions},
    {.name = "escort_a",
     .type = design<&Options::escort, 0>,
     .help = "side A's escort design, e.g. E3S2T3W1, or doctrine (its design at 10 BP)",
     .ruling = "M2a",
     .after = kShipOptions},
    {.name = "escort_b",
     .type = design<&Options::escort, 1>,
     .help = "side B's escort design, likewise",
     .ruling = "M2a",
     .after = kShipOptions},
    {.name = "escorts_a",
     .type = integer(element<&Options::escort_share, 0>, 0, 100),
     .help = "percent of side A's ships built as escorts, {range}",
     .ruling = "M2a"},
    {.name = "escorts_b",
     .type = integer(element<&Options::escort_share, 1>, 0, 100),
     .help = "percent of side B's ships built as escorts, {range}",
     .ruling = "M2a"},
    {.name = "combat.offense_bp_per_die",
     .type = integer(combat_field<&CombatRules::offense_bp_per_die>, 1, 100),
     .help = "Strategic Combat: an attacking side rolls a die per this many offensive BPs of its "
             "fleets in the hex (rounded down), {range}",
     .ruling = "M7",
     .named_when_changed = true},
    {.name = "combat.defense_bp_per_die",
     .type = integer(combat_field<&CombatRules::defense_bp_per_die>, 1, 100),
     .help = "Strategic Combat: a defending side rolls a die per this many defensive BPs "
             "(rounded down), {range}",
     .ruling = "M7",
     .named_when_changed = true},
    {.name = "combat.hits_on",
     .type = faces_option(combat_field<&CombatRules::hits_on>, 6),
     .help = "the attacker's d6 faces that destroy a ship",
     .ruling = "M7",
     .named_when_changed = true},
    {.name = "combat.saves_on",
     .type = faces_option(combat_field<&CombatRules::saves_on>, 6),
     .help = "the defender's d6 faces that cancel a hit",
     .ruling = "M7",
     .named_when_changed = true},
    {.name = "combat.max_rounds",
     .type = integer(field<&Options::max_rounds>, 1, 10000),
     .help = "rounds of one combat after which the attacker retreats (where it can), {range}",
     .ruling = "M7a",
     .named_when_changed = true},
    {.name = "production.bp_per_system",
     .type = integer(field<&Options::bp_per_system>, 0, 100),
     .help = "BPs each owned system yields a turn, the home too (unless production.home_bp), "
             "{range}",
     .ruling = "M4",
     .named_when_changed = true},
    {.name = "production.home_bp",
     .type = integer(field<&Options::home_bp>, 1, 100, "same"),
     .help = "BPs the home yields a turn while no enemy occupies it, {range} (same: as any "
             "owned system, production.bp_per_system)",
     .ruling = "M4, M1",
     .named_when_changed = true},
    {.name = "capture.turns_alone",
     .type = integer(field<&Options::capture_turns>, 1, 100),
     .help = "turns in a row a side's fleet ends alone in a system to capture it, {range}",
     .ruling = "M6",
     .named_when_changed = true},
    {.name = "capture.produces_after",
     .type = integer(field<&Options::produces_after>, 0, 100),
     .help = "a system captured on turn T produces from turn T plus this many, {range}",
     .ruling = "M6",
     .named_when_changed = true},
    {.name = "ships.engine_bp",
     .type = integer(ship_field<&ShipRules::engine_bp>, 1, 10),
     .help = "BPs a point of ENGINE costs, {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.shields_bp",
     .type = integer(ship_field<&ShipRules::shields_bp>, 1, 10),
     .help = "BPs a point of SHIELDS costs (a ship's defensive BPs), {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.to_hit_bp",
     .type = integer(ship_field<&ShipRules::to_hit_bp>, 1, 10),
     .help = "BPs a point of TO-HIT costs (offensive BPs), {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.weapon_bp",
     .type = integer(ship_field<&ShipRules::weapon_bp>, 1, 20),
     .help = "BPs a weapon costs (offensive BPs), {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.max_engine",
     .type = integer(ship_field<&ShipRules::max_engine>, 0, kMaxRating),
     .help = "the most ENGINE a ship may have, {range} (5 is also the program's limit)",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.max_shields",
     .type = integer(ship_field<&ShipRules::max_shields>, 0, kMaxRating),
     .help = "the most SHIELDS a ship may have, {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.max_to_hit",
     .type = integer(ship_field<&ShipRules::max_to_hit>, 0, kMaxRating),
     .help = "the most TO-HIT a ship may have, {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.small_bp",
     .type = integer(size_field<0>, 1, kMaxShipBp),
     .help = "the BPs of the smallest ship size, {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.medium_bp",
     .type = integer(size_field<1>, named("ships.small_bp"), kMaxShipBp),
     .help = "the BPs of the middle ship size, {range} (equal to another size: one size fewer)",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "ships.large_bp",
     .type = integer(size_field<2>, named("ships.medium_bp"), kMaxShipBp),
     .help = "the BPs of the largest ship size, {range}",
     .ruling = "M2",
     .named_when_changed = true},
    {.name = "doctrine.main_size",
     .type = choice(field<&Options::main_size>, "small,medium,large"),
     .help = "the size of the doctrines' main design (ships.small_bp, ships.medium_bp or "
             "ships.large_bp: the book's 15 BP)",
     .ruling = "M2a",
     .named_when_changed = true},
    {.name = "doctrine.escort_size",
     .type = choice(field<&Options::escort_size>, "small,medium,large"),
     .help = "the size of the doctrines' escort design (the book's 10 BP)",
     .ruling = "M2a",
     .named_when_changed = true},
    {.name = "movement.hexes_per_engine",
     .type = integer(ship_field<&ShipRules::hexes_per_engine>, 1, kMaxHexesPerEngine),
     .help = "hexes a fleet moves a point of its lowest ENGINE, {range}",
     .ruling = "M5",
     .named_when_changed = true},
    {.name = "turn.initiative_die",
     .type = integer(field<&Options::initiative_die>, 2, 100),
     .help = "the sides of the die both sides roll for Player 1 (ties rolled again), {range}",
     .ruling = "M4",
     .named_when_changed = true},
    {.name = "retreat.hexes",
     .type = integer(field<&Options::retreat_hexes>, 1, 10),
     .help = "hexes a retreat moves toward the side's home (never past it), {range}",
     .ruling = "M7",
     .named_when_changed = true},
    {.name = "restrict.a",
     .type = Text<Options>{.read = read_barred<0>,
                           .write = write_barred<0>,
                           .takes = kRestrictTakes,
                           .comma_list = true,
                           .words = kRestrictWords},
     .help = "restricted play: what side A may never do (every policy honours it)",
     .ruling = "M2c, M5b, M7f",
     .named_when_changed = true},
    {.name = "restrict.b",
     .type = Text<Options>{.read = read_barred<1>,
                           .write = write_barred<1>,
                           .takes = kRestrictTakes,
                           .comma_list = true,
                           .words = kRestrictWords},
     .help = "restricted play: what side B may never do, as restrict.a",
     .ruling = "M2c, M5b, M7f",
     .named_when_changed = true},
};
// The scenario names the map first, then what sets the sides apart, then the rest.
constexpr std::string_view kScenarioOrder[] = {"map",
                                               "width",
                                               "height",
                                               "systems",
                                               "swap_homes",
                                               "initiative",
                                               "budget",
                                               "max_turns",
                                               "design_a",
                                               "design_b",
                                               "escort_a",
                                               "escort_b",
                                               "escorts_a",
                                               "escorts_b",
                                               "combat.offense_bp_per_die",
                                               "combat.defense_bp_per_die",
                                               "combat.hits_on",
                                               "combat.saves_on",
                                               "combat.max_rounds",
                                               "production.bp_per_system",
                                               "production.home_bp",
                                               "capture.turns_alone",
                                               "capture.produces_after",
                                               "ships.engine_bp",
                                               "ships.shields_bp",
                                               "ships.to_hit_bp",
                                               "ships.weapon_bp",
                                               "ships.max_engine",
                                               "ships.max_shields",
                                               "ships.max_to_hit",
                                               "ships.small_bp",
                                               "ships.medium_bp",
                                               "ships.large_bp",
                                               "doctrine.main_size",
                                               "doctrine.escort_size",
                                               "movement.hexes_per_engine",
                                               "turn.initiative_die",
                                               "retreat.hexes",
                                               "restrict.a",
                                               "restrict.b"};
constexpr OptionTable<Options> kTable{"msc", kOptions, kScenarioOrder};
}  // namespace

const OptionTable<Options>& option_table() { return kTable; }

Options parse_options(const Settings& settings) {
    const OptionReader r = kTable.reader(settings);
    Options o = kTable.read(r);
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
    return o;
}

std::string scenario(const Options& o) { return kTable.scenario(o); }

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

std::vector<MetricSpec> metric_specs(const Options& o) {
    // Bounds: a side produces at most production.bp_per_system a system a turn (its home
    // production.home_bp), and builds ships of ships.small_bp or more (M2, M4).
    const int t = o.max_turns,
              n = (o.random_map ? o.systems : static_cast<int>(o.star_map().systems.size())) + 2;
    const int home = o.home_bp > 0 ? o.home_bp : o.bp_per_system;  // M4: production.home_bp
    const int bp = t * ((n - 1) * o.bp_per_system + home),
              ships = (o.budget + bp) / o.ships.smallest() + 1;
    auto m = versus::outcome_specs(t, "M8", "the turn cap, or both sides won at once",
                                   "both sides won at once");
    m.insert(
        m.end(),
        {
            {"end_home", "ended by a fleet alone in the enemy home (M8)", MetricKind::rate, 0, 1},
            {"end_annihilation", "ended with a side without ships (M8)", MetricKind::rate, 0, 1},
            {"systems_owned_a", "systems side A owned at the end, its home included (M6)",
             MetricKind::count, 0, n},
            {"systems_owned_b", "systems side B owned at the end (M6)", MetricKind::count, 0, n},
            {"ships_built_a", "ships side A built, the starting fleet included (M3, M4)",
             MetricKind::count, 0, ships},
            {"ships_built_b", "ships side B built (M3, M4)", MetricKind::count, 0, ships},
            {"ships_lost_a", "ships side A lost (M7)", MetricKind::count, 0, ships},
            {"ships_lost_b", "ships side B lost (M7)", MetricKind::count, 0, ships},
            {"bp_produced_a", "BPs side A produced (M4)", MetricKind::count, 0, bp},
            {"bp_produced_b", "BPs side B produced (M4)", MetricKind::count, 0, bp},
            {"fleet_cap_hits",
             "times a side was held back by its 16 fleet slots: a detachment refused, or a turn's "
             "ships not built (M5a)",
             MetricKind::count, 0, 2 * (kMaxFleets + 1) * t},
        });
    return m;
}

SurvivalSpec survival_spec() { return SurvivalSpec{kTurns, -1, 1, "turns", ""}; }

void to_metrics(const State& s, std::int32_t* out) noexcept {
    versus::outcome(s.winner, s.turn, s.end == State::kTurnCap, out);
    out[kEndHome] = s.end == State::kHome;
    out[kEndAnnihilation] = s.end == State::kAnnihilation;
    out[kSystemsA] = s.owned(0);
    out[kSystemsB] = s.owned(1);
    out[kBuiltA] = s.built[0];
    out[kBuiltB] = s.built[1];
    out[kShipsLostA] = s.lost[0];
    out[kShipsLostB] = s.lost[1];
    out[kBpA] = s.produced[0];
    out[kBpB] = s.produced[1];
    out[kFleetCapHits] = s.cap_hits[0] + s.cap_hits[1];
}

}  // namespace odds::msc
