// Full Plastic Bodybag: Heroes positions as text (RULES.md "Positions"): write_position and
// read_position, read through the one line-record reader (engine/line_reader.hpp).
#include <algorithm>
#include <string>

#include "engine/fpb/fpb.hpp"
#include "engine/line_reader.hpp"

namespace odds::fpb {

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
    State s = opening(o);  // the field and the Lt's command (H1, H4)
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

}  // namespace odds::fpb
