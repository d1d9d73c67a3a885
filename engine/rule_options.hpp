// Rule options: `--set NAME=VALUE` pairs, checked against a game's declared options before any
// playout. Every failure is a UsageError whose message names the bad value and what is valid.
//
// A game declares its options once, as rows of Option<Options> in the order `odds list` shows
// them (engine/GAME/GAME.cpp, held by an OptionTable). Each row names the option, its type (a
// whole number in lo..hi, a boolean, one of listed words, or text read by the game's own
// function), the field of the game's Options it sets, its help and its ruling. From the rows
// come the reading and its messages (OptionTable::read), the scenario string
// (OptionTable::scenario), and what `odds list`, the man page and each rules page's options table
// show (OptionTable::describe, options_table_markdown). A default is the value of the field in
// the game's Options{}: the row names the field, the struct holds the value. Every option is one
// of the rule book's numbers unless its row says it is one of the scenario's own knobs (Naming),
// so that the same table answers "is this the rule book?" for the kernels' fast paths
// (OptionTable::is_book). A family of options (one per card, per area, per threat) is declared
// as a loop over a small table of its members, whose fields are elements<...> of an array.
//
// Rules between options that no bound states (Minimal Space Combat's width only with map=random,
// Bosconian-D's B2b and B3a) stay explicit code in the game's parse_options, after the declared
// reading.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "engine/rule_values.hpp"

namespace odds {

// Bad input from the user: the CLI prints the message on one line and exits with code 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// integer .. text: the project's first knobs; dice, faces, steps: the rule book's numbers and
// tables as a designer writes them (engine/rule_values.hpp, docs/variants.md).
enum class OptionKind { integer, boolean, choice, text, dice, faces, steps };

// One option as the CLI shows it (`odds list`, the man page, completions, `odds sweep`): made
// from its declaration by OptionTable::describe.
struct OptionInfo {
    std::string name;
    std::string default_value;  // the value in the game's Options{}, as the user would type it
    std::string help;           // the declared help with its range and ruling filled in
    // The value is itself a comma list (Bosconian-D's layout=4,9,15): `odds sweep` then takes one
    // value per --vary, since a comma cannot also separate the values swept.
    bool comma_list = false;
    OptionKind kind = OptionKind::text;
    std::string values;  // what is valid: "1..64", "2d6 or 1..sectors", "shared or separate"
    std::string ruling;  // the ruling it implements: "B1", "B3, B6"
    // A whole number's bounds with every other option at its default (start_damage: 0..99).
    std::int64_t min = 0, max = 0;
    // A choice's words; a whole number's word for 0 (bases=2d6), if it has one.
    std::vector<std::string> words;
};

// A UsageError's message made safe to print as one short line on a terminal: every control
// character (a newline, a terminal escape, a tab) written as an escape (\n, \x1b, \t), and each
// value quoted in it ('...') longer than kMaxQuoted characters cut to its start and "...". The CLI
// prints every error through it (sim/cli/cli.cpp), so no value the user gives can break the line.
inline constexpr std::size_t kMaxQuoted = 80;
std::string printable_message(std::string_view message);

// NAME=VALUE pairs in the order given on the command line.
using Settings = std::vector<std::pair<std::string, std::string>>;

// Splits "NAME=VALUE"; throws UsageError when there is no '=' or no name.
std::pair<std::string, std::string> split_setting(std::string_view text);

// The settings given for one game: every name must be declared, and given at most once (else a
// UsageError, with "did you mean" for a near miss).
class OptionReader {
public:
    OptionReader(std::string_view game, const std::vector<std::string_view>& declared,
                 const Settings& settings);

    // The raw text given for `name`, if any.
    std::optional<std::string> text(std::string_view name) const;

    // A UsageError that names the game and the option: "GAME: NAME='VALUE' is not valid; NAME
    // takes WHAT_IS_VALID".
    [[noreturn]] void fail(std::string_view name, std::string_view value,
                           std::string_view what_is_valid) const;

