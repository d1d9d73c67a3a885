// Dimension Duel rule tests: every function and interaction (D1-D7) with scripted choices and
// scripted dice. A test fails if the kernel rolls one die more or less than the rule requires.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::dimension_duel;

namespace {

// Plays exactly the given choices; asks no dice.
struct Scripted {
    int particle_choice = 0, region_choice = 0;
    Function function_choice = kBluff;
    template <class D>
    int particle(const View&, D&) {
        return particle_choice;
    }
    template <class D>
    int region(const View&, int, int, D&) {
        return region_choice;
    }
    template <class D>
    Function function(const View&, const Calibration&, D&) {
        return function_choice;
    }
};

struct Turn {
    int hp_tau, hp_kaon;  // after the turn
    std::size_t dice_used;
};

// One turn with Tau attacking (turn 1) from 75 hit points each.
Turn turn1(Scripted tau, Scripted kaon, std::vector<int> faces, Options o = {}) {
    State s;
    s.hp[kTau] = s.hp[kKaon] = o.hp;
    ScriptedDice dice(std::move(faces));
    play_turn(s, o, tau, kaon, dice);
    INFO("faces left: " << dice.remaining());
    CHECK(dice.remaining() == 0);
    return {s.hp[kTau], s.hp[kKaon], dice.used()};
}

// Tau: Tau ray at the head; Kaon: anti-Tau shield on the head: no dice from steps 1-2.
Scripted tau_plain(Function f = kBluff) { return {0, 0, f}; }
Scripted kaon_blocks(Function f = kBluff) { return {0, 0, f}; }
// Kaon: anti-Kaon shield on the torso: Tau gets both dice (mismatch, other region).
Scripted kaon_open(Function f = kBluff) { return {1, 1, f}; }

}  // namespace

TEST_CASE("D4 steps 1-2: a die for a mismatched shield and one for another region", "[duel][D4]") {
    const Turn both = turn1(tau_plain(), kaon_open(), {3, 4});
    CHECK(both.hp_kaon == 75 - 7);
    CHECK(both.hp_tau == 75);
    const Turn none = turn1(tau_plain(), kaon_blocks(), {});
    CHECK(none.hp_kaon == 75);
    const Turn shield_only = turn1(tau_plain(), Scripted{1, 0, kBluff}, {5});
    CHECK(shield_only.hp_kaon == 70);
    const Turn region_only = turn1(tau_plain(), Scripted{0, 2, kBluff}, {6});
    CHECK(region_only.hp_kaon == 69);
}

TEST_CASE("D1 Tau attacks on odd turns, Kaon on even ones", "[duel][D1]") {
    State s;
    s.hp[kTau] = s.hp[kKaon] = 75;
    Options o;
    Scripted tau = kaon_open(), kaon = tau_plain();  // whoever defends leaves the shield open
    ScriptedDice dice{1, 1, 2, 2};
    play_turn(s, o, tau, kaon, dice);  // turn 1: Tau attacks
    play_turn(s, o, tau, kaon, dice);  // turn 2: Kaon attacks
    CHECK(dice.remaining() == 0);
    // Turn 1: Tau's ray 1 (Kaon), head region 1 (torso) vs Kaon's shield 0, region 0: 2 dice.
    CHECK(s.hp[kKaon] == 75 - 2);
    // Turn 2: Kaon's ray 0 vs Tau's shield 1 (anti-Kaon), regions 0 vs 1: 2 dice at Tau.
    CHECK(s.hp[kTau] == 75 - 4);
}

TEST_CASE("D4 a Delayed Attack gives its player a die, attacker or defender", "[duel][D4]") {
    // The defender's die hits the attacker; the attacker rolls first.
    const Turn d = turn1(tau_plain(), kaon_blocks(kDelayed), {4});
    CHECK(d.hp_tau == 71);
    CHECK(d.hp_kaon == 75);
    const Turn a = turn1(tau_plain(kDelayed), kaon_open(), {1, 2, 3});
    CHECK(a.hp_kaon == 69);
    const Turn both = turn1(tau_plain(kDelayed), kaon_blocks(kDelayed), {2, 5});
    CHECK(both.hp_kaon == 73);
    CHECK(both.hp_tau == 70);
}

TEST_CASE("D5 a Disruptor cancels everything: nobody rolls", "[duel][D5]") {
    for (Function other :
         {kBluff, kDelayed, kDeflector, kIntensifier, kChangerSelf, kChangerOpponent, kDisruptor}) {
        INFO("other function " << kFunctionNames[other]);
        const Turn t1 = turn1(tau_plain(kDisruptor), kaon_open(other), {});
        CHECK(t1.hp_tau == 75);
        CHECK(t1.hp_kaon == 75);
        const Turn t2 = turn1(tau_plain(other), kaon_open(kDisruptor), {});
        CHECK(t2.hp_kaon == 75);
    }
}

TEST_CASE("D5 one Deflector: each player's total hits himself", "[duel][D5]") {
    const Turn t = turn1(tau_plain(), kaon_open(kDeflector), {3, 4});
    CHECK(t.hp_tau == 68);
    CHECK(t.hp_kaon == 75);
    // The defender's Delayed die, deflected by the attacker, hits the defender.
    const Turn u = turn1(tau_plain(kDeflector), kaon_blocks(kDelayed), {6});
    CHECK(u.hp_kaon == 69);
    CHECK(u.hp_tau == 75);
}

