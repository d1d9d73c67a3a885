// Minimal Space Combat ship designs (M2) and strategic combat arithmetic (M7), with scripted dice.
#include <catch2/catch.hpp>

#include "engine/dice.hpp"
#include "engine/msc/ships.hpp"

using namespace odds;
using namespace odds::msc;

TEST_CASE("M2 designs: 1 BP a rating unit up to 5, 2 BP a weapon, 10/15/20 BP ships", "[msc][M2]") {
    const auto d = parse_design("E3S4T4W2");
    REQUIRE(d);
    CHECK(d->cost() == 15);
    CHECK(d->offence() == 8);  // TO-HIT 4 + 2 weapons x 2 BP
    CHECK(d->defence() == 4);
    CHECK(to_string(*d) == "E3S4T4W2");
    CHECK_FALSE(parse_design("E6S2T2W0"));  // ENGINE above 5
    CHECK_FALSE(parse_design("E3S4T4W1"));  // 13 BP
    CHECK_FALSE(parse_design("E3S4T4"));    // malformed
    CHECK_FALSE(parse_design("E3S4T4W2x"));
    CHECK(parse_design("E0S5T5W0"));        // 10 BP; ENGINE 0 is legal (the ship cannot move)
    CHECK_FALSE(parse_design("e0s5t5w0"));  // values are case-sensitive: the letters are capitals
    CHECK_FALSE(parse_design("E3s4T4W2"));
}

TEST_CASE("M2 doctrines give legal designs of every size", "[msc][M2]") {
    for (Doctrine doc :
         {Doctrine::balanced, Doctrine::glass_cannon, Doctrine::turtle, Doctrine::fast})
        for (int bp : {10, 15, 20}) {
            const Design d = doctrine_design(doc, bp);
            INFO(static_cast<int>(doc) << " " << bp << ": " << to_string(d));
            CHECK(d.legal());
            CHECK(d.cost() == bp);
        }
    CHECK(doctrine_design(Doctrine::fast, 15).engine == 5);
    CHECK(doctrine_design(Doctrine::turtle, 15).shields == 5);
    CHECK(doctrine_design(Doctrine::glass_cannon, 20).shields == 0);
    CHECK(parse_doctrine("glass-cannon") == Doctrine::glass_cannon);
    CHECK_FALSE(parse_doctrine("sneaky"));
}

TEST_CASE("M7 combat arithmetic: dice per 7 offence and per 3 defence, saves cancel hits",
          "[msc][M7]") {
    CHECK(attack_dice(13) == 1);
    CHECK(attack_dice(14) == 2);
    CHECK(defence_dice(8) == 2);
    CHECK(defence_dice(9) == 3);
    {  // 21 offence: 3 dice (6, 5, 4): 2 hits; 6 defence: 2 dice (5, 1): 1 save: 1 loss
        ScriptedDice d{6, 5, 4, 5, 1};
        CHECK(resolve_attack(21, 6, d) == 1);
        CHECK(d.remaining() == 0);
    }
    {  // more saves than hits: no losses, never negative
        ScriptedDice d{5, 6, 6};
        CHECK(resolve_attack(7, 6, d) == 0);
    }
    {  // below 7 offence: no attack dice; the defender still rolls his
        ScriptedDice d{1};
        CHECK(resolve_attack(6, 3, d) == 0);
        CHECK(d.remaining() == 0);
    }
}

TEST_CASE("M7 combat rule options: dice per offensive and defensive BPs, faces that hit and save",
          "[msc][M7][options]") {
    const CombatRules book;
    CHECK(book.offense_bp_per_die == 7);
    CHECK(book.defense_bp_per_die == 3);
    CHECK(book.hits_on == FaceSet::range(5, 6));
    CHECK(book.saves_on == FaceSet::range(5, 6));
    SECTION("combat.offense_bp_per_die") {
        // 12 offence, 3 defence. Book: 1 attack die (5), 1 save die (1): 1 loss.
        ScriptedDice d{5, 1};
        CHECK(resolve_attack(12, 3, d, book) == 1);
        CHECK(d.remaining() == 0);
        // 6: 2 attack dice (5, 6), 1 save die (1): 2 losses.
        CombatRules r;
        r.offense_bp_per_die = 6;
        ScriptedDice e{5, 6, 1};
        CHECK(resolve_attack(12, 3, e, r) == 2);
        CHECK(e.remaining() == 0);
        CHECK(attack_dice(13, r) == 2);
    }
    SECTION("combat.defense_bp_per_die") {
        // 7 offence, 4 defence. Book: 1 attack die (6), 1 save die (1): 1 loss.
        ScriptedDice d{6, 1};
        CHECK(resolve_attack(7, 4, d, book) == 1);
        CHECK(d.remaining() == 0);
        // 2: 2 save dice (1, 5): the hit is cancelled.
        CombatRules r;
        r.defense_bp_per_die = 2;
        ScriptedDice e{6, 1, 5};
        CHECK(resolve_attack(7, 4, e, r) == 0);
        CHECK(e.remaining() == 0);
    }
    SECTION("combat.hits_on") {
        // 14 offence (2 dice: 4, 6), 0 defence. Book: one hit; 4-6: two.
        ScriptedDice d{4, 6};
        CHECK(resolve_attack(14, 0, d, book) == 1);
        CombatRules r;
        r.hits_on = FaceSet::range(4, 6);
        ScriptedDice e{4, 6};
        CHECK(resolve_attack(14, 0, e, r) == 2);
        r.hits_on = FaceSet::range(6, 6);
        ScriptedDice f{5, 5};
        CHECK(resolve_attack(14, 0, f, r) == 0);
    }
    SECTION("combat.saves_on") {
        // 14 offence (5, 6: two hits), 3 defence (one die: 4). Book: no save; 4-6: one.
        ScriptedDice d{5, 6, 4};
        CHECK(resolve_attack(14, 3, d, book) == 2);
        CombatRules r;
        r.saves_on = FaceSet::range(4, 6);
        ScriptedDice e{5, 6, 4};
        CHECK(resolve_attack(14, 3, e, r) == 1);
    }
}