    const std::string& game() const noexcept { return game_; }

private:
    std::string game_;
    const Settings& settings_;
};

// " (did you mean 'X'?)" for the candidate nearest `bad` by edit distance (with transpositions),
// when it is near enough to be a slip: at most 2 edits, and fewer than half its letters; else "".
std::string did_you_mean(std::string_view bad, const std::vector<std::string>& candidates);

// A whole number in [lo, hi], or nullopt when `text` is not one.
std::optional<std::int64_t> parse_integer(std::string_view text, std::int64_t lo, std::int64_t hi);
// "1000000", "1e6", "1M", "2.5k" (suffixes k, M, G) -> the whole number, read exactly (never
// through a double); nullopt when not a whole number in 1..1e12. Playouts, counts of a file.
std::optional<std::uint64_t> parse_count(std::string_view text);

// "a", "a or b", "a, b or c".
std::string or_list(const std::vector<std::string>& words);
// Restricted play (a game's restrict options): `text` is "none" or a comma list of names from
// `words` (comma-separated); bit i of the result for words[i]. nullopt for an unknown or empty
// name. write_word_set gives the set back in the words' order ("none" when empty).
std::optional<std::uint32_t> read_word_set(std::string_view text, std::string_view words);
std::string write_word_set(std::uint32_t bits, std::string_view words);
// What a whole number option takes, as its message says it: "a whole number from 1 to 64", or
// "2d6 or a whole number from 1 to 36" when 0 is spelled as a word.
std::string whole_number_takes(std::string_view zero_word, std::int64_t lo, std::int64_t hi);

// A game's options as a Markdown table (option, default, values, meaning), as each rules page
// holds it between the markers below; tests/test_options.cpp checks every page against it.
std::string options_table_markdown(std::span<const OptionInfo> options);
inline constexpr std::string_view kOptionsTableBegin =
    "<!-- options table: generated from the game's declared options; scripts/update-options-tables "
    "rewrites it, and a test checks it -->";
inline constexpr std::string_view kOptionsTableEnd = "<!-- end of the options table -->";

// ---------------------------------------------------------------------------------------------
// Declaring options.

// A field of the game's options, read and written through plain functions so that a row is
// constant data: field<&Options::hull>; a path into a struct or an array, such as
// field<&Options::rules, &Rules::fleet_bonus> or field<&Options::start_area, 2>; and elements<P>,
// the fields of every element of the array at path P, for a family of options (engine/GAME/*.cpp:
// elements<&Options::deck>[card]). Small whole numbers held in narrower types (bytes, so that
// a state copies fast) are read and written as int.
template <class O, class T>
struct Field {
    T (*get)(const O&) = nullptr;
    void (*set)(O&, T) = nullptr;
};

namespace detail {
template <class M>
struct member;
template <class O, class T>
struct member<T O::*> {
    using object = O;
    using type = T;
};
// The object at `P, Rest...` inside x: a member (a member pointer) or an element (an index).
template <auto P, auto... Rest, class X>
constexpr auto& walk(X& x) {
    auto& next = [&]() -> auto& {
        if constexpr (std::is_member_object_pointer_v<decltype(P)>)
            return x.*P;
        else
            return x[static_cast<std::size_t>(P)];
    }
    ();
    if constexpr (sizeof...(Rest) == 0)
        return next;
    else
        return walk<Rest...>(next);
}
template <auto First, auto... Rest>
struct FieldAt {
    using O = typename member<decltype(First)>::object;
    using Held = std::remove_cvref_t<decltype(walk<First, Rest...>(std::declval<O&>()))>;
    using T = std::conditional_t<std::is_integral_v<Held> && !std::is_same_v<Held, bool> &&
                                     (sizeof(Held) < sizeof(int)),
                                 int, Held>;
    static T get(const O& o) { return static_cast<T>(walk<First, Rest...>(o)); }
    static void set(O& o, T v) { walk<First, Rest...>(o) = static_cast<Held>(v); }
};
}  // namespace detail

template <auto... Path>
inline constexpr Field<typename detail::FieldAt<Path...>::O, typename detail::FieldAt<Path...>::T>
    field{&detail::FieldAt<Path...>::get, &detail::FieldAt<Path...>::set};
template <auto... Path>
inline constexpr auto elements = []<std::size_t... i>(std::index_sequence<i...>) {
    return std::array{field<Path..., i>...};
}
(std::make_index_sequence<std::tuple_size_v<typename detail::FieldAt<Path...>::Held>>{});

// A member of a family of options (engine/GAME/GAME.cpp loops over a table of them): the key
// that ends its option's name, the words its help names it by, and its field.
template <class O, class T>
struct Member {
    std::string_view key, words;
    Field<O, T> field;
};

// Words joined into one string: a family's generated names and helps (concat("deck.", key)).
template <class... S>
std::string concat(const S&... parts) {
    std::string s;
    (s.append(std::string_view(parts)), ...);
    return s;
}

// A bound that is another whole number option's value plus an offset: Bosconian-D's start_damage
// runs to named("hull", -1). The option named is read first.
struct Named {
    std::string_view option;
    std::int64_t offset = 0;
};
constexpr Named named(std::string_view option, std::int64_t offset = 0) { return {option, offset}; }

// One end of a whole number's range: a number, another option's value (Named), or a function of
// the options read so far with the words the docs show for it (Naval Duel's islands: up to
// height*(width-2)/4; the options it reads are named in the row's `after`).
template <class O>
struct Bound {
    std::int64_t value = 0;  // the bound; for `option`, the offset added to its value
    std::string_view option = {};
    std::int64_t (*of)(const O&) = nullptr;
    std::string_view label = {};