TEST_CASE("D5 two Deflectors cancel", "[duel][D5]") {
    const Turn t = turn1(tau_plain(kDeflector), kaon_open(kDeflector), {3, 4});
    CHECK(t.hp_kaon == 68);
    CHECK(t.hp_tau == 75);
}

TEST_CASE("D5 Intensifiers double every total, each of them", "[duel][D5]") {
    const Turn one = turn1(tau_plain(kIntensifier), kaon_open(), {3, 4});
    CHECK(one.hp_kaon == 75 - 14);
    // Two Intensifiers: x4. Kaon's Intensifier doubles the damage Kaon suffers too.
    const Turn two = turn1(tau_plain(kIntensifier), kaon_open(kIntensifier), {3, 4});
    CHECK(two.hp_kaon == 75 - 28);
}

TEST_CASE("D5 Deflector with Intensifier: doubled and sent back", "[duel][D5]") {
    const Turn t = turn1(tau_plain(kIntensifier), kaon_open(kDeflector), {3, 4});
    CHECK(t.hp_tau == 75 - 14);
    CHECK(t.hp_kaon == 75);
}

TEST_CASE("D3 particle changers flip step 1, cumulatively, from either side", "[duel][D3]") {
    // Blocked (Tau ray vs anti-Tau shield); each single changer unblocks: one die.
    for (auto [ft, fk] : {std::pair{kChangerSelf, kBluff}, std::pair{kChangerOpponent, kBluff},
                          std::pair{kBluff, kChangerSelf}, std::pair{kBluff, kChangerOpponent}}) {
        INFO(kFunctionNames[ft] << " / " << kFunctionNames[fk]);
        const Turn t = turn1(tau_plain(ft), kaon_blocks(fk), {5});
        CHECK(t.hp_kaon == 70);
    }
    // Two flips cancel: the attacker's Self and the defender's Opponent both flip the ray;
    // the attacker's Self and the defender's Self flip ray and shield: still a match.
    for (auto [ft, fk] :
         {std::pair{kChangerSelf, kChangerOpponent}, std::pair{kChangerOpponent, kChangerSelf},
          std::pair{kChangerSelf, kChangerSelf}, std::pair{kChangerOpponent, kChangerOpponent}}) {
        INFO(kFunctionNames[ft] << " / " << kFunctionNames[fk]);
        const Turn t = turn1(tau_plain(ft), kaon_blocks(fk), {});
        CHECK(t.hp_kaon == 75);
    }
    // A changer can also close an open shield: the defender flips his own shield to match.
    const Turn closed = turn1(tau_plain(), Scripted{1, 0, kChangerSelf}, {});
    CHECK(closed.hp_kaon == 75);
}

TEST_CASE("D6 both players dead in one turn is a draw", "[duel][D6]") {
    Options o;
    o.hp = 5;
    Scripted tau = tau_plain(kDelayed), kaon = kaon_open(kDelayed);
    ScriptedDice dice{2, 2, 2, 6};  // Tau's 3 dice: 6 >= 5; Kaon's die: 6 >= 5
    const Outcome r = play(o, tau, kaon, dice);
    CHECK(r.winner == -1);
    CHECK(r.turns == 1);
    CHECK(dice.remaining() == 0);
    dimension_duel::Outcome one = r;
    std::int32_t m[kMetricCount];
    to_metrics(one, m);
    CHECK(m[kDraw] == 1);
    CHECK(m[kAdvantageFirst] == 1);  // half a win, in halves
}

TEST_CASE("D6 one dead: the other wins; max_turns ends in a draw", "[duel][D6]") {
    Options o;
    o.hp = 5;
    Scripted tau = tau_plain(), kaon = kaon_open();
    ScriptedDice dice{3, 3};
    const Outcome r = play(o, tau, kaon, dice);
    CHECK(r.winner == kTau);
    CHECK(r.hp[kKaon] == -1);
    o.max_turns = 3;
    Scripted a = tau_plain(kDisruptor), b = kaon_open(kDisruptor);
    ScriptedDice none{};
    const Outcome cap = play(o, a, b, none);
    CHECK(cap.winner == -1);
    CHECK(cap.timeout);
    CHECK(cap.turns == 3);
}

TEST_CASE("D2 the dice policy rolls the seed's charts in order", "[duel][D2]") {
    // Tau: ray 4 (Kaon); Kaon: shield 2 (anti-Tau) -> mismatch. Tau focus 5 (extremities),
    // Kaon region 6 (extremities). Tau function 6 then 2 (changer-self: ray back to Tau,
    // now blocked); Kaon function 5 (intensifier). No die is left to roll: no damage.
    State s;
    s.hp[kTau] = s.hp[kKaon] = 75;
    Options o;
    DicePolicy tau, kaon;
    ScriptedDice dice{4, 2, 5, 6, 6, 2, 5};
    play_turn(s, o, tau, kaon, dice);
    CHECK(dice.remaining() == 0);
    CHECK(s.hp[kKaon] == 75);  // blocked and same region: no dice at all
    CHECK(s.out.played[kTau][kChangerSelf] == 1);
    CHECK(s.out.played[kKaon][kIntensifier] == 1);
}

