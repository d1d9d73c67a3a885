// Declared options (engine/rule_options.hpp): a table of rows is read, checked, written as a
// scenario and described from its declaration alone; and, over every registered game, what odds
// list shows, what a bad value gets, and each rules page's options table come from the game's
// declaration.
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/rule_options.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

// A toy game's options: every kind of row, a bound on another option declared after it, a
// computed bound, a word for 0, a text read by a function, a scenario in its own order.
struct Toy {
    int size = 10;
    int count = 0;  // 0: "some"
    int pick = 3;
    bool fast = false;
    int mode = -1;  // -1 auto, 0 left, 1 right
    bool wide = false;
    std::string tag = "none";
    int extra = 0;
};

std::string read_tag(Toy& t, std::string_view v) {
    if (v.size() > 3) return "at most 3 letters, or none";
    t.tag = v;
    return "";
}

// Every row but `extra` a knob of the scenario (Naming::always); extra is one of the rule book's
// numbers, named only when changed.
const OptionTable<Toy> kToyTable(
    "toy",
    {
        {.name = "count",
         .type = integer(field<&Toy::count>, 1, named("size", -2), "some"),
         .ruling = "T2",
         .help = "how many, {range}",
         .naming = Naming::always},
        {"size", integer(field<&Toy::size>, 4, 50), "T1", "the size", Naming::always},
        {.name = "pick",
         .type = integer(field<&Toy::pick>, 0,
                         {[](const Toy& t) -> std::int64_t { return t.size / 2; }, "size/2"}),
         .ruling = "T3",
         .help = "a pick",
         .naming = Naming::always,
         .after = "size"},
        {.name = "fast",
         .type = boolean(field<&Toy::fast>),
         .ruling = "T4",
         .help = "true: fast",
         .naming = Naming::always,
         .in_scenario = [](const Toy& t) { return t.fast; }},
        {"mode", choice(field<&Toy::mode>, "auto,left,right", -1), "T5, T5a",
         "which way ({ruling}); or auto", Naming::always},
        {"wide", choice(field<&Toy::wide>, "narrow,wide"), "T6", "the width", Naming::always},
        {.name = "tag",
         .type = Text<Toy>{.read = read_tag,
                           .write = [](const Toy& t) { return t.tag; },
                           .takes = "a short tag, or none"},
         .ruling = "T7",
         .help = "a tag",
         .naming = Naming::always,
         .scenario_value = [](const Toy& t) { return "<" + t.tag + ">"; }},
        {"extra", integer(field<&Toy::extra>, 0, 9), "T8", "a number of the book, {range}"},
    },
    {"size"});

Toy read_toy(const Settings& s) { return kToyTable.read(kToyTable.reader(s)); }