    // Implicit, so that a row reads integer(field<&Options::sectors>, 1, kMaxSectors).
    constexpr Bound(std::int64_t v) : value(v) {}
    constexpr Bound(Named n) : value(n.offset), option(n.option) {}
    constexpr Bound(std::int64_t (*f)(const O&), std::string_view words) : of(f), label(words) {}
};

template <class O>
struct Integer {
    Field<O, int> field;
    Bound<O> lo, hi;
    std::string_view zero_word = {};  // 0, outside lo..hi, spelled as a word: bases=2d6
};
template <class O>
struct Boolean {
    Field<O, bool> field;
};
// One of listed words. The field holds the word's index plus `first` (Minimal Space Combat's
// initiative: roll, a, b are -1, 0, 1), or, for a boolean field, whether it is the second word.
template <class O>
struct Choice {
    std::string_view words;  // comma-separated
    Field<O, int> as_int = {};
    Field<O, bool> as_bool = {};
    int first = 0;
};
// Text the game reads with its own function, e.g. a layout, a ship design or a map file's path.
template <class O>
struct Text {
    // Reads `value` (never empty) into the options, the options named in the row's `after`
    // already read: returns "" when it is valid, else what is valid (the message's end). May
    // throw UsageError (a map file that cannot be read), which the message prefixes with the game.
    std::string (*read)(O&, std::string_view value) = nullptr;
    std::string (*write)(const O&) = nullptr;  // the value as the scenario shows it
    // What is valid, in general: the docs show it, and the message for an empty value.
    std::string_view takes = {};
    bool comma_list = false;
    // A set of words (restricted play's restrict options): the words, comma-separated, each a
    // value on its own (OptionInfo::words; odds restrict tries them one at a time).
    std::string_view words = {};
};

template <class O>
constexpr Integer<O> integer(Field<O, int> f, std::type_identity_t<Bound<O>> lo,
                             std::type_identity_t<Bound<O>> hi, std::string_view zero_word = {}) {
    return {f, lo, hi, zero_word};
}
template <class O>
constexpr Boolean<O> boolean(Field<O, bool> f) {
    return {f};
}
template <class O>
constexpr Choice<O> choice(Field<O, int> f, std::string_view words, int first = 0) {
    return {words, f, {}, first};
}
template <class O>
constexpr Choice<O> choice(Field<O, bool> f, std::string_view words) {
    return {words, {}, f, 0};
}

// Dice (engine/rule_values.hpp): any expression whose totals lie in lo..hi.
template <class O>
struct DiceOpt {
    Field<O, DiceExpr> field;
    int lo = 0, hi = 1000;
};
// The faces of a die of `sides` faces that count.
template <class O>
struct FacesOpt {
    Field<O, FaceSet> field;
    int sides = 6;
};
// A step table whose values lie in lo..hi.
template <class O>
struct StepsOpt {
    Field<O, StepTable> field;
    int lo = 0, hi = 1000;
};

template <class O>
constexpr DiceOpt<O> dice_option(Field<O, DiceExpr> f, int lo, int hi) {
    return {f, lo, hi};
}
template <class O>
constexpr FacesOpt<O> faces_option(Field<O, FaceSet> f, int sides = 6) {
    return {f, sides};
}
template <class O>
constexpr StepsOpt<O> steps_option(Field<O, StepTable> f, int lo, int hi) {
    return {f, lo, hi};
}

// How a scenario names an option (OptionTable::scenario). By default an option is one of the rule
// book's numbers (issue 29): named only where it differs from the book, Options{}, so that a
// default game's scenario stays as short as it always was; the rule book's fast paths ask the
// same question (OptionTable::is_book). Naming::always: one of the scenario's own knobs (a
// game's size, its turn cap), always named.
enum class Naming : bool { when_changed, always };

// One declared option: a row of the game's table. Most rows read {name, type, ruling, help}; the
// rest name what they add (.after = ...).
template <class O>
struct Option {
    std::string name;
    std::variant<Integer<O>, Boolean<O>, Choice<O>, Text<O>, DiceOpt<O>, FacesOpt<O>, StepsOpt<O>>
        type;
    std::string_view ruling;  // the ruling it implements: "B1", "B3, B6"
    // What it is, as `odds list` shows it. "{range}" stands where the values read ("1..64",
    // made from the bounds: never typed); " (RULING)" is added at the end, or stands where
    // "{ruling}" is.
    std::string help;
    Naming naming = Naming::when_changed;
    // Options read before this one, besides those its bounds name: those its reading or its
    // effective value depends on (comma-separated).
    std::string_view after = {};
    // Whether the scenario names it (null: always), and its value there (null: as read).
    bool (*in_scenario)(const O&) = nullptr;
    std::string (*scenario_value)(const O&) = nullptr;
};

// What the rows of a section of a table share (OptionTable::defaults): the scenario's own knobs,
// {.naming = Naming::always}; Minimal Space Combat's random map's size, named only for a random
// map, {.naming = Naming::always, .in_scenario = random_map}.
template <class O>
struct RowDefaults {
    Naming naming = Naming::when_changed;
    std::string_view after = {};
    bool (*in_scenario)(const O&) = nullptr;
};

// A set of words (restricted play's restrict options): none, or a comma list of kWords, held as
// bits (bit i for the i-th word) in the whole number field at Path; kTakes says what is valid.
template <const std::string_view& kWords, const std::string_view& kTakes, auto... Path>
constexpr Text<typename detail::FieldAt<Path...>::O> word_set() {
    using F = detail::FieldAt<Path...>;
    return {.read =
                [](typename F::O& o, std::string_view text) {
                    const auto bits = read_word_set(text, kWords);
                    if (!bits) return std::string(kTakes);
                    F::set(o, static_cast<typename F::T>(*bits));
                    return std::string();
                },
            .write =
                [](const typename F::O& o) {
                    return write_word_set(static_cast<std::uint32_t>(F::get(o)), kWords);
                },
            .takes = kTakes,
            .comma_list = true,
            .words = kWords};
}

namespace detail {
std::vector<std::string> split_words(std::string_view list);
std::string render_help(std::string_view help, std::string_view range, std::string_view ruling);
// Throws std::logic_error naming the game and the option: a declaration mistake.
[[noreturn]] void bad_declaration(std::string_view game, std::string_view option,
                                  const std::string& what);
bool types_a_range(std::string_view help);
}  // namespace detail

// The table `Make` builds, built the first time it is asked for: a game's option_table() is
// `return built_once<make_table>();`.
template <auto Make>
const auto& built_once() {
    static const auto table = Make();
    return table;
}

// A game's declared options, in the order `odds list` shows them. A game builds its table once
// (its option_table()): rows as written, and the rows of a family made by a loop over a small
// table of its members (Naval Duel's cards: a deck.* and a card.* option each).
template <class O>
class OptionTable {
public:
    // `game` as the registry names it (messages begin "GAME: "); `scenario_first` lists the
    // options the scenario string gives first, in its order, the others following in the table's.
    explicit OptionTable(std::string_view game, std::vector<Option<O>> options = {},
                         std::vector<std::string_view> scenario_first = {})
        : game_(game), options_(std::move(options)), scenario_first_(std::move(scenario_first)) {}