namespace {
// Notes what each step shows it; as the attacker, plays a changer on its own ray when the
// calibration shows the ray blocked (the seed's example), else bluffs.
struct Seer {
    int particle_choice = 0, region_choice = 0;
    std::vector<std::pair<int, int>> step1_seen;  // (ray, shield) when choosing the region
    std::vector<Calibration> steps12_seen;        // when choosing the function
    template <class D>
    int particle(const View&, D&) {
        return particle_choice;
    }
    template <class D>
    int region(const View&, int ray, int shield, D&) {
        step1_seen.emplace_back(ray, shield);
        return region_choice;
    }
    template <class D>
    Function function(const View& v, const Calibration& c, D&) {
        steps12_seen.push_back(c);
        return v.attacking && c.ray == c.shield ? kChangerSelf : kBluff;
    }
};
}  // namespace

TEST_CASE("D2a each step is chosen at once and revealed: step 2 knows step 1, step 3 knows both",
          "[duel][D2][D2a]") {
    // Tau fires a Tau ray at the extremities; Kaon raises an anti-Tau shield and guards the torso.
    Seer tau{0, 2, {}, {}}, kaon{0, 1, {}, {}};
    State s;
    s.hp[kTau] = s.hp[kKaon] = 75;
    Options o;
    // Tau sees the ray blocked and plays Changer-Self: the flipped ray gets through (a die) and
    // the region differs (a die): 4 + 5.
    ScriptedDice dice{4, 5};
    play_turn(s, o, tau, kaon, dice);
    CHECK(dice.remaining() == 0);
    const std::vector<std::pair<int, int>> step1{{0, 0}};
    CHECK(tau.step1_seen == step1);  // the attacker, asked first, already sees the shield
    CHECK(kaon.step1_seen == step1);
    for (const Seer* p : {&tau, &kaon}) {
        REQUIRE(p->steps12_seen.size() == 1);
        const Calibration& c = p->steps12_seen[0];
        CHECK(c.ray == 0);
        CHECK(c.shield == 0);
        CHECK(c.focus == 2);
        CHECK(c.region == 1);
    }
    CHECK(s.out.played[kTau][kChangerSelf] == 1);
    CHECK(s.hp[kKaon] == 75 - 9);
}

TEST_CASE("D7 single_use: the dice policy rolls again for a used function", "[duel][D7]") {
    Options o;
    o.single_use = true;
    DicePolicy p;
    View v{kTau,
           true,
           75,
           75,
           static_cast<std::uint8_t>(use_bit(kIntensifier) | use_bit(kChangerSelf)),
           0,
           &o};
    ScriptedDice dice{5, 6, 4, 6, 1, 1};  // used: intensifier, changer (either mode); then bluff
    CHECK(p.function(v, Calibration{}, dice) == kBluff);
    CHECK(dice.remaining() == 0);
    const auto law = p.function_law(v, Calibration{});
    CHECK(law[kIntensifier] == 0);
    CHECK(law[kChangerOpponent] == 0);
    CHECK(law[kBluff] == Approx(0.25));
    // Bluff is never used up.
    CHECK(o.available(0xFF, kBluff));
}

TEST_CASE("D7a changers=separate: the changer's two modes are used up one by one", "[duel][D7a]") {
    Options o;
    o.single_use = true;
    CHECK_FALSE(o.available(o.bit(kChangerSelf), kChangerOpponent));  // shared: one function
    o.separate_changers = true;
    CHECK(o.available(o.bit(kChangerSelf), kChangerOpponent));
    CHECK_FALSE(o.available(o.bit(kChangerSelf), kChangerSelf));
    DicePolicy p;
    View v{kTau, true, 75, 75, o.bit(kChangerSelf), 0, &o};
    ScriptedDice dice{6, 2, 6, 5};  // changer-self is used: rolled again; changer-opponent plays
    CHECK(p.function(v, Calibration{}, dice) == kChangerOpponent);
    CHECK(dice.remaining() == 0);
    CHECK(parse_options({{"changers", "separate"}}).separate_changers);
    CHECK_THROWS_AS(parse_options({{"changers", "both"}}), UsageError);
}