std::string message(const Settings& s) {
    try {
        (void)read_toy(s);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

std::string folder_of(std::string_view game) {
    std::string f(game);
    for (char& c : f)
        if (c == '-') c = '_';
    return f;
}

}  // namespace

TEST_CASE("a declared table reads each option by its type, in the order its bounds need",
          "[options]") {
    const Toy d = read_toy({});
    CHECK(d.size == 10);
    CHECK(d.count == 0);
    CHECK(d.mode == -1);

    // count's bound is size-2: read after size, though declared before it.
    const Toy t = read_toy({{"count", "28"},
                            {"size", "30"},
                            {"pick", "15"},
                            {"fast", "yes"},
                            {"mode", "right"},
                            {"wide", "wide"},
                            {"tag", "ab"}});
    CHECK(t.count == 28);
    CHECK(t.size == 30);
    CHECK(t.pick == 15);
    CHECK(t.fast);
    CHECK(t.mode == 1);
    CHECK(t.wide);
    CHECK(t.tag == "ab");
    CHECK(read_toy({{"count", "some"}}).count == 0);
    CHECK(read_toy({{"mode", "auto"}}).mode == -1);
    CHECK_FALSE(read_toy({{"wide", "narrow"}}).wide);

    // One line: GAME: NAME='VALUE' is not valid; NAME takes WHAT IS VALID.
    CHECK(message({{"count", "9"}}) ==
          "toy: count='9' is not valid; count takes some or a whole number from 1 to 8");
    CHECK(message({{"count", "9"}, {"size", "11"}}).empty());
    CHECK(message({{"size", "3"}}) ==
          "toy: size='3' is not valid; size takes a whole number from 4 to 50");
    CHECK(message({{"size", " 5"}}) ==
          "toy: size=' 5' is not valid; size takes a whole number from 4 to 50");
    CHECK(message({{"pick", "6"}}) ==
          "toy: pick='6' is not valid; pick takes a whole number from 0 to 5");
    CHECK(message({{"fast", "TRUE"}}) == "toy: fast='TRUE' is not valid; fast takes true or false");
    CHECK(message({{"mode", "up"}}) ==
          "toy: mode='up' is not valid; mode takes auto, left or right");
    CHECK(message({{"wide", "Wide"}}) ==
          "toy: wide='Wide' is not valid; wide takes narrow or wide");
    CHECK(message({{"tag", ""}}) == "toy: tag='' is not valid; tag takes a short tag, or none");
    CHECK(message({{"tag", "long"}}) ==
          "toy: tag='long' is not valid; tag takes at most 3 letters, or none");
    CHECK(
        message({{"szie", "3"}}) ==
        "toy: unknown option 'szie' (did you mean 'size'?) (valid: count, size, pick, fast, mode, "
        "wide, tag, extra)");
    CHECK(message({{"size", "5"}, {"size", "6"}}) == "toy: option 'size' is set twice");
}

TEST_CASE("a declared table writes the scenario in its order, with what each row shows",
          "[options]") {
    CHECK(kToyTable.scenario(Toy{}) ==
          "size=10 count=some pick=3 mode=auto wide=narrow tag=<none>");
    const Toy t = read_toy({{"count", "3"}, {"fast", "1"}, {"mode", "left"}, {"wide", "wide"}});
    CHECK(kToyTable.scenario(t) ==
          "size=10 count=3 pick=3 fast=true mode=left wide=wide tag=<none>");
    // The rule book's number is named once it differs from the book, Options{}.
    CHECK(kToyTable.scenario(read_toy({{"extra", "0"}})) == kToyTable.scenario(Toy{}));
    CHECK(kToyTable.scenario(read_toy({{"extra", "4"}})) ==
          "size=10 count=some pick=3 mode=auto wide=narrow tag=<none> extra=4");
}

TEST_CASE("a declared table says whether options are the rule book's", "[options]") {
    // The book: every option named when changed (extra alone here) at its value in Toy{}.
    CHECK(kToyTable.is_book(Toy{}));
    CHECK(kToyTable.is_book(read_toy({{"size", "40"}, {"extra", "0"}})));
    CHECK_FALSE(kToyTable.is_book(read_toy({{"extra", "1"}})));
    // The same question for some options alone (a fast path of one rule).
    CHECK(kToyTable.is_book(read_toy({{"extra", "1"}}), "size"));
    CHECK_FALSE(kToyTable.is_book(read_toy({{"size", "12"}}), "count,size"));
    CHECK(kToyTable.is_book(Toy{}, "tag"));
    CHECK_FALSE(kToyTable.is_book(read_toy({{"tag", "ab"}}), "tag"));
}

TEST_CASE("a family's fields: elements of an array, and paths into members", "[options]") {
    struct Inner {
        std::array<std::int8_t, 3> small{1, 2, 3};
    };
    struct Outer {
        Inner in;
        std::array<int, 2> pair{5, 6};
    };
    Outer o;
    constexpr auto pair = elements<&Outer::pair>;
    static_assert(pair.size() == 2);
    CHECK(pair[1].get(o) == 6);
    pair[0].set(o, 7);
    CHECK(o.pair[0] == 7);
    // A byte read and written as an int.
    constexpr Field<Outer, int> small = field<&Outer::in, &Inner::small, 2>;
    CHECK(small.get(o) == 3);
    small.set(o, -4);
    CHECK(o.in.small[2] == -4);
    CHECK(elements<&Outer::in, &Inner::small>[0].get(o) == 1);
    CHECK(concat("deck.", std::string("gust"), std::string_view("_of_wind")) ==
          "deck.gust_of_wind");
}

TEST_CASE("a declared table describes its options: defaults from Options{}, ranges from bounds",
          "[options]") {
    const auto infos = kToyTable.describe();
    REQUIRE(infos.size() == 8);
    const OptionInfo& count = infos[0];
    CHECK(count.name == "count");
    CHECK(count.default_value == "some");
    CHECK(count.kind == OptionKind::integer);
    CHECK(count.values == "some or 1..size-2");
    CHECK(count.help == "how many, some or 1..size-2 (T2)");
    CHECK(count.min == 1);
    CHECK(count.max == 8);  // size at its default, 10
    CHECK(count.words == std::vector<std::string>{"some"});
    CHECK(infos[1].help == "the size (T1)");
    CHECK(infos[1].values == "4..50");
    CHECK(infos[2].values == "0..size/2");
    CHECK(infos[2].max == 5);
    CHECK(infos[3].default_value == "false");
    CHECK(infos[3].values == "true or false");
    CHECK(infos[4].default_value == "auto");
    CHECK(infos[4].help == "which way (T5, T5a); or auto");
    CHECK(infos[4].words == std::vector<std::string>{"auto", "left", "right"});
    CHECK(infos[5].default_value == "narrow");
    CHECK(infos[6].kind == OptionKind::text);
    CHECK(infos[6].default_value == "none");
    CHECK(infos[6].values == "a short tag, or none");
    CHECK_FALSE(infos[6].comma_list);
}

TEST_CASE("a declaration's mistakes are found when it is described", "[options]") {
    const auto fails = [](std::span<const Option<Toy>> rows,
                          std::span<const std::string_view> order, const std::string& what) {
        INFO(what);
        CHECK_THROWS_WITH(
            OptionTable<Toy>("toy", {rows.begin(), rows.end()}, {order.begin(), order.end()})
                .describe(),
            Catch::Contains(what));
    };
    const Option<Toy> size{.name = "size",
                           .type = integer(field<&Toy::size>, 4, 50),
                           .ruling = "T1",
                           .help = "the size"};
    {
        const Option<Toy> rows[] = {size, size};
        fails(rows, {}, "option 'size' is declared twice");
    }
    {
        Option<Toy> r = size;
        r.ruling = "";
        const Option<Toy> rows[] = {r};
        fails(rows, {}, "option 'size' names no ruling");
    }
    {
        Option<Toy> r = size;
        r.help = "the size, 4..50";
        const Option<Toy> rows[] = {r};
        fails(rows, {}, "types a range into its help");
    }
    {
        const Option<Toy> rows[] = {size,
                                    {.name = "count",
                                     .type = integer(field<&Toy::count>, 1, named("sise")),
                                     .ruling = "T2",
                                     .help = "how many"}};
        fails(rows, {}, "option 'sise' is named but not declared");
    }
    {
        const Option<Toy> rows[] = {
            {.name = "fast", .type = boolean(field<&Toy::fast>), .ruling = "T4", .help = "f"},
            {.name = "count",
             .type = integer(field<&Toy::count>, 1, named("fast")),
             .ruling = "T2",
             .help = "how many"}};
        fails(rows, {}, "is bounded by 'fast', which is not a whole number");
    }
    {
        const Option<Toy> rows[] = {{.name = "size",
                                     .type = integer(field<&Toy::size>, named("count"), 50),
                                     .ruling = "T1",
                                     .help = "s"},
                                    {.name = "count",
                                     .type = integer(field<&Toy::count>, 1, named("size")),
                                     .ruling = "T2",
                                     .help = "c"}};
        fails(rows, {}, "depends on itself");
    }
    {
        const Option<Toy> rows[] = {size};
        const std::string_view twice[] = {"size", "size"};
        fails(rows, twice, "option 'size' is twice in the scenario's order");
        const std::string_view undeclared[] = {"sise"};
        fails(rows, undeclared, "option 'sise' is named but not declared");
    }
}

TEST_CASE(
    "every game's odds list shows each declared option: its default and help made from the "
    "declaration",
    "[options][cli]") {
    for (const GameEntry& g : games()) {
        INFO(g.name);
        const auto list = test::cli({"list", std::string(g.name)});
        REQUIRE(list.code == 0);
        const auto defaults = g.prepare({}, {});
        for (const OptionInfo& o : g.options) {
            INFO(o.name);
            // One line "    NAME=DEFAULT  HELP" (the column padded).
            const std::string head = "\n    " + o.name + "=" + o.default_value + " ";
            const auto at = list.out.find(head);
            REQUIRE(at != std::string::npos);
            const auto end = list.out.find('\n', at + 1);
            std::string rest = list.out.substr(at + head.size(), end - at - head.size());
            rest.erase(0, rest.find_first_not_of(' '));
            CHECK(rest == o.help);
            CHECK(o.help.find('{') == std::string::npos);  // every {range} and {ruling} filled
            CHECK(o.help.find(o.ruling) != std::string::npos);
            // A range the help shows is the declared one.
            if (o.help.find("..") != std::string::npos && o.kind == OptionKind::integer &&
                o.help.find("...") == std::string::npos)
                CHECK(o.help.find(o.values) != std::string::npos);
            // The default is what the game plays when the option is not set: given, it plays the
            // same scenario (or is refused only by a rule between options, never as a bad value).
            std::string played, refused;
            try {
                played = g.prepare({{o.name, o.default_value}}, {})->scenario;
            } catch (const UsageError& e) {
                refused = e.what();
            }
            if (refused.empty())
                CHECK(played == defaults->scenario);
            else
                CHECK_THAT(refused, !Catch::Contains(o.name + "='" + o.default_value + "'"));
            // A whole number's default lies in its range, or is its word.
            if (o.kind == OptionKind::integer &&
                (o.words.empty() || o.default_value != o.words[0])) {
                const auto v = parse_integer(o.default_value, o.min, o.max);
                CHECK(v.has_value());
            }
        }
    }
}

TEST_CASE(
    "a bad value of every declared option of every game is refused: one line, exit 2, nothing "
    "written",
    "[options][cli]") {
    const fs::path out = fs::temp_directory_path() / ("odds-options-" + std::to_string(::getpid()));
    fs::remove_all(out);
    std::size_t tried = 0;
    for (const GameEntry& g : games()) {
        for (const OptionInfo& o : g.options) {
            // Bad values from the declared type, and what the message must say is valid.
            std::vector<std::pair<std::string, std::string>> bad;
            const auto upper = [](std::string s) {
                for (char& c : s)
                    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                return s;
            };
            switch (o.kind) {
                case OptionKind::integer: {
                    const std::string takes =
                        whole_number_takes(o.words.empty() ? "" : o.words[0], o.min, o.max);
                    for (const std::string& v :
                         {std::to_string(o.min - 1), std::to_string(o.max + 1), std::string("x"),
                          std::string(""), std::string("1.5")})
                        bad.emplace_back(v, takes);
                    if (!o.words.empty()) bad.emplace_back(upper(o.words[0]), takes);
                    break;
                }
                case OptionKind::boolean:
                    for (const char* v : {"maybe", "TRUE", "2", ""})
                        bad.emplace_back(v, "true or false");
                    break;
                case OptionKind::choice:
                    for (const std::string& v :
                         {upper(o.words[0]), std::string("x"), std::string("")})
                        bad.emplace_back(v, or_list(o.words));
                    break;
                case OptionKind::text:
                    bad.emplace_back("", o.values);
                    break;
                case OptionKind::dice:
                    for (const char* v : {"x", "", "2D6", "1.5"})
                        bad.emplace_back(v, std::string(kDiceTakes));
                    for (const char* v : {"2d", "d1", "1d101"})
                        bad.emplace_back(v, "a die has 2 to 100 faces (NdX)");
                    bad.emplace_back("3d6-1d4",
                                     "dice are added, not taken away: " + std::string(kDiceTakes));
                    break;
                case OptionKind::faces:
                    for (const char* v : {"x", "", "3-1", "0"})
                        bad.emplace_back(
                            v, std::string_view(v) == "3-1" || std::string_view(v) == "0"
                                   ? "faces from 1 to " + std::to_string(o.max) +
                                         ", ranges rising: " + faces_takes(static_cast<int>(o.max))
                                   : faces_takes(static_cast<int>(o.max)));
                    break;
                case OptionKind::steps:
                    for (const char* v : {"x", "", "5:1,4:2"})
                        bad.emplace_back(v, std::string(kStepsTakes));
                    break;
            }
            for (const auto& [value, takes] : bad) {
                const auto r = test::cli({"run", std::string(g.name), "-n", "1", "--out",
                                          out.string(), "--set", o.name + "=" + value});
                INFO(g.name << " " << o.name << "='" << value << "'\nstderr: " << r.err);
                CHECK(r.code == 2);
                CHECK(r.err == "odds run: " + std::string(g.name) + ": " + o.name + "='" + value +
                                   "' is not valid; " + o.name + " takes " + takes + "\n");
                CHECK(r.out.empty());
                CHECK_FALSE(fs::exists(out));
                ++tried;
            }
        }
    }
    CHECK(tried > 100);
}

TEST_CASE("messages whose ranges come from other options", "[options][cli]") {
    struct Case {
        std::vector<std::string> args;
        std::string err;
    };
    const Case cases[] = {
        // The word is valid too.
        {{"run", "bosconian", "--set", "start_sector=99"},
         "bosconian: start_sector='99' is not valid; start_sector takes first or a whole number "
         "from 1 to 36"},
        {{"run", "bosconian", "--set", "sectors=20", "--set", "start_sector=21"},
         "bosconian: start_sector='21' is not valid; start_sector takes first or a whole number "
         "from 1 to 20"},
        {{"run", "bosconian", "--set", "hull=50", "--set", "start_damage=50"},
         "bosconian: start_damage='50' is not valid; start_damage takes a whole number from 0 to "
         "49"},
        {{"run", "bosconian", "--set", "sectors=20", "--set", "bases=21"},
         "bosconian: bases='21' is not valid; bases takes a count or dice of at most sectors=20"},
        // Each fleet fits its edge: height runs from ships.
        {{"run", "naval", "--set", "height=5"},
         "naval: height='5' is not valid; height takes a whole number from 7 to 40"},
        {{"run", "naval", "--set", "ships=3", "--set", "height=2"},
         "naval: height='2' is not valid; height takes a whole number from 3 to 40"},
        {{"run", "naval", "--set", "width=6", "--set", "height=7", "--set", "islands=8"},
         "naval: islands='8' is not valid; islands takes a whole number from 0 to 7"},
        // Rules between options, after each option is read.
        {{"run", "bosconian", "--set", "sectors=11"},
         "bosconian: bases='2d6' is not valid; bases takes a count or dice of at most sectors=11 "
         "(2d6 may roll 12)"},
        {{"run", "msc", "--set", "width=30"},
         "msc: map='example' is not valid; map takes random when width, height or systems are "
         "given"},
    };
    for (const auto& c : cases) {
        const auto r = test::cli(c.args);
        INFO(c.args.back());
        CHECK(r.code == 2);
        CHECK(r.err == "odds run: " + c.err + "\n");
    }
}

// Each game's rules page, engine/GAME/RULES.md, holds its options table between the markers, as
// options_table_markdown makes it from the declaration. scripts/update-options-tables runs this
// test with ODDS_UPDATE_OPTIONS_TABLES=1 set, which rewrites the tables (and adds one, at the
// end, to a page without).
TEST_CASE("each rules page holds its game's options table, made from the declaration",
          "[options][docs]") {
    const bool update = std::getenv("ODDS_UPDATE_OPTIONS_TABLES") != nullptr;
    for (const GameEntry& g : games()) {
        const fs::path page = fs::path(ODDS_SOURCE_DIR) / "engine" / folder_of(g.name) / "RULES.md";
        INFO(page.string() << ": run scripts/update-options-tables");
        REQUIRE(fs::exists(page));
        std::string text = test::slurp(page);
        const std::string table = options_table_markdown(g.options);
        const auto begin = text.find(kOptionsTableBegin);
        const auto end = text.find(kOptionsTableEnd);
        if (update) {
            const std::string block =
                std::string(kOptionsTableBegin) + "\n" + table + std::string(kOptionsTableEnd);
            if (begin == std::string::npos || end == std::string::npos || end < begin)
                text += "\n## Rule options\n\nEach is set with `--set NAME=VALUE`; `odds list " +
                        std::string(g.name) + "` prints the same list.\n\n" + block + "\n";
            else
                text.replace(begin, end + kOptionsTableEnd.size() - begin, block);
            std::ofstream(page) << text;
            continue;
        }
        REQUIRE(begin != std::string::npos);
        REQUIRE(end != std::string::npos);
        REQUIRE(begin < end);
        const auto from = begin + kOptionsTableBegin.size() + 1;
        CHECK(text.substr(from, end - from) == table);
    }
}