    // Rows added from here on share what `d` says, unless a row says otherwise: after
    // t.defaults({.naming = Naming::always}), the scenario's own knobs; after t.defaults({}), the
    // rule book's numbers (the default).
    void defaults(const RowDefaults<O>& d) { defaults_ = d; }
    void add(Option<O> row) {
        if (row.naming == Naming::when_changed) row.naming = defaults_.naming;
        if (row.after.empty()) row.after = defaults_.after;
        if (!row.in_scenario) row.in_scenario = defaults_.in_scenario;
        options_.push_back(std::move(row));
    }
    void add(std::initializer_list<Option<O>> rows) {
        for (const Option<O>& row : rows) add(row);
    }

    std::string_view game() const noexcept { return game_; }
    std::span<const Option<O>> options() const noexcept { return options_; }

    // The settings for this game, every name checked against the table.
    OptionReader reader(const Settings& settings) const {
        std::vector<std::string_view> names;
        for (const auto& o : options_) names.push_back(o.name);
        return OptionReader(game_, names, settings);
    }

    // Options{} with every option given in `r` read and checked against its type and bounds,
    // each after the options its bounds and `after` name (else in the table's order).
    O read(const OptionReader& r) const {
        O o{};
        for (const std::size_t i : reading_order()) {
            const Option<O>& opt = options_[i];
            if (const auto t = r.text(opt.name)) read_one(opt, *t, o, r);
        }
        return o;
    }