TEST_CASE("the rules of thumb choose as their names say", "[duel][policies]") {
    Options o;
    const Calibration open{0, 1, 0, 1};     // the attacker has 2 dice
    const Calibration blocked{0, 0, 1, 1};  // the attacker has none
    View att{kTau, true, 40, 60, 0, 0, &o}, def{kKaon, false, 60, 40, 0, 0, &o};
    CHECK(AggressorRule::choose(att, open) == kIntensifier);
    CHECK(AggressorRule::choose(att, blocked) == kChangerSelf);
    CHECK(AggressorRule::choose(def, open) == kDelayed);
    CHECK(SurvivorRule::choose(def, open) == kDisruptor);  // ahead on hp: cancel
    View behind = def;
    behind.my_hp = 30;
    CHECK(SurvivorRule::choose(behind, open) == kDeflector);  // behind: send it back
    CHECK(SurvivorRule::choose(def, blocked) == kDelayed);
    CHECK(CalibratorRule::choose(att, blocked) == kChangerSelf);  // unblock the ray
    CHECK(CalibratorRule::choose(def, open) == kChangerSelf);     // match the shield
    CHECK(CalibratorRule::choose(att, open) == kDelayed);
    // Under single_use a used favourite falls back down its list.
    Options su;
    su.single_use = true;
    View used{kTau, true, 40, 60, use_bit(kIntensifier), 0, &su};
    CHECK(AggressorRule::choose(used, open) == kDelayed);
}

TEST_CASE("policies sample as their laws say", "[duel][policies][statistics]") {
    Options o;
    Dice dice(99);
    const View v{kTau, true, 50, 50, 0, 0, &o};
    const Calibration c{0, 0, 1, 2};
    DicePolicy p;
    constexpr int kN = 600'000;
    std::array<double, kFunctionCount> seen{};
    std::array<double, 2> particles{};
    std::array<double, 3> regions{};
    for (int i = 0; i < kN; ++i) {
        ++seen[p.function(v, c, dice)];
        ++particles[static_cast<std::size_t>(p.particle(v, dice))];
        ++regions[static_cast<std::size_t>(p.region(v, 0, 0, dice))];
    }
    auto check = [&](auto& counts, const auto& law) {
        for (std::size_t k = 0; k < law.size(); ++k) {
            const double f = counts[k] / kN, se = std::sqrt(law[k] * (1 - law[k]) / kN);
            INFO("outcome " << k << ": " << f << " vs " << law[k]);
            CHECK(std::abs(f - law[k]) <= 4 * se);
        }
    };
    check(seen, p.function_law(v, c));
    check(particles, p.particle_law(v));
    check(regions, p.region_law(v, 0, 0));
}

TEST_CASE("D4 damage.die: what each die awarded rolls, the book's 1d6 or another",
          "[duel][D4][options]") {
    CHECK(parse_options({}).die == DiceExpr::of(1, 6));
    // The book: two dice awarded, two d6 faces.
    const Turn book = turn1(tau_plain(), kaon_open(), {3, 4}, parse_options({}));
    CHECK(book.hp_kaon == 75 - 7);
    // A d8: its faces (a 7 and an 8, which no d6 shows).
    const Turn d8 = turn1(tau_plain(), kaon_open(), {7, 8}, parse_options({{"damage.die", "1d8"}}));
    CHECK(d8.hp_kaon == 75 - 15);
    // 1d6+1: each die awarded adds its constant.
    const Turn plus =
        turn1(tau_plain(), kaon_open(), {3, 4}, parse_options({{"damage.die", "1d6+1"}}));
    CHECK(plus.hp_kaon == 75 - 9);
    // 2d4 a die awarded: two dice awarded roll four d4, the attacker's first, then the
    // defender's Delayed Attack's two.
    const Options two_d4 = parse_options({{"damage.die", "2d4"}});
    const Turn four = turn1(tau_plain(), kaon_open(kDelayed), {1, 2, 3, 4, 4, 4}, two_d4);
    CHECK(four.dice_used == 6);
    CHECK(four.hp_kaon == 75 - 10);
    CHECK(four.hp_tau == 75 - 8);
    // Mixed d6s: 2d6 a die is still the d6 fast path, the same faces in order.
    const Turn d6s =
        turn1(tau_plain(), kaon_open(), {1, 2, 3, 6}, parse_options({{"damage.die", "2d6"}}));
    CHECK(d6s.hp_kaon == 75 - 12);
    CHECK(scenario(parse_options({{"damage.die", "1d8"}})).find("damage.die=1d8") !=
          std::string::npos);
    CHECK(scenario(parse_options({})).find("damage.die") == std::string::npos);
    CHECK_THROWS_AS(parse_options({{"damage.die", "1d6-1"}}), UsageError);  // a total of 0
    CHECK_THROWS_AS(parse_options({{"damage.die", "2d100"}}), UsageError);  // above 100
}

TEST_CASE("D5 intensifier.factor: each Intensifier multiplies every total by it",
          "[duel][D5][options]") {
    CHECK(parse_options({}).intensifier_factor == 2);
    const Options x3 = parse_options({{"intensifier.factor", "3"}});
    const Turn one = turn1(tau_plain(kIntensifier), kaon_open(), {3, 4}, x3);
    CHECK(one.hp_kaon == 75 - 21);
    const Turn two = turn1(tau_plain(kIntensifier), kaon_open(kIntensifier), {3, 4}, x3);
    CHECK(two.hp_kaon == 75 - 63);
    // Sent back by a Deflector, multiplied all the same.
    const Turn back = turn1(tau_plain(kIntensifier), kaon_open(kDeflector), {3, 4}, x3);
    CHECK(back.hp_tau == 75 - 21);
    CHECK(back.hp_kaon == 75);
    // 1: an Intensifier does nothing.
    const Turn none = turn1(tau_plain(kIntensifier), kaon_open(kIntensifier), {3, 4},
                            parse_options({{"intensifier.factor", "1"}}));
    CHECK(none.hp_kaon == 75 - 7);
    CHECK_THROWS_AS(parse_options({{"intensifier.factor", "0"}}), UsageError);
    // The metrics' bound follows: one turn's most is 3 dice x the die's most x factor^2.
    CHECK(x3.max_hit() == 3 * 6 * 9);
    CHECK(parse_options({{"damage.die", "1d8"}}).max_hit() == 3 * 8 * 4);
}

