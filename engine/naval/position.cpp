// Naval Duel positions as text (RULES.md "Positions"): write_position and read_position.
#include <array>
#include <string>

#include "engine/line_reader.hpp"
#include "engine/naval/naval.hpp"

namespace odds::naval {

namespace {

constexpr const char* kCardIds[kCardKinds] = {
    "gust-of-wind",       "unfurl-the-sails", "catch-the-wind",     "fierce-hand-to-hand",
    "swords-and-pistols", "rally-the-men",    "sweep-the-decks",    "splintering-wood",
    "damaged-rigging",    "quick-reload",     "crows-nest-lookout", "maneuver",
    "calm-waters",        "rake-the-bow"};
constexpr const char* kHeadings[6] = {"N", "NE", "SE", "S", "SW", "NW"};
constexpr const char* kSideNames[kSides] = {"a", "b"};

// The parts joined (no `"..." + std::string` temporaries: g++ 12 warns about those).
template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string out;
    (out.append(std::string_view(parts)), ...);
    return out;
}

std::string list_of(const char* const* names, int n) {
    std::string out;
    for (int k = 0; k < n; ++k) out += (k ? ", " : "") + std::string(names[k]);
    return out;
}

int index_of(std::string_view word, const char* const* names, int n) {
    for (int k = 0; k < n; ++k)
        if (word == names[k]) return k;
    return -1;
}

}  // namespace

std::string write_position(const Start& p, const Options&) {
    const State& s = p.state;
    std::string out =
        "# Naval Duel position (engine/naval/RULES.md, \"Positions\"); the sea is the options' "
        "width x height\n";
    out += "turn " + std::to_string(s.turn) + "\n";
    if (s.turn == 0) out += "islands " + std::to_string(p.islands) + "\n";
    for (int row = 0; row < s.rows; ++row)
        for (int col = 0; col < s.cols; ++col)
            if (s.land[static_cast<std::size_t>(s.cell(col, row))])
                out += "land " + std::to_string(col) + " " + std::to_string(row) + "\n";
    out += "# ship SIDE COL ROW HEADING MOVEMENT CANNON CREW [flagship]\n";
    for (int i = 0; i < s.n_ships; ++i) {
        const Ship& sh = s.ship[i];
        if (!sh.afloat) continue;
        out += "ship " + std::string(kSideNames[sh.side]) + " " +
               std::to_string(hex::offset_col(sh.pos)) + " " +
               std::to_string(hex::offset_row(sh.pos)) + " " + kHeadings[sh.facing] + " " +
               std::to_string(sh.movement) + " " + std::to_string(sh.cannon) + " " +
               std::to_string(sh.crew) + (sh.flagship ? " flagship" : "") + "\n";
    }
    if (s.turn > 0) {
        for (int side = 0; side < kSides; ++side) {
            out += cat("hand ", kSideNames[side]);
            for (int k = 0; k < s.hand_n[side]; ++k)
                out.append(" ").append(kCardIds[s.hand[side][k]]);
            out += "\n";
        }
        out += "discards";
        for (int k = 0; k < s.discards_n; ++k) out.append(" ").append(kCardIds[s.discards[k]]);
        out += "\n";
    }
    return out;
}