    // What no bound states (rules between options: Bosconian-D's B2b, Minimal Space Combat's
    // map sizes), checked after the options are read; it may also settle fields that follow
    // from them (a fast path's flag). parse() runs it.
    void after_reading(void (*fn)(O&, const OptionReader&)) { check_ = fn; }
    // The game's options from `settings`: read (above), then the table's check. A game's
    // parse_options.
    O parse(const Settings& settings) const {
        const OptionReader r = reader(settings);
        O o = read(r);
        if (check_) check_(o, r);
        return o;
    }

    // "NAME=VALUE NAME=VALUE ...": every option the scenario names, with its effective value.
    std::string scenario(const O& o) const {
        std::string s;
        const O book{};
        const auto add = [&](const Option<O>& opt) {
            if (opt.in_scenario && !opt.in_scenario(o)) return;
            if (opt.naming == Naming::when_changed && value_text(opt, o) == value_text(opt, book))
                return;
            if (!s.empty()) s += ' ';
            s += opt.name;
            s += '=';
            s += opt.scenario_value ? opt.scenario_value(o) : value_text(opt, o);
        };
        for (const auto name : scenario_first_) add(options_[index_of(name)]);
        for (const auto& opt : options_)
            if (std::find(scenario_first_.begin(), scenario_first_.end(), opt.name) ==
                scenario_first_.end())
                add(opt);
        return s;
    }

    // Whether `o` plays the rule book: every option named when changed (Naming::when_changed)
    // holds its value in Options{}. A kernel's parse_options asks it once and keeps the answer in
    // its Options, for the fast paths written for the book's numbers.
    bool is_book(const O& o) const {
        const O book{};
        for (const auto& opt : options_)
            if (opt.naming == Naming::when_changed && !same_value(opt, o, book)) return false;
        return true;
    }
    // The same question for the options `names` (comma-separated) alone: a fast path of one rule
    // (Full Plastic Bodybag's Guts roll).
    bool is_book(const O& o, std::string_view names) const {
        const O book{};
        for (const auto& name : detail::split_words(names))
            if (!same_value(options_[index_of(name)], o, book)) return false;
        return true;
    }

    // The option `name`'s value in `o`, as the user would type it and as `odds list` shows its
    // default: what a value given any way reads back as (hull=0100 is 100, swap_homes=0 is
    // false, 2,3,4,5 is 2-5, d6 is 1d6).
    std::string value_of(std::string_view name, const O& o) const {
        return value_text(options_[index_of(name)], o);
    }