TEST_CASE("D4 calibrate.dice, focus.dice, delayed.dice: the dice each award gives",
          "[duel][D4][options]") {
    const Options book = parse_options({});
    CHECK(book.calibrate_dice == 1);
    CHECK(book.focus_dice == 1);
    CHECK(book.delayed_dice == 1);
    // The book: one die for the open shield, one for the region, one for each Delayed Attack.
    const Turn b = turn1(tau_plain(kDelayed), kaon_open(kDelayed), {1, 2, 3, 6}, book);
    CHECK(b.hp_kaon == 75 - 6);
    CHECK(b.hp_tau == 75 - 6);
    // Two dice for the open shield: Tau rolls 2 + 1 (region) + 1 (Delayed) dice.
    const Turn cal = turn1(tau_plain(kDelayed), kaon_open(), {1, 2, 3, 4},
                           parse_options({{"calibrate.dice", "2"}}));
    CHECK(cal.hp_kaon == 75 - 10);
    // Only the shield open (same region): calibrate.dice=0 leaves nothing to roll.
    const Turn none =
        turn1(tau_plain(), Scripted{1, 0, kBluff}, {}, parse_options({{"calibrate.dice", "0"}}));
    CHECK(none.hp_kaon == 75);
    // Three dice for the region alone (anti-Tau shield stops the ray).
    const Turn foc =
        turn1(tau_plain(), Scripted{0, 2, kBluff}, {2, 2, 2}, parse_options({{"focus.dice", "3"}}));
    CHECK(foc.hp_kaon == 75 - 6);
    // Delayed Attack of two dice, for the defender too.
    const Turn del = turn1(tau_plain(kDelayed), kaon_blocks(kDelayed), {1, 2, 5, 6},
                           parse_options({{"delayed.dice", "2"}}));
    CHECK(del.hp_kaon == 75 - 3);
    CHECK(del.hp_tau == 75 - 11);
    const Options most = parse_options({{"calibrate.dice", "3"}, {"delayed.dice", "2"}});
    CHECK(most.max_dice() == 6);
    CHECK(most.max_hit() == 6 * 6 * 4);
    CHECK_THROWS_AS(parse_options({{"focus.dice", "4"}}), UsageError);
}

TEST_CASE("D2 chart.tau, chart.head, chart.torso, chart.changer_self: the dice policy's charts",
          "[duel][D2][options]") {
    // The book's charts read the faces {4, 2, 5, 6, 6, 2, 5} as in "the dice policy rolls the
    // seed's charts in order": no damage. Other charts read the same faces otherwise.
    auto play = [](const Options& o, std::vector<int> faces) {
        State s;
        s.hp[kTau] = s.hp[kKaon] = 75;
        DicePolicy tau, kaon;
        ScriptedDice dice(std::move(faces));
        play_turn(s, o, tau, kaon, dice);
        CHECK(dice.remaining() == 0);
        return s;
    };
    const State book = play(parse_options({}), {4, 2, 5, 6, 6, 2, 5});
    CHECK(book.hp[kKaon] == 75);
    CHECK(book.out.played[kTau][kChangerSelf] == 1);
    // chart.tau=1-4: the 4 fires a Tau ray, the 2 raises an anti-Tau shield: blocked; the
    // changer (Self) then unblocks it: one die, a 3.
    const State tau = play(parse_options({{"chart.tau", "1-4"}}), {4, 2, 5, 6, 6, 2, 5, 3});
    CHECK(tau.hp[kKaon] == 75 - 3 * 2);  // Kaon's Intensifier doubles it
    // chart.changer_self=4-6: the re-rolled 2 is Changer-Opponent: Kaon's shield flips to
    // anti-Kaon, which stops the Kaon ray: no dice either, but another function was played.
    const State opp = play(parse_options({{"chart.changer_self", "4-6"}}), {4, 2, 5, 6, 6, 2, 5});
    CHECK(opp.out.played[kTau][kChangerOpponent] == 1);
    CHECK(opp.hp[kKaon] == 75);
    // chart.head=5, chart.torso=1-4: Tau's focus 5 is the head, Kaon's region 6 the
    // extremities (the book: both extremities): one die, a 4, doubled by Kaon's Intensifier.
    const State head = play(parse_options({{"chart.head", "5"}, {"chart.torso", "1-4"}}),
                            {4, 2, 5, 6, 6, 2, 5, 4});
    CHECK(head.hp[kKaon] == 75 - 4 * 2);
    const Options o = parse_options({{"chart.tau", "1"},
                                     {"chart.head", "1-2"},
                                     {"chart.torso", "2-3"},
                                     {"chart.changer_self", "none"}});
    const View v{kTau, true, 50, 50, 0, 0, &o};
    const DicePolicy p;
    CHECK(p.particle_law(v)[0] == Approx(1.0 / 6));
    const auto r = p.region_law(v, 0, 0);  // the head's first: the torso keeps only the 3
    CHECK(r[0] == Approx(2.0 / 6));
    CHECK(r[1] == Approx(1.0 / 6));
    CHECK(r[2] == Approx(3.0 / 6));
    const auto f = p.function_law(v, Calibration{});
    CHECK(f[kChangerSelf] == 0);
    CHECK(f[kChangerOpponent] == Approx(1.0 / 6));
}

