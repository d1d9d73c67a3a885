// Minimal Space Combat positions (RULES.md, "Positions"): a campaign at the start of a turn,
// written as text and read back.
#include <charconv>
#include <string>

#include "engine/dice.hpp"
#include "engine/line_reader.hpp"
#include "engine/msc/msc.hpp"

namespace odds::msc {

namespace {

constexpr std::string_view kSideNames[kSides] = {"a", "b"};

// Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "x" + std::string(...).
template <class... T>
std::string cat(const T&... parts) {
    std::string s;
    (s.append(std::string_view(parts)), ...);
    return s;
}

std::string hex_text(const hex::Hex& h) {
    return std::to_string(hex::offset_col(h)) + "," + std::to_string(hex::offset_row(h));
}

int read_side(const LineReader& r, std::size_t i) {
    const std::string_view w = r.word(i);
    if (w == "a") return 0;
    if (w == "b") return 1;
    r.fail(cat("side '", w, "' is not a or b"));
}

// "COL,ROW" (the map file's columns and rows, from 0), a hex of the map (M1).
hex::Hex read_hex(const LineReader& r, std::size_t i, const State& s) {
    const std::string_view w = r.word(i);
    const auto comma = w.find(',');
    int col = -1, row = -1;
    bool ok = comma != std::string_view::npos;
    if (ok) {
        const auto a = std::from_chars(w.data(), w.data() + comma, col);
        const auto b = std::from_chars(w.data() + comma + 1, w.data() + w.size(), row);
        ok = a.ec == std::errc() && a.ptr == w.data() + comma && b.ec == std::errc() &&
             b.ptr == w.data() + w.size();
    }
    if (!ok) r.fail(cat("hex '", w, "' is not COL,ROW (a column and a row, from 0)"));
    const hex::Hex h = hex::from_offset(col, row);
    if (!s.bounds.contains(h))
        r.fail("hex '" + std::string(w) + "' is off the map (columns 0.." +
               std::to_string(s.bounds.width - 1) + ", rows 0.." +
               std::to_string(s.bounds.height - 1) + ") (M1)");
    return h;
}

}  // namespace

std::string write_position(const State& s, const Options&) {
    std::string out =
        "# Minimal Space Combat position: the start of a turn (engine/msc/RULES.md, Positions)\n"
        "turn " +
        std::to_string(s.turn) + "  # turns played; 0: the starting budget not yet spent\n";
    for (int side = 0; side < kSides; ++side)
        out += "bp " + std::string(kSideNames[side]) + " " + std::to_string(s.bp[side]) + "\n";
    for (int side = 0; side < kSides; ++side)
        if (s.built_by[side][0] != 0 || s.built_by[side][1] != 0)
            out += "built " + std::string(kSideNames[side]) + " " +
                   std::to_string(s.built_by[side][0]) + " " + std::to_string(s.built_by[side][1]) +
                   "\n";
    for (int side = 0; side < kSides; ++side)
        for (const Fleet& f : s.fleets[side]) {
            if (f.ships() == 0) continue;
            out += "fleet " + std::string(kSideNames[side]) + " " + hex_text(f.pos);
            for (int d = 0; d < kMaxDesigns; ++d)
                if (f.n[d] > 0)
                    out += cat(" ", to_string(s.design(side, d)), "x", std::to_string(f.n[d]));
            out += "\n";
        }
    for (int i = 0; i < s.n_sys; ++i) {
        const System& y = s.sys[i];
        if (y.home_of >= 0 || (y.owner < 0 && y.occupant < 0)) continue;
        out += "system " + hex_text(y.pos);
        if (y.owner >= 0) {
            out += " owner " + std::string(kSideNames[y.owner]);
            if (y.captured > -100) out += " captured " + std::to_string(y.captured);
        }
        if (y.occupant >= 0)
            out += " held " + std::string(kSideNames[y.occupant]) + " " + std::to_string(y.streak);
        out += "\n";
    }
    return out;
}

State opening(const Options& o) {
    if (o.random_map)
        throw UsageError(
            "msc positions need a fixed map (map=example or a map file): map=random draws a new "
            "map for every campaign (M1)");
    ScriptedDice none{};
    return detail::unsettled_opening(o, {}, none);
}

State read_position(std::string_view text, std::string_view file, const Options& o,
                    const std::array<Plan, kSides>& plans) {
    LineReader r(text, file);
    if (o.random_map)
        r.fail(
            "a position needs a fixed map (map=example or a map file): map=random draws a new "
            "map for every campaign (M1)");
    ScriptedDice none{};
    State s = detail::unsettled_opening(o, plans, none);
    s.bp = {0, 0};
    std::array<bool, kSides> built_given{};
    std::array<int, kSides> fleets{};
    std::array<int, kMaxSystems> system_line{};
    int turn_line = 0;
    std::array<int, kSides> bp_line{}, built_line{};  // each record once, as other games read them
    while (r.next()) {
        const std::string_view what = r.word(0);
        if (what == "turn") {
            r.expect_words(2, "turn N");
            r.once(turn_line, "turn");
            s.turn = static_cast<int>(r.integer(1, 0, o.max_turns - 1, "turn", "M8"));
        } else if (what == "bp") {
            r.expect_words(3, "bp SIDE N");
            const int side = read_side(r, 1);
            r.once(bp_line[side], "bp " + std::string(kSideNames[side]));
            s.bp[side] = static_cast<int>(r.integer(2, 0, 10'000'000, "bp", "M4"));
        } else if (what == "built") {
            r.expect_words(4, "built SIDE MAIN ESCORTS");
            const int side = read_side(r, 1);
            r.once(built_line[side], "built " + std::string(kSideNames[side]));
            built_given[side] = true;
            for (int d = 0; d < 2; ++d)
                s.built_by[side][d] = static_cast<int>(
                    r.integer(2 + static_cast<std::size_t>(d), 0, 10'000'000, "built", "M2a"));
        } else if (what == "fleet") {
            if (r.size() < 4) r.fail("expected fleet SIDE COL,ROW DESIGNxN...");
            const int side = read_side(r, 1);
            if (fleets[side] == kMaxFleets)
                r.fail("a 17th fleet of side " + std::string(kSideNames[side]) +
                       ": at most 16 a side (M5a)");
            Fleet f{read_hex(r, 2, s), {}, 0};
            for (std::size_t i = 3; i < r.size(); ++i) {
                const std::string_view w = r.word(i);
                const auto x = w.find('x');
                const auto d = parse_design(w.substr(0, x), s.ship_rules);
                if (x == std::string_view::npos || !d)
                    r.fail("ships '" + std::string(w) +
                           "' are not DESIGNxN, a legal design (E<engine>S<shields>T<to-hit>"
                           "W<weapons>, each 0..5, 10, 15 or 20 BP, or as the ships.* options "
                           "say) and a count (M2)");
                int n = 0;
                const auto c = std::from_chars(w.data() + x + 1, w.data() + w.size(), n);
                if (c.ec != std::errc() || c.ptr != w.data() + w.size() || n < 1 || n > 100'000)
                    r.fail("ships '" + std::string(w) +
                           "': the count is not a whole number in "
                           "1..100000 (M2)");
                const int slot = s.design_slot(side, *d);
                if (slot < 0)
                    r.fail("design " + std::string(w.substr(0, x)) + ": side " +
                           std::string(kSideNames[side]) +
                           " already has four designs, its plan's two and two more (M2b)");
                s.plan[side].design[slot] = *d;
                f.n[slot] += n;
            }
            s.fleets[side][fleets[side]++] = f;
        } else if (what == "system") {
            if (r.size() < 2)
                r.fail("expected system COL,ROW [owner SIDE [captured T]] [held SIDE N]");
            const hex::Hex h = read_hex(r, 1, s);
            const int i = s.system_at(h);
            if (i < 0) r.fail("no system at " + std::string(r.word(1)) + " (M1)");
            System& y = s.sys[i];
            if (y.home_of >= 0)
                r.fail("system " + std::string(r.word(1)) +
                       " is a home: it is always its side's (M6)");
            if (system_line[i]) r.fail("system " + std::string(r.word(1)) + " given twice");
            system_line[i] = r.line();
            for (std::size_t k = 2; k < r.size();) {
                const std::string_view key = r.word(k);
                if (key == "owner") {
                    y.owner = static_cast<std::int8_t>(read_side(r, k + 1));
                    k += 2;
                } else if (key == "captured") {
                    y.captured = static_cast<int>(r.integer(k + 1, 0, 1000, "captured", "M6"));
                    k += 2;
                } else if (key == "held") {
                    y.occupant = static_cast<std::int8_t>(read_side(r, k + 1));
                    y.streak = static_cast<std::uint8_t>(r.integer(k + 2, 1, 255, "held", "M6"));
                    k += 3;
                } else {
                    r.fail(cat("'", key, "' is not owner, captured or held"));
                }
            }
        } else {
            r.fail(cat("'", what, "' is not turn, bp, built, fleet or system"));
        }
    }
    // An empty file, or comments alone, is no position (as for naval and fpb).
    if (!turn_line) r.fail("no 'turn N' line");
    s.recount();  // ships afloat and the slots holding them, for the checks below
    // What only the lines together can break.
    for (int side = 0; side < kSides; ++side) {
        if (!built_given[side])  // M2a: the plan's ships built so far, else those afloat
            for (int d = 0; d < 2; ++d)
                for (const Fleet& f : s.fleets[side]) s.built_by[side][d] += f.n[d];
        for (int d = 2; d < kMaxDesigns; ++d)
            for (const Fleet& f : s.fleets[side]) s.built_by[side][d] += f.n[d];
        for (int d = 0; d < kMaxDesigns; ++d) s.built[side] += s.built_by[side][d];
    }
    for (int i = 0; i < s.n_sys; ++i) {
        System& y = s.sys[i];
        if (!system_line[i]) continue;
        if (y.captured > s.turn)
            r.fail_at(system_line[i], "captured on turn " + std::to_string(y.captured) +
                                          ", after the position's turn " + std::to_string(s.turn) +
                                          " (M6)");
        if (y.owner < 0 && y.captured > -100)
            r.fail_at(system_line[i], "captured, but no owner (M6)");
        if (y.occupant >= 0 &&
            (!s.occupied_by(y.pos, y.occupant) || s.occupied_by(y.pos, 1 - y.occupant)))
            r.fail_at(system_line[i], "held by side " + std::string(kSideNames[y.occupant]) +
                                          ", which needs its fleet there alone (M6)");
        if (y.occupant >= 0 && y.streak >= o.capture_turns && y.owner != y.occupant)
            r.fail_at(system_line[i], "held by side " + std::string(kSideNames[y.occupant]) + " " +
                                          std::to_string(y.streak) +
                                          " turns in a row, so captured: owner " +
                                          std::string(kSideNames[y.occupant]) + " (M6)");
    }
    if (s.turn > 0)
        for (int side = 0; side < kSides; ++side) {
            if (s.ships(side) == 0)
                r.fail_at(turn_line, "side " + std::string(kSideNames[side]) +
                                         " has no ships after turn 0: the campaign is over (M8)");
            const hex::Hex& enemy = s.home[1 - side];
            if (s.occupied_by(enemy, side) && !s.occupied_by(enemy, 1 - side))
                r.fail_at(turn_line, "side " + std::string(kSideNames[side]) +
                                         " holds the enemy home alone: the campaign is over (M8)");
        }
    // Play goes on from the start of turn turn + 1 (or, at turn 0, from the starting builds).
    s.cap_hits = {};
    if (s.turn > 0)
        s.stage = Stage::production;
    else
        detail::enter_build(s, 0);
    return s;
}

}  // namespace odds::msc
