// Variant files (docs/variants.md): a game's rule options as a TOML file a designer edits.
// `odds rules GAME` writes one (every option with its value, ruling and help, as comments); every
// command that takes --set takes --rules FILE, the file's options first and --set on top. The
// file is read with toml++ (Debian's libtomlplusplus-dev); a key that names no option, a
// duplicate, a value of the wrong type or a bad value is one line, "FILE:LINE: WHAT", exit 2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/rule_options.hpp"
#include "sim/registry.hpp"

namespace odds::sim {

// One setting a variant file made, and where.
struct RulesSetting {
    std::string name, value;
    int line = 0;
};

// A variant file's bounds: `odds rules` writes about 30 KiB for the largest game.
inline constexpr std::uint64_t kMaxRulesFile = 1u << 20;
inline constexpr std::uint64_t kMaxRulesLine = 64u << 10;

// Reads the variant file at `path` for `game`. A key that is not one of the game's options (or a
// table that groups none) is a UsageError "FILE:LINE: ..." unless `skipped` is given (odds check
// across several games): then it is skipped and listed there (its value empty). A key nested
// deeper than any option's name, a table named like an option, a key given twice (as a dotted
// key and in its table) are always UsageErrors.
std::vector<RulesSetting> read_rules_file(const std::string& path, const GameEntry& game,
                                          std::vector<RulesSetting>* skipped = nullptr);

// The settings a command plays: the variant file's (if any), then --set's, each name once (a
// --set overrides the file's value). A file's value that is the rule book's (the option's
// default, as `odds rules` writes it) is left out, as if the file did not name it: the file
// describes a variant by its differences, so the book's file plays exactly as no file at all
// (Minimal Space Combat's width, say, would otherwise count as given and ask for a random map).
// Remembers where each of the file's settings came from, so that a bad value is reported at its
// line (with_rules_origin).
Settings merged_settings(const std::vector<RulesSetting>& file, const std::string& path,
                         const GameEntry& game, const Settings& set);

// `message` prefixed with "FILE:LINE: " when it is about a value a variant file gave (and no
// --set replaced); else `message` as it is. Forgets the origins (one command at a time).
std::string with_rules_origin(const std::string& message);
void forget_rules_origins();

// The game's rule options, with the values `settings` give them (the rule book's otherwise), as
// a commented TOML variant file: `odds rules GAME`.
std::string rules_file_text(const GameEntry& game, const Settings& settings);

}  // namespace odds::sim