TEST_CASE(
    "Options::book: the book's fast path is taken exactly when every turn option is the "
    "book's",
    "[duel][options]") {
    CHECK(Options{}.book);
    CHECK(parse_options({}).book);
    // Book values written out are still the book.
    CHECK(parse_options(
              {{"chart.head", "1-2"}, {"damage.die", "1d6"}, {"hp", "30"}, {"single_use", "true"}})
              .book);
    for (const auto& [name, value] :
         std::vector<std::pair<std::string, std::string>>{{"chart.tau", "1-4"},
                                                          {"chart.head", "1"},
                                                          {"chart.torso", "3-5"},
                                                          {"chart.changer_self", "1-2"},
                                                          {"calibrate.dice", "2"},
                                                          {"focus.dice", "0"},
                                                          {"delayed.dice", "2"},
                                                          {"damage.die", "1d8"},
                                                          {"damage.die", "1d6+1"},
                                                          {"intensifier.factor", "3"}}) {
        INFO(name << "=" << value);
        CHECK_FALSE(parse_options({{name, value}}).book);
    }
    Options o;
    o.intensifier_factor = 3;
    o.settle();
    CHECK_FALSE(o.book);
    CHECK_FALSE(o.book_dice);
    // A variant of the charts or restrictions alone keeps the book's dice (issue 45).
    for (const auto& [name, value] :
         {std::pair{"chart.tau", "1-2"}, {"restrict.tau", "disruptor"}, {"chart.head", "1"}}) {
        INFO(name);
        const Options v = parse_options({{name, value}});
        CHECK_FALSE(v.book);
        CHECK(v.book_dice);
    }
    for (const auto& [name, value] : {std::pair{"damage.die", "d8"},
                                      {"damage.die", "2d6"},
                                      {"intensifier.factor", "3"},
                                      {"calibrate.dice", "2"}}) {
        INFO(name);
        CHECK_FALSE(parse_options({{name, value}}).book_dice);
    }
}

namespace {
// Whole duels under the book's options by the fast path (book) and by a variant's path, which
// reads every option (`dice_too`) or every option but the turn's dice (Options::book_dice, a
// variant of the charts alone): the same outcomes, the same dice drawn.
template <class T, class K>
void check_paths_agree(Options o, int duels, bool dice_too) {
    Options slow = o;
    slow.book = false;
    slow.book_dice = !dice_too;
    REQUIRE(o.book);
    REQUIRE(o.book_dice);
    Dice fast_dice(7), slow_dice(7);
    for (int i = 0; i < duels; ++i) {
        T t1, t2;
        K k1, k2;
        const Outcome a = play(o, t1, k1, fast_dice), b = play(slow, t2, k2, slow_dice);
        INFO("duel " << i);
        REQUIRE(a.winner == b.winner);
        REQUIRE(a.turns == b.turns);
        REQUIRE(a.timeout == b.timeout);
        for (int seat = 0; seat < 2; ++seat) {
            REQUIRE(a.hp[seat] == b.hp[seat]);
            REQUIRE(a.dealt[seat] == b.dealt[seat]);
            for (int f = 0; f < kFunctionCount; ++f)
                REQUIRE(a.played[seat][f] == b.played[seat][f]);
        }
    }
    CHECK(fast_dice.word() == slow_dice.word());
}
}  // namespace

TEST_CASE("the book's fast path plays as the path that reads every option", "[duel][options]") {
    for (const bool dice_too : {true, false}) {
        check_paths_agree<DicePolicy, DicePolicy>(Options{}, 3000, dice_too);
        check_paths_agree<Aggressor, Survivor>(Options{}, 3000, dice_too);
        check_paths_agree<Calibrator, Aggressor>(Options{}, 3000, dice_too);
        Options single;
        single.single_use = true;
        single.separate_changers = true;
        check_paths_agree<DicePolicy, Survivor>(single, 3000, dice_too);
    }
}