    // The options as the CLI and the docs show them. Checks the declaration first (throws
    // std::logic_error): names given once, a ruling each, bounds and `after` naming declared
    // options (bounds whole number ones), no cycle, no range typed into a help, the scenario's
    // first options declared ones, each once.
    std::vector<OptionInfo> describe() const {
        check();
        const O defaults{};
        std::vector<OptionInfo> out;
        for (const auto& opt : options_) {
            OptionInfo info;
            info.name = opt.name;
            info.default_value = value_text(opt, defaults);
            info.ruling = opt.ruling;
            info.values = values_text(opt);
            if (const auto* n = std::get_if<Integer<O>>(&opt.type)) {
                info.kind = OptionKind::integer;
                info.min = bound(n->lo, defaults);
                info.max = bound(n->hi, defaults);
                if (!n->zero_word.empty()) info.words.emplace_back(n->zero_word);
            } else if (std::holds_alternative<Boolean<O>>(opt.type)) {
                info.kind = OptionKind::boolean;
            } else if (const auto* c = std::get_if<Choice<O>>(&opt.type)) {
                info.kind = OptionKind::choice;
                info.words = detail::split_words(c->words);
            } else if (const auto* d = std::get_if<DiceOpt<O>>(&opt.type)) {
                info.kind = OptionKind::dice;
                info.min = d->lo;
                info.max = d->hi;
            } else if (const auto* f = std::get_if<FacesOpt<O>>(&opt.type)) {
                info.kind = OptionKind::faces;
                info.min = 1;
                info.max = f->sides;
                info.comma_list = true;
            } else if (const auto* t = std::get_if<StepsOpt<O>>(&opt.type)) {
                info.kind = OptionKind::steps;
                info.min = t->lo;
                info.max = t->hi;
                info.comma_list = true;
            } else {
                info.kind = OptionKind::text;
                info.comma_list = std::get<Text<O>>(opt.type).comma_list;
                info.words = detail::split_words(std::get<Text<O>>(opt.type).words);
            }
            info.help = detail::render_help(opt.help, info.values, opt.ruling);
            out.push_back(std::move(info));
        }
        return out;
    }

private:
    std::size_t index_of(std::string_view name) const {
        for (std::size_t i = 0; i < options_.size(); ++i)
            if (options_[i].name == name) return i;
        detail::bad_declaration(game_, name, "is named but not declared");
    }

    // The options a row must be read after: those its bounds and `after` name.
    std::vector<std::string> depends_on(const Option<O>& opt) const {
        auto out = detail::split_words(opt.after);
        if (const auto* n = std::get_if<Integer<O>>(&opt.type))
            for (const Bound<O>* b : {&n->lo, &n->hi})
                if (!b->option.empty()) out.emplace_back(b->option);
        return out;
    }

    // Each option after the ones it depends on, else in the table's order.
    std::vector<std::size_t> reading_order() const {
        std::vector<std::size_t> order;
        std::vector<int> state(options_.size(), 0);  // 0 to do, 1 under way, 2 done
        const auto visit = [&](const auto& self, std::size_t i) -> void {
            if (state[i] == 2) return;
            if (state[i] == 1)
                detail::bad_declaration(game_, options_[i].name, "depends on itself (a cycle)");
            state[i] = 1;
            for (const auto& d : depends_on(options_[i])) self(self, index_of(d));
            state[i] = 2;
            order.push_back(i);
        };
        for (std::size_t i = 0; i < options_.size(); ++i) visit(visit, i);
        return order;
    }

    std::int64_t bound(const Bound<O>& b, const O& o) const {
        if (b.of) return b.of(o);
        if (b.option.empty()) return b.value;
        const auto& named_type = options_[index_of(b.option)].type;
        return std::get<Integer<O>>(named_type).field.get(o) + b.value;
    }

    static std::string bound_text(const Bound<O>& b) {
        if (b.of) return std::string(b.label);
        if (b.option.empty()) return std::to_string(b.value);
        return std::string(b.option) + (b.value > 0 ? "+" : "") +
               (b.value ? std::to_string(b.value) : std::string());
    }

    static int choice_index(const Choice<O>& c, const O& o) {
        return c.as_bool.get ? (c.as_bool.get(o) ? 1 : 0) : c.as_int.get(o) - c.first;
    }

