// Rule options: `--set NAME=VALUE` pairs, checked against a game's declared options before any
// playout. Every failure is a UsageError whose message names the bad value and what is valid.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace odds {

// Bad input from the user: the CLI prints the message on one line and exits with code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct OptionInfo {
    std::string_view name;
    std::string_view default_value;
    std::string_view help;
    // The value is itself a comma list (Bosconian-D's layout=4,9,15): `odds sweep` then takes one
    // value per --vary, since a comma cannot also separate the values swept.
    bool comma_list = false;
};

// NAME=VALUE pairs in the order given on the command line.
using Settings = std::vector<std::pair<std::string, std::string>>;

// Splits "NAME=VALUE"; throws UsageError when there is no '=' or no name.
std::pair<std::string, std::string> split_setting(std::string_view text);

// Reads rule options one by one; every name must be declared, and given at most once.
class OptionReader {
public:
    OptionReader(std::string_view game, std::span<const OptionInfo> declared,
                 const Settings& settings);

    // The raw text given for `name`, if any.
    std::optional<std::string> text(std::string_view name) const;

    std::int64_t integer(std::string_view name, std::int64_t fallback, std::int64_t lo,
                         std::int64_t hi) const;
    bool boolean(std::string_view name, bool fallback) const;

    // A UsageError that names the game and the option.
    [[noreturn]] void fail(std::string_view name, std::string_view value,
                           std::string_view what_is_valid) const;

private:
    std::string game_;
    const Settings& settings_;
};

// " (did you mean 'X'?)" for the candidate nearest `bad` by edit distance (with transpositions),
// when it is near enough to be a slip: at most 2 edits, and fewer than half its letters; else "".
std::string did_you_mean(std::string_view bad, const std::vector<std::string>& candidates);

// A whole number in [lo, hi], or nullopt when `text` is not one.
std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t lo,
                                          std::int64_t hi);

}  // namespace odds