TEST_CASE(
    "D2 chart.disruptor, chart.delayed, chart.deflector, chart.intensifier, chart.changer: "
    "the function chart",
    "[duel][D2][options]") {
    // The face each function takes in the book, and a changed chart that gives it the 1.
    const std::pair<const char*, Function> rows[] = {{"chart.disruptor", kDisruptor},
                                                     {"chart.delayed", kDelayed},
                                                     {"chart.deflector", kDeflector},
                                                     {"chart.intensifier", kIntensifier},
                                                     {"chart.changer", kChangerSelf}};
    auto roll = [](const Options& o, std::vector<int> faces, bool book_view) {
        View v{kTau, true, 50, 50, 0, 0, &o};
        v.book = book_view;
        DicePolicy p;
        ScriptedDice dice(std::move(faces));
        const Function f = p.function(v, Calibration{}, dice);
        CHECK(dice.remaining() == 0);
        return f;
    };
    const Options book = parse_options({});
    for (const bool fast : {false, true}) {
        CHECK(roll(book, {1}, fast) == kBluff);
        CHECK(roll(book, {2}, fast) == kDisruptor);
        CHECK(roll(book, {5}, fast) == kIntensifier);
        CHECK(roll(book, {6, 3}, fast) == kChangerSelf);
        CHECK(roll(book, {6, 4}, fast) == kChangerOpponent);
    }
    for (const auto& [name, f] : rows) {
        INFO(name);
        const Options o = parse_options({{name, "1"}});
        CHECK_FALSE(o.book);
        // The 1 is the function now (a changer rolls its mode: a 2 is Self).
        if (f == kChangerSelf)
            CHECK(roll(o, {1, 2}, false) == kChangerSelf);
        else
            CHECK(roll(o, {1}, false) == f);
        // and the book's face for it (2 to 6) a Bluff.
        CHECK(roll(o, {f == kChangerSelf ? 6 : static_cast<int>(f) + 1}, false) == kBluff);
    }
    // A face in no function's chart is a Bluff; the first chart with the face wins.
    const Options two = parse_options({{"chart.disruptor", "none"}, {"chart.delayed", "2-3"}});
    CHECK(roll(two, {2}, false) == kDelayed);
    const Options first = parse_options({{"chart.deflector", "4-5"}});
    CHECK(roll(first, {5}, false) == kDeflector);
    const auto law = DicePolicy{}.function_law(View{kTau, true, 50, 50, 0, 0, &two}, Calibration{});
    CHECK(law[kDisruptor] == 0);
    CHECK(law[kDelayed] == Approx(2.0 / 6));
    CHECK(law[kBluff] == Approx(1.0 / 6));
    // The book's law, as before the charts were options.
    const auto bl = DicePolicy{}.function_law(View{kTau, true, 50, 50, 0, 0, &book}, Calibration{});
    CHECK(bl == FunctionLaw{1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 12, 1.0 / 12});
    Options counted = book;  // the book's numbers counted from the charts: the same doubles
    counted.book = false;
    CHECK(DicePolicy{}.function_law(View{kTau, true, 50, 50, 0, 0, &counted}, Calibration{}) == bl);
    // D7: under single_use a used function is rolled again, so the chart needs a Bluff.
    CHECK_THROWS_WITH(parse_options({{"single_use", "true"}, {"chart.disruptor", "1-2"}}),
                      Catch::Contains("Bluff") && Catch::Contains("chart.disruptor"));
    CHECK_NOTHROW(parse_options({{"chart.disruptor", "1-2"}}));
}

TEST_CASE("D2b restrict.tau, restrict.kaon: read, named in the scenario, refused when bad",
          "[duel][D2b][options]") {
    const Options none = parse_options({});
    CHECK(none.barred[kTau] == 0);
    CHECK(none.barred[kKaon] == 0);
    CHECK(scenario(none).find("restrict") == std::string::npos);
    CHECK(parse_options({{"restrict.tau", "none"}}).book);  // nothing barred: still the book
    const Options o =
        parse_options({{"restrict.tau", "disruptor"}, {"restrict.kaon", "changer,intensifier"}});
    CHECK(o.barred[kTau] == 1u << kDisruptor);
    CHECK(o.barred[kKaon] == (1u << kIntensifier | 1u << kChangerSelf | 1u << kChangerOpponent));
    CHECK_FALSE(o.book);  // the variants' path, which asks what is barred
    CHECK(o.is_barred(kTau, kDisruptor));
    CHECK_FALSE(o.is_barred(kKaon, kDisruptor));
    CHECK_FALSE(o.allowed(kKaon, 0, kChangerOpponent));
    CHECK(o.allowed(kKaon, 0, kDeflector));
    CHECK(scenario(o).find("restrict.tau=disruptor restrict.kaon=intensifier,changer") !=
          std::string::npos);
    CHECK(scenario(parse_options({{"restrict.kaon", "changer_opponent,delayed"}}))
              .find("restrict.kaon=delayed,changer_opponent") != std::string::npos);
    // Bluff cannot be barred (a seat always has it), nor an unknown name, nor nothing.
    for (const char* bad : {"bluff", "disruptor,bluff", "disrupter", "", "disruptor,"})
        CHECK_THROWS_WITH(parse_options({{"restrict.tau", bad}}),
                          Catch::Contains("restrict.tau") && Catch::Contains("never bluff"));
    // The dice policy rolls again for a barred function: the chart must roll one it may play.
    CHECK_THROWS_WITH(parse_options({{"chart.disruptor", "1-6"}, {"restrict.kaon", "disruptor"}}),
                      Catch::Contains("restrict.kaon=disruptor") && Catch::Contains("D2b"));
    Settings changers{{"chart.disruptor", "none"},
                      {"chart.delayed", "none"},
                      {"chart.deflector", "none"},
                      {"chart.intensifier", "none"},
                      {"chart.changer", "1-6"}};
    Settings s = changers;
    s.push_back({"restrict.tau", "changer_self,changer_opponent"});
    CHECK_THROWS_WITH(parse_options(s), Catch::Contains("restrict.tau=changer"));
    s = changers;
    s.push_back({"restrict.tau", "changer_self"});
    CHECK_NOTHROW(parse_options(s));  // the re-roll's faces 4-6 give Opponent
    s.push_back({"chart.changer_self", "1-6"});
    CHECK_THROWS_WITH(parse_options(s), Catch::Contains("restrict.tau=changer_self"));
}