    // The option's value in `o`, as the user would type it.
    static std::string value_text(const Option<O>& opt, const O& o) {
        if (const auto* n = std::get_if<Integer<O>>(&opt.type)) {
            const int v = n->field.get(o);
            return v == 0 && !n->zero_word.empty() ? std::string(n->zero_word) : std::to_string(v);
        }
        if (const auto* b = std::get_if<Boolean<O>>(&opt.type))
            return b->field.get(o) ? "true" : "false";
        if (const auto* c = std::get_if<Choice<O>>(&opt.type)) {
            const auto words = detail::split_words(c->words);
            return words.at(static_cast<std::size_t>(choice_index(*c, o)));
        }
        if (const auto* d = std::get_if<DiceOpt<O>>(&opt.type)) return to_string(d->field.get(o));
        if (const auto* f = std::get_if<FacesOpt<O>>(&opt.type)) return to_string(f->field.get(o));
        if (const auto* t = std::get_if<StepsOpt<O>>(&opt.type)) return to_string(t->field.get(o));
        return std::get<Text<O>>(opt.type).write(o);
    }

    // Whether `a` and `b` hold the same value of the option: the fields compared as the kernel
    // compares them, a text option by the text it writes.
    static bool same_value(const Option<O>& opt, const O& a, const O& b) {
        return std::visit(
            [&](const auto& x) {
                using X = std::remove_cvref_t<decltype(x)>;
                if constexpr (std::is_same_v<X, Text<O>>)
                    return x.write(a) == x.write(b);
                else if constexpr (std::is_same_v<X, Choice<O>>)
                    return choice_index(x, a) == choice_index(x, b);
                else
                    return x.field.get(a) == x.field.get(b);
            },
            opt.type);
    }

    // What is valid, as the docs show it (and "{range}" in a help).
    static std::string values_text(const Option<O>& opt) {
        if (const auto* n = std::get_if<Integer<O>>(&opt.type))
            return (n->zero_word.empty() ? "" : std::string(n->zero_word) + " or ") +
                   bound_text(n->lo) + ".." + bound_text(n->hi);
        if (std::holds_alternative<Boolean<O>>(opt.type)) return "true or false";
        if (const auto* c = std::get_if<Choice<O>>(&opt.type))
            return or_list(detail::split_words(c->words));
        if (const auto* d = std::get_if<DiceOpt<O>>(&opt.type))
            return "dice (" + std::string("NdX+K, sums such as 2d6+1d4, 4d6kh3, 3d6!") +
                   ") totalling " + std::to_string(d->lo) + ".." + std::to_string(d->hi);
        if (const auto* f = std::get_if<FacesOpt<O>>(&opt.type))
            return "faces of a d" + std::to_string(f->sides) + " (2-5, 1,3,4,6, none)";
        if (const auto* t = std::get_if<StepsOpt<O>>(&opt.type))
            return "a step table T:V,... (at least T gives V), values " + std::to_string(t->lo) +
                   ".." + std::to_string(t->hi);
        return std::string(std::get<Text<O>>(opt.type).takes);
    }

    void read_one(const Option<O>& opt, const std::string& t, O& o, const OptionReader& r) const {
        if (const auto* n = std::get_if<Integer<O>>(&opt.type)) {
            if (!n->zero_word.empty() && t == n->zero_word) return n->field.set(o, 0);
            const std::int64_t lo = bound(n->lo, o), hi = bound(n->hi, o);
            const auto v = parse_integer(t, lo, hi);
            if (!v) r.fail(opt.name, t, whole_number_takes(n->zero_word, lo, hi));
            return n->field.set(o, static_cast<int>(*v));
        }
        if (const auto* b = std::get_if<Boolean<O>>(&opt.type)) {
            if (t == "true" || t == "1" || t == "yes") return b->field.set(o, true);
            if (t == "false" || t == "0" || t == "no") return b->field.set(o, false);
            r.fail(opt.name, t, "true or false");
        }
        if (const auto* c = std::get_if<Choice<O>>(&opt.type)) {
            const auto words = detail::split_words(c->words);
            const auto at = std::find(words.begin(), words.end(), t);
            if (at == words.end()) r.fail(opt.name, t, or_list(words));
            const int i = static_cast<int>(at - words.begin());
            return c->as_bool.set ? c->as_bool.set(o, i == 1) : c->as_int.set(o, i + c->first);
        }
        if (const auto* d = std::get_if<DiceOpt<O>>(&opt.type)) {
            std::string why;
            const auto e = parse_dice(t, &why);
            if (!e) r.fail(opt.name, t, why);
            if (e->min() < d->lo || e->max() > d->hi)
                r.fail(opt.name, t,
                       "dice whose totals lie in " + std::to_string(d->lo) + ".." +
                           std::to_string(d->hi) + " (" + to_string(*e) + " gives " +
                           std::to_string(e->min()) + ".." + std::to_string(e->max()) + ")");
            return d->field.set(o, *e);
        }
        if (const auto* f = std::get_if<FacesOpt<O>>(&opt.type)) {
            std::string why;
            const auto v = parse_faces(t, f->sides, &why);
            if (!v) r.fail(opt.name, t, why);
            return f->field.set(o, *v);
        }
        if (const auto* st = std::get_if<StepsOpt<O>>(&opt.type)) {
            std::string why;
            const auto v = parse_steps(t, &why);
            if (!v) r.fail(opt.name, t, why);
            for (int i = 0; i < v->n; ++i)
                if (v->value[static_cast<std::size_t>(i)] < st->lo ||
                    v->value[static_cast<std::size_t>(i)] > st->hi)
                    r.fail(opt.name, t,
                           "a step table whose values lie in " + std::to_string(st->lo) + ".." +
                               std::to_string(st->hi));
            return st->field.set(o, *v);
        }
        const auto& x = std::get<Text<O>>(opt.type);
        if (t.empty()) r.fail(opt.name, t, x.takes);
        std::string what_is_valid;
        try {
            what_is_valid = x.read(o, t);
        } catch (const UsageError& e) {
            throw UsageError(std::string(game_) + ": " + e.what());
        }
        if (!what_is_valid.empty()) r.fail(opt.name, t, what_is_valid);
    }

