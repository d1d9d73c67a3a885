// Positions: a game's state written as text (odds state GAME prints one, odds run GAME --state
// FILE starts from one; docs/positions.md). Every game's format shares this shape: one record a
// line, words separated by blanks, '#' to the end of a line a comment, blank lines ignored; the
// first word of a line says what the line describes. PositionReader walks those lines and turns
// every mistake into one UsageError "FILE:LINE: WHAT", WHAT naming the bad word and the rule it
// breaks, so the CLI prints one line and exits with code 2.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rule_options.hpp"

namespace odds {

// Input files (issue 30): every file odds reads is read whole, but bounded. The path must name a
// regular file: a folder, a device (/dev/zero), a FIFO or a socket is refused, since none of them
// is a file a person or odds wrote; the file may hold at most `max_bytes`, and no line longer than
// `max_line`. Anything else is one UsageError "WHAT 'PATH' ...: WHY", WHAT as the caller names
// the file ("--state", "map file", "baseline", "shard"), so the CLI prints one line, exit 2.
// The limits are in docs/commands.md ("Limits").
inline constexpr std::uint64_t kMaxHandFile = 16u << 20;   // positions, maps, baselines, targets
inline constexpr std::uint64_t kMaxDataFile = 512u << 20;  // shards, a report's CSV files
inline constexpr std::uint64_t kMaxLine = 1u << 20;        // any line of a hand-written file
inline constexpr std::uint64_t kMaxDataLine = 64u << 20;   // a shard's or CSV's line
std::string read_input_file(const std::string& path, std::string_view what,
                            std::uint64_t max_bytes = kMaxHandFile,
                            std::uint64_t max_line = kMaxLine);
// "12.0 MiB", "640 KiB", "17 bytes": a size as the messages and docs give it.
std::string byte_size(std::uint64_t bytes);

class PositionReader {
public:
    // `file` names the source in messages (the path as the user typed it).
    PositionReader(std::string_view text, std::string_view file);

    // Moves to the next line with words on it; false at the end of the text.
    bool next();
    // The current line's number (1-based) and its words (comments removed).
    int line() const noexcept { return line_; }
    const std::vector<std::string_view>& words() const noexcept { return words_; }
    std::size_t size() const noexcept { return words_.size(); }
    std::string_view word(std::size_t i) const;  // fails naming the missing word when absent

    // Word i as a whole number in lo..hi; fails "WHAT 'VALUE' is not a whole number in LO..HI
    // (RULE)" otherwise. `rule` may be empty.
    std::int64_t integer(std::size_t i, std::int64_t lo, std::int64_t hi, std::string_view what,
                         std::string_view rule = {}) const;
    // Fails unless the line has exactly n words ("expected N words: USAGE").
    void expect_words(std::size_t n, std::string_view usage) const;
    // A record allowed once: fails "a second 'RECORD' line (the first is line N)" when `first`
    // (0: not seen yet) holds an earlier line, else records the current line in it.
    void once(int& first, std::string_view record) const;

    // Throws UsageError "FILE:LINE: WHAT" for the current line (or "FILE: WHAT" before the first
    // line and after the last).
    [[noreturn]] void fail(std::string_view what) const;
    // The same for a line other than the current one (a rule broken by two lines together).
    [[noreturn]] void fail_at(int line, std::string_view what) const;

private:
    std::string_view text_;
    std::string file_;
    std::size_t pos_ = 0;
    int line_ = 0;
    bool done_ = false;
    std::vector<std::string_view> words_;
};

}  // namespace odds