TEST_CASE("D2b the charts and the rules of thumb never play a function barred to their seat",
          "[duel][D2b][policies]") {
    const Options o = parse_options({{"restrict.tau", "disruptor,intensifier,changer_self"},
                                     {"restrict.kaon", "deflector,disruptor,delayed"}});
    View tau{kTau, true, 40, 60, 0, 0, &o}, kaon{kKaon, false, 60, 40, 0, 0, &o};
    DicePolicy p;
    // The dice policy rolls again for a barred function, as for a used one (D7).
    ScriptedDice d1{2, 5, 6, 1, 6, 4};  // disruptor, intensifier, changer-self: rolled again
    CHECK(p.function(tau, Calibration{}, d1) == kChangerOpponent);
    CHECK(d1.remaining() == 0);
    ScriptedDice d2{2, 3, 4, 1};  // Kaon: disruptor, delayed, deflector barred; then bluff
    CHECK(p.function(kaon, Calibration{}, d2) == kBluff);
    CHECK(d2.remaining() == 0);
    ScriptedDice d3{4};  // Kaon's restriction is not Tau's
    CHECK(p.function(tau, Calibration{}, d3) == kDeflector);
    const auto law = p.function_law(tau, Calibration{});
    CHECK(law[kDisruptor] == 0);
    CHECK(law[kIntensifier] == 0);
    CHECK(law[kChangerSelf] == 0);
    CHECK(law[kBluff] == Approx(2.0 / 7));  // 1/6 of 7/12
    const auto kaon_law = p.function_law(kaon, Calibration{});
    CHECK(kaon_law[kIntensifier] == Approx(2.0 / 6));
    // The rules of thumb fall down their lists past a barred favourite.
    const Calibration open{0, 1, 0, 1}, blocked{0, 0, 1, 1};
    CHECK(AggressorRule::choose(tau, open) == kDelayed);     // intensifier barred
    CHECK(AggressorRule::choose(tau, blocked) == kDelayed);  // changer_self barred
    CHECK(SurvivorRule::choose(kaon, open) == kBluff);       // disruptor, deflector, delayed
    CHECK(CalibratorRule::choose(tau, blocked) == kChangerOpponent);
    Game::Choice legal[kFunctionCount];
    State s = opening(o);
    s.step = 4;  // Tau's function
    CHECK(Game::legal(s, o, legal) == 4);
    s.step = 5;  // Kaon's
    CHECK(Game::legal(s, o, legal) == 4);
    for (int i = 0; i < 4; ++i) CHECK_FALSE(o.is_barred(kKaon, static_cast<Function>(legal[i])));
}

TEST_CASE("D2b every policy of a restricted seat never plays a barred function, in whole duels",
          "[duel][D2b][policies]") {
    // Each policy in each seat, against the charts and against equilibrium, over whole duels
    // with random dice: the functions played are counted per seat (tau_disruptor ...).
    const Settings s{{"hp", "12"},
                     {"restrict.tau", "disruptor,deflector"},
                     {"restrict.kaon", "intensifier,changer"}};
    const Options o = parse_options(s);
    for (const char* name :
         {"dice", "aggressor", "survivor", "calibrator", "best-response", "equilibrium", "mcts:40"})
        for (const char* other : {"dice", "equilibrium"})
            for (const bool as_tau : {true, false}) {
                if (std::string(name) == "best-response" && std::string(other) == "best-response")
                    continue;
                const std::vector<std::string> seats =
                    as_tau ? std::vector<std::string>{std::string("tau=") + name,
                                                      std::string("kaon=") + other}
                           : std::vector<std::string>{std::string("tau=") + other,
                                                      std::string("kaon=") + name};
                INFO(seats[0] << " " << seats[1]);
                const std::uint64_t n = std::string(name).starts_with("mcts") ? 20 : 400;
                const Tally t = test::monte_carlo("dimension-duel", s, seats, n, 5);
                std::uint64_t played = 0;
                for (int seat = 0; seat < 2; ++seat)
                    for (int f = 0; f < kFunctionCount; ++f) {
                        const auto c =
                            test::counts(t, (seat == kTau ? kTauPlayed : kKaonPlayed) + f);
                        if (o.is_barred(seat, static_cast<Function>(f)))
                            CHECK(c[0] == n);  // played 0 times in every duel
                        else
                            played += n - c[0];
                    }
                CHECK(played > 0);  // the counts count
            }
}
