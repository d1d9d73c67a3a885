// Dimension Duel positions as text (RULES.md "Positions"): write_position and read_position,
// read through the one line-record reader (engine/line_reader.hpp).
#include <string>

#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/line_reader.hpp"

namespace odds::dimension_duel {

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
                if (!names.empty()) names += ',';
                names += kFunctionNames[f];
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

}  // namespace odds::dimension_duel