    void check() const {
        for (std::size_t i = 0; i < options_.size(); ++i) {
            const Option<O>& opt = options_[i];
            const auto bad = [&](const std::string& what) {
                detail::bad_declaration(game_, opt.name, what);
            };
            if (opt.name.empty()) bad("has no name");
            for (std::size_t j = 0; j < i; ++j)
                if (options_[j].name == opt.name) bad("is declared twice");
            if (opt.ruling.empty()) bad("names no ruling");
            if (detail::types_a_range(opt.help))
                bad("types a range into its help; write {range}, made from its bounds");
            for (const auto& d : depends_on(opt)) (void)index_of(d);
            if (const auto* n = std::get_if<Integer<O>>(&opt.type)) {
                if (!n->field.get || !n->field.set) bad("has no field");
                for (const Bound<O>* b : {&n->lo, &n->hi})
                    if (!b->option.empty() &&
                        !std::holds_alternative<Integer<O>>(options_[index_of(b->option)].type))
                        bad("is bounded by '" + std::string(b->option) +
                            "', which is not a whole number");
            } else if (const auto* b = std::get_if<Boolean<O>>(&opt.type)) {
                if (!b->field.get || !b->field.set) bad("has no field");
            } else if (const auto* c = std::get_if<Choice<O>>(&opt.type)) {
                if (!(c->as_int.get && c->as_int.set) && !(c->as_bool.get && c->as_bool.set))
                    bad("has no field");
                if (detail::split_words(c->words).size() < 2) bad("offers fewer than two words");
            } else if (const auto* d = std::get_if<DiceOpt<O>>(&opt.type)) {
                if (!d->field.get || !d->field.set) bad("has no field");
            } else if (const auto* f = std::get_if<FacesOpt<O>>(&opt.type)) {
                if (!f->field.get || !f->field.set) bad("has no field");
            } else if (const auto* st = std::get_if<StepsOpt<O>>(&opt.type)) {
                if (!st->field.get || !st->field.set) bad("has no field");
            } else {
                const auto& x = std::get<Text<O>>(opt.type);
                if (!x.read || !x.write) bad("has no read or write function");
                if (x.takes.empty()) bad("does not say what it takes");
            }
        }
        (void)reading_order();  // throws on a cycle
        for (std::size_t i = 0; i < scenario_first_.size(); ++i) {
            (void)index_of(scenario_first_[i]);
            for (std::size_t j = 0; j < i; ++j)
                if (scenario_first_[j] == scenario_first_[i])
                    detail::bad_declaration(game_, scenario_first_[i],
                                            "is twice in the scenario's order");
        }
    }

    std::string_view game_;
    std::vector<Option<O>> options_;
    std::vector<std::string_view> scenario_first_;
    RowDefaults<O> defaults_;
    void (*check_)(O&, const OptionReader&) = nullptr;
};

}  // namespace odds
