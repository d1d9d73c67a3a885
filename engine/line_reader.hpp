// The one reader of every line-oriented file odds defines (docs/output.md, "Files odds reads"):
// positions (each game's read_position), baselines and targets (sim/baseline_file.hpp), shards
// (sim/shard_file.hpp) and Mars Space Corps maps (engine/msc/map.cpp). Every such file has one
// shape: one record a line, its words separated by blanks, the first word saying what the line
// describes; blank lines are skipped; a comment is as the format says (Comments). LineReader walks
// those lines and turns every mistake into one UsageError "FILE:LINE: WHAT", WHAT naming the bad
// word and the rule it breaks, so the CLI prints one line and exits with code 2.
//
// Also here, as every reader needs them: read_input_file (a file read whole, but bounded) and
// split_words (the one whitespace word splitter of the project).
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

// The words of `text`: its runs of characters other than blanks (space, tab, CR, LF, VT, FF:
// what std::isspace calls space in the C locale), in order.
std::vector<std::string> split_words(std::string_view text);

class LineReader {
public:
    enum class Comments {
        anywhere,    // '#' to the end of a line is a comment (positions)
        first_word,  // a line whose first word starts with '#' is a comment (baselines, maps)
        none,        // '#' and a final CR are text like any other (shards: values verbatim)
    };

    // `file` names the source in messages (the path as the user typed it).
    LineReader(std::string_view text, std::string_view file,
               Comments comments = Comments::anywhere);

    // Moves to the next line with words on it; false at the end of the text.
    bool next();
    // The current line's number (1-based), its text (comment, line break and a final CR removed;
    // under Comments::none only the line break: the text is verbatim) and its words.
    int line() const noexcept { return line_; }
    std::string_view text() const noexcept { return text_of_line_; }
    const std::vector<std::string_view>& words() const noexcept { return words_; }
    std::size_t size() const noexcept { return words_.size(); }
    std::string_view word(std::size_t i) const;  // fails naming the missing word when absent
    // The line from its word i on, as written (blanks inside kept); "" when it has no word i.
    std::string_view rest(std::size_t i) const;
    // What follows the first word and the one blank after it, as written: the VALUE of a
    // "KEY VALUE" record whose value is verbatim text (a shard's).
    std::string_view value() const;

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
    // The same error without a reader: for a value checked after the file was read.
    static UsageError error_at(std::string_view file, int line, std::string_view what);
    const std::string& file() const noexcept { return file_; }

    // The words of `text` as views into it (split_words' splitting).
    static std::vector<std::string_view> words_of(std::string_view text);

private:
    static void words_into(std::string_view text, std::vector<std::string_view>& out);

    std::string_view all_;
    std::string file_;
    Comments comments_;
    std::size_t pos_ = 0;
    int line_ = 0;
    bool done_ = false;
    std::string_view text_of_line_;
    std::vector<std::string_view> words_;
};

}  // namespace odds
