// --vary NAME=VALUES, the one grammar of odds sweep and odds tune (docs/commands.md): the rule
// options a command plays over and their values.
//
//   NAME=LO..HI[:STEP]   whole numbers (alias LO:HI:STEP, sweep's older spelling): an ordered range
//   NAME=a{LO..HI}b      a whole-number part of a value: a1b, a2b, ... ('{2..6}d6', '{3..6}-6')
//   NAME='v1|v2|...'     values of any option
//   NAME=v1,v2,...       values of an option whose value is not itself a comma list
//   NAME=VALUE           one value of an option whose value is a comma list (layout=4,9,15), one
//                        --vary each
//
// An option named again adds its values (a value given twice is refused); the command sets how
// many values an option needs and takes, and says its own words for it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/registry.hpp"

namespace odds::cli {

// One option varied: its values in the order given, and whether they are a range (in order).
struct Varied {
    std::string name;
    std::vector<std::string> values;
    bool ordered = false;
};

// What a command asks of its --vary options, and how its messages say it.
struct VaryRules {
    std::string_view command;  // "sweep", "tune": "(sweep takes ...)"
    std::string_view verb;     // "swept", "searched": "hull=5 is swept twice"
    std::string_view forms;    // what the command takes, for a message's end
    std::size_t max_values;    // a range's at most (and an option's, for sweep)
    bool ranges_rise;          // a range needs LO < HI (tune), else LO <= HI (sweep)
    // Values an option needs: every option two (tune), or only a comma-list option (sweep: a
    // single --vary layout=4,9 could mean the layout 4,9 or the layouts 4 and 9).
    bool two_values_each;
};

inline constexpr VaryRules kSweepVary{
    "sweep",
    "swept",
    "NAME=LO..HI or LO..HI:STEP (alias LO:HI:STEP), whole numbers, STEP > 0, or NAME=v1,v2,...",
    10000,
    false,
    false};
inline constexpr VaryRules kTuneVary{
    "tune",
    "searched",
    "NAME=LO..HI or LO..HI:STEP (alias LO:HI:STEP), whole numbers, STEP > 0, LO < HI; or a "
    "whole-number part of a value in braces, NAME={1..6}d6; or values NAME=v1,v2,... or "
    "NAME='v1|v2|...'",
    4096,
    true,
    true};

// The --vary arguments, one Varied per option in the order first named. Throws UsageError.
std::vector<Varied> parse_varies(const std::vector<std::string>& specs, const GameEntry& game,
                                 const VaryRules& rules);

}  // namespace odds::cli