Start read_position(std::string_view text, std::string_view file, const Options& o) {
    LineReader in(text, file);
    Start p;
    p.state = empty_sea(o);
    State& s = p.state;
    s.n_ships = 0;
    int turn_line = 0, islands_line = 0;
    std::array<int, kMaxShips> ship_line{};
    std::array<int, kSides> hand_line{};
    int discards_line = 0;
    std::array<int, kCardKinds> cards{};
    const auto side_of = [&](std::size_t w) {
        const int side = index_of(in.word(w), kSideNames, kSides);
        if (side < 0) in.fail("side '" + std::string(in.word(w)) + "' is not a or b");
        return side;
    };
    const auto card_list = [&](std::size_t from, std::array<std::uint8_t, kHandMax>* hand, int* n,
                               int limit, const char* rule) {
        for (std::size_t w = from; w < in.size(); ++w) {
            const int c = index_of(in.word(w), kCardIds, kCardKinds);
            if (c < 0)
                in.fail("card '" + std::string(in.word(w)) + "' is not one of " +
                        list_of(kCardIds, kCardKinds) + " (N9)");
            if (++cards[c] > s.deck_of[c])
                in.fail(s.deck_of[c] == 2
                            ? "a third " + std::string(kCardIds[c]) +
                                  ": the deck holds two of each card (N4)"
                            : "card " + std::string(kCardIds[c]) + " past the deck's " +
                                  std::to_string(s.deck_of[c]) + " (N4, deck.*)");
            if (*n >= limit)
                in.fail(std::string("more than ") + std::to_string(limit) + " cards (" + rule +
                        ")");
            if (hand) (*hand)[static_cast<std::size_t>(*n)] = static_cast<std::uint8_t>(c);
            ++*n;
        }
    };
    const auto hex_at = [&](std::size_t w) {
        const int col = static_cast<int>(in.integer(
            w, 0, s.cols - 1, "column", "N1: the sea is width x height, columns 0..height-1"));
        const int row =
            static_cast<int>(in.integer(w + 1, 0, s.rows - 1, "row", "N1: rows 0..width-1"));
        return hex::from_offset(col, row);
    };
    while (in.next()) {
        const std::string_view what = in.word(0);
        if (what == "turn") {
            in.expect_words(2, "turn N");
            in.once(turn_line, "turn");
            s.turn = static_cast<int>(
                in.integer(1, 0, o.max_turns - 1, "turn", "N8: a game at max_turns is over"));
        } else if (what == "islands") {
            in.expect_words(2, "islands N");
            in.once(islands_line, "islands");
            p.islands = static_cast<int>(
                in.integer(1, 0, s.cols * (s.rows - 2) / 4, "islands",
                           "N1a: up to a quarter of the sea between the edge rows"));
        } else if (what == "land") {
            in.expect_words(3, "land COL ROW");
            const std::size_t c = static_cast<std::size_t>(s.cell(hex_at(1)));
            if (s.land[c]) in.fail("land listed twice (N1)");
            s.land[c] = 1;
        } else if (what == "ship") {
            if (in.size() != 8 && in.size() != 9)
                in.expect_words(8, "ship SIDE COL ROW HEADING MOVEMENT CANNON CREW [flagship]");
            if (s.n_ships >= 2 * o.ships)
                in.fail("more than " + std::to_string(2 * o.ships) +
                        " ships: ships=" + std::to_string(o.ships) +
                        " a side (N2; captures change sides, never the count)");
            const int i = s.n_ships++;
            ship_line[static_cast<std::size_t>(i)] = in.line();
            Ship& sh = s.ship[i];
            sh = Ship{};
            sh.side = sh.origin = static_cast<std::int8_t>(side_of(1));
            const hex::Hex pos = hex_at(2);
            const int facing = index_of(in.word(4), kHeadings, 6);
            if (facing < 0)
                in.fail("heading '" + std::string(in.word(4)) + "' is not one of " +
                        list_of(kHeadings, 6) + " (N5)");
            sh.movement = static_cast<int>(in.integer(5, -99, 99, "Movement", "N2"));
            sh.cannon = static_cast<int>(in.integer(6, o.rules.sinking_cannon + 1, 99, "Cannon",
                                                    o.rules.sinking_cannon == kSinkingCannon
                                                        ? "N6: at -2 a ship sinks"
                                                        : "N6: at sinking.cannon a ship sinks"));
            sh.crew = static_cast<int>(in.integer(7, -99, 99, "Crew", "N2"));
            if (in.size() == 9) {
                if (in.word(8) != "flagship") in.fail(cat("'", in.word(8), "' is not 'flagship'"));
                sh.flagship = true;
            }
            const std::size_t c = static_cast<std::size_t>(s.cell(pos));
            if (s.at[c])
                in.fail("two ships in one hex: line " +
                        std::to_string(ship_line[static_cast<std::size_t>(s.at[c] - 1)]) +
                        " holds this one (N1)");
            place(s, i, pos, facing);
        } else if (what == "hand") {
            if (in.size() < 2) in.expect_words(2, "hand SIDE CARD...");
            const int side = side_of(1);
            if (hand_line[side]) in.fail("a second hand for side " + std::string(kSideNames[side]));
            hand_line[side] = in.line();
            card_list(2, &s.hand[side], &s.hand_n[side], o.rules.hand_max, "N4: the hand limit");
        } else if (what == "discards") {
            in.once(discards_line, "discards");
            card_list(1, nullptr, &s.discards_n, s.deck_total, "N4");
            int k = 0;  // the cards again, in order
            for (std::size_t w = 1; w < in.size(); ++w)
                s.discards[static_cast<std::size_t>(k++)] =
                    static_cast<std::uint8_t>(index_of(in.word(w), kCardIds, kCardKinds));
        } else {
            in.fail(
                cat("'", what, "' is not a record: turn, islands, land, ship, hand or discards"));
        }
    }
    if (!turn_line) in.fail("no 'turn N' line");
    // The rules broken by lines together.
    for (int i = 0; i < s.n_ships; ++i)
        if (s.is_land(s.ship[i].pos))
            in.fail_at(ship_line[static_cast<std::size_t>(i)], "a ship on land (N1)");
    std::array<int, kSides> fleet{};
    for (int i = 0; i < s.n_ships; ++i) ++fleet[s.ship[i].side];
    // The fleets' rating totals may differ by no more than the fleet roll can make them (what
    // movement_edge, cannon_edge and crew_edge report: N2); before the roll, not at all.
    const int edge = s.turn == 0 ? 0 : o.rules.fleet_bonus * (5 * o.ships + 3);
    constexpr const char* kRatings[3] = {"Movement", "Cannon", "Crew"};
    for (int attr = 0; attr < 3; ++attr) {
        int diff = 0;
        for (int i = 0; i < s.n_ships; ++i) {
            const Ship& sh = s.ship[i];
            const int v = attr == kMovement ? sh.movement : attr == kCannon ? sh.cannon : sh.crew;
            diff += sh.side == 0 ? v : -v;
        }
        if (diff > edge || diff < -edge)
            in.fail_at(turn_line,
                       cat("the fleets' ", kRatings[attr], " totals differ by ",
                           std::to_string(diff < 0 ? -diff : diff),
                           s.turn == 0 ? ": before the fleet roll they must be equal (N2)"
                                       : cat(": at most ", std::to_string(edge),
                                             ", as much as the fleet roll can make them (N2)")));
    }
    if (s.turn == 0) {
        for (int side = 0; side < kSides; ++side) {
            if (fleet[side] != o.ships)
                in.fail_at(turn_line, "turn 0: side " + std::string(kSideNames[side]) + " has " +
                                          std::to_string(fleet[side]) +
                                          " ships; the fleet roll is for ships=" +
                                          std::to_string(o.ships) + " a side (N2)");
        }
        for (int i = 0; i < s.n_ships; ++i) {
            if (s.ship[i].side != (i < o.ships ? 0 : 1))
                in.fail_at(ship_line[static_cast<std::size_t>(i)],
                           "turn 0: side a's ships are listed first, then side b's (N2a)");
            if (s.ship[i].flagship)
                in.fail_at(ship_line[static_cast<std::size_t>(i)],
                           "turn 0: the flagship is named after the fleet roll (N2)");
        }
        if (hand_line[0] || hand_line[1] || discards_line)
            in.fail_at(hand_line[0]   ? hand_line[0]
                       : hand_line[1] ? hand_line[1]
                                      : discards_line,
                       "turn 0: no card is dealt before the first draw (N4)");
        // N1a: the islands still to fall must find open sea between the edge rows.
        int open = 0;
        for (int row = 1; row + 1 < s.rows; ++row)
            for (int col = 0; col < s.cols; ++col) {
                const auto c = static_cast<std::size_t>(s.cell(col, row));
                open += !s.land[c] && !s.at[c];
            }
        if (p.islands > open)
            in.fail_at(islands_line, "islands " + std::to_string(p.islands) + " do not fit the " +
                                         std::to_string(open) +
                                         " open hexes between the edge rows (N1a)");
    } else {
        if (islands_line)
            in.fail_at(islands_line, "islands fall before turn 1 only (N1a): list them as land");
        for (int side = 0; side < kSides; ++side)
            if (fleet[side] == 0)
                in.fail_at(turn_line, "side " + std::string(kSideNames[side]) +
                                          " has no ship: the game is over (N8)");
    }
    return p;
}

}  // namespace odds::naval
