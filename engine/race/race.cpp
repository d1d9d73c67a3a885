#include "engine/race/race.hpp"

#include "engine/line_reader.hpp"

namespace odds::race {

namespace {
// R5: the moves, a bit each (Options::barred); barring both leaves a turn no move.
constexpr std::string_view kMoves = "walk,roll";
std::string read_barred(Options& o, std::string_view text) {
    const auto bits = read_word_set(text, kMoves);
    if (!bits || *bits == 3) return "none, walk or roll (never both: a turn needs a move, R5)";
    o.barred = static_cast<std::uint8_t>(*bits);
    return "";
}
std::string write_barred(const Options& o) { return write_word_set(o.barred, kMoves); }

}  // namespace

const OptionTable<Options>& option_table() {
    static const OptionTable<Options> table(
        "race",
        {
            {"goal", integer(field<&Options::goal>, 2, kMaxGoal), "R1",
             "the square to reach, {range}", Naming::always},
            {"max_turns", integer(field<&Options::max_turns>, 1, kMaxTurns), "R1",
             "turns before the race is lost, {range}", Naming::always},
            {"restrict",
             Text<Options>{.read = read_barred,
                           .write = write_barred,
                           .takes = "none, walk or roll (never both)",
                           .comma_list = true,
                           .words = kMoves},
             "R5", "restricted play: the move the player may never make (every policy honours it)"},
        });
    return table;
}

Options parse_options(const Settings& settings) { return option_table().parse(settings); }

std::string scenario(const Options& o) { return option_table().scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    MetricSpecs<Options> m{o, {}};
    declare_metrics(m);
    return std::move(m.specs);
}

State opening(const Options&) { return {}; }

std::string write_position(const State& s, const Options&) {
    return "# race position (engine/race/RULES.md, Positions): the state before a turn\n"
           "square " +
           std::to_string(s.square) + "   # the runner's square (R1)\nturn " +
           std::to_string(s.turn) + "     # turns played so far (R1)\n";
}

State read_position(std::string_view text, std::string_view file, const Options& o) {
    LineReader r(text, file);
    State s;
    int square_line = 0, turn_line = 0;
    while (r.next()) {
        const std::string_view what = r.word(0);
        int* seen = what == "square" ? &square_line : what == "turn" ? &turn_line : nullptr;
        if (!seen)
            r.fail("unknown line '" + std::string(what) +
                   "' (a race position has square and turn)");
        r.once(*seen, what);
        if (what == "square") {
            r.expect_words(2, "square N");
            s.square =
                static_cast<int>(r.integer(1, 0, o.goal - 1, "square", "R1, R3: the goal is won"));
        } else {
            r.expect_words(2, "turn N");
            s.turn = static_cast<int>(
                r.integer(1, 0, o.max_turns - 1, "turn", "R1: max_turns ends the race"));
        }
    }
    if (!square_line) r.fail("no 'square' line (square N)");
    if (!turn_line) r.fail("no 'turn' line (turn N)");
    return s;
}

SurvivalSpec survival_spec() {
    return SurvivalSpec{kTurns, kWin, 0, "turns", "", "the race is lost"};
}

}  // namespace odds::race
