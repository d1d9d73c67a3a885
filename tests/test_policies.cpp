// The policy tables and their one parser (policies/policy_table.hpp): NAME[:P1[:P2]] read against
// declared parameters, the labels runs print, the seats, and the one-line errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <variant>

#include "engine/dice.hpp"
#include "engine/fpb/policies.hpp"
#include "engine/naval/policies.hpp"
#include "engine/rule_options.hpp"
#include "policies/policy_table.hpp"
#include "sim/registry.hpp"

using namespace odds;

namespace {

struct Plain {
    int id = 1;
};
struct Search {
    std::int64_t budget = 0, horizon = 0;
};
using Made = std::variant<Plain, Search>;
struct Context {};

constexpr PolicyParam kSearchParams[] = {{"N", "simulations", 1, 100, 16},
                                         {"H", "turns", 0, 60, 0}};
constexpr PolicyRow<PolicyFactory<Made, Context>> kRows[] = {
    {"plain", "no parameters", made<Plain>},
    {"search", "two parameters",
     [](const Context&, const PolicyArgs& a) -> Made {
         return Search{a[0], a[1]};
     },
     kSearchParams},
};
constexpr auto kInfos = infos_of(kRows);
static_assert(kInfos.size() == 2 && kInfos[1].name == "search" && kInfos[1].params.size() == 2);
static_assert(every_alternative<Made>([]<class P> { return std::is_aggregate_v<P>; }));
static_assert(!every_alternative<Made>([]<class P> { return std::is_same_v<P, Plain>; }));

// The kernels' policy concepts refuse a policy that lacks a member or answers with the wrong type
// (each game's policies.hpp asserts that its own policies satisfy them).
struct NoBugOut {
    template <class D>
    fpb::Order leader(const fpb::State&, D&);
    template <class D>
    fpb::CarryPlan carries(const fpb::State&, D&);
};
struct BugOutAsInt : NoBugOut {
    template <class D>
    int bug_out(const fpb::State&, D&);
};
struct BugOutAsBool : NoBugOut {
    template <class D>
    bool bug_out(const fpb::State&, D&);
};
static_assert(fpb::PolicyFor<BugOutAsBool, Dice>);
static_assert(!fpb::PolicyFor<NoBugOut, Dice> && !fpb::PolicyFor<BugOutAsInt, Dice>);
static_assert(fpb::PolicyFor<fpb::Rollout, Dice> && !fpb::PolicyFor<naval::Gunner, Dice>);
static_assert(naval::PolicyFor<naval::Gunner, Dice> && naval::PolicyFor<const naval::Gunner, Dice>);
struct CardsAsInt : naval::Gunner {
    template <class D>
    int cards(const naval::State&, int, const naval::Roll&, D&) const;
};
static_assert(!naval::PolicyFor<CardsAsInt, Dice>);

// The UsageError's message for `text`, or "" when it parses.
std::string error_of(std::string_view text) {
    try {
        parse_policy("game", kInfos, text);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("policy parser: names, parameters in range, defaults, labels", "[policies]") {
    const PolicyChoice plain = parse_policy("game", kInfos, "plain");
    CHECK(plain.index == 0);
    CHECK(plain.label == "plain");
    CHECK(std::holds_alternative<Plain>(kRows[plain.index].make(Context{}, plain.args)));

    struct Case {
        const char* text;
        std::int64_t n, h;
        const char* label;
    };
    for (const Case& c :
         {Case{"search", 16, 0, "search:16"}, Case{"search:32", 32, 0, "search:32"},
          Case{"search:32:0", 32, 0, "search:32"},  // a default H is not shown
          Case{"search:1:5", 1, 5, "search:1:5"}, Case{"search:16:60", 16, 60, "search:16:60"},
          Case{"search:100", 100, 0, "search:100"}}) {
        INFO(c.text);
        const PolicyChoice got = parse_policy("game", kInfos, c.text);
        CHECK(got.index == 1);
        CHECK(got.args[0] == c.n);
        CHECK(got.args[1] == c.h);
        CHECK(got.label == c.label);
        const Made m = kRows[got.index].make(Context{}, got.args);
        REQUIRE(std::holds_alternative<Search>(m));
        CHECK(std::get<Search>(m).budget == c.n);
        CHECK(std::get<Search>(m).horizon == c.h);
    }
}

TEST_CASE("policy parser: every bad value is one line naming it and what is valid", "[policies]") {
    struct Case {
        const char* text;
        const char* says;
    };
    for (const Case& c : {Case{"search:0", "N must be a whole number from 1 to 100"},
                          Case{"search:101", "N must be a whole number from 1 to 100"},
                          Case{"search:x", "N must be"}, Case{"search:", "N must be"},
                          Case{"search:-3", "N must be"}, Case{"search:3:", "H must be"},
                          Case{"search:3:61", "H must be a whole number from 0 to 60"},
                          Case{"search:3:x", "H must be"},
                          Case{"search:1:2:3", "search takes at most 2 parameters"},
                          Case{"plain:3", "plain takes no parameters (search does: search[:N[:H]]"},
                          Case{"nosuch", "unknown policy 'nosuch' (valid: plain, search)"},
                          Case{"serch:3", "unknown policy 'serch:3' (did you mean 'search'?)"}}) {
        INFO(c.text);
        const std::string e = error_of(c.text);
        const std::string quoted = std::string("'").append(c.text).append("'");
        CHECK(e.find("game: ") == 0);
        CHECK(e.find(quoted) != std::string::npos);
        CHECK(e.find(c.says) != std::string::npos);
        CHECK(std::count(e.begin(), e.end(), '\n') == 0);
    }
    // What is valid, in full: every parameter's range and default.
    CHECK(error_of("search:0") ==
          "game: policy 'search:0' is not valid: N must be a whole number from 1 to 100 "
          "(search[:N[:H]]: N simulations from 1 to 100, default 16; H turns from 0 to 60, "
          "default 0)");
}

TEST_CASE("policy parser: decimal and named parameters", "[policies]") {
    static constexpr std::string_view kKinds[] = {"fast", "slow"};
    static constexpr PolicyParam kParams[] = {{"N", "iterations", 1, 100, 10},
                                              {"C", "exploration", 0, 250, 141, 2},
                                              {"kind", "policy", 0, 0, 1, 0, kKinds}};
    static constexpr PolicyInfo kTree[] = {{"tree", "a search", kParams}};
    CHECK(policy_table_error(kTree).empty());
    struct Case {
        const char* text;
        std::int64_t n, c, kind;
        const char* label;
    };
    for (const Case& k :
         {Case{"tree", 10, 141, 1, "tree:10"}, Case{"tree:5:0.5", 5, 50, 1, "tree:5:0.5"},
          Case{"tree:5:2", 5, 200, 1, "tree:5:2"}, Case{"tree:5:1.41", 5, 141, 1, "tree:5"},
          Case{"tree:kind=fast", 10, 141, 0, "tree:10:kind=fast"},
          Case{"tree:7:0:kind=slow", 7, 0, 1, "tree:7:0"}}) {
        INFO(k.text);
        const PolicyChoice got = parse_policy("game", kTree, k.text);
        CHECK(got.args[0] == k.n);
        CHECK(got.args[1] == k.c);
        CHECK(got.args[2] == k.kind);
        CHECK(got.label == k.label);
    }
    const auto error = [&](const char* text) {
        try {
            parse_policy("game", kTree, text);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error("tree:5:2.51").find("C must be a number with at most 2 decimals from 0 to 2.5") !=
          std::string::npos);
    CHECK(error("tree:5:0.125").find("C must be") != std::string::npos);
    CHECK(error("tree:5:.5").find("C must be") != std::string::npos);
    CHECK(error("tree:kind=medium").find("kind must be one of fast, slow") != std::string::npos);
    CHECK(error("tree:kind=fast:kind=slow").find("kind is given twice") != std::string::npos);
    CHECK(error("tree:speed=3").find("tree has no parameter 'speed'") != std::string::npos);
    CHECK(error("tree:kind=fast:5").find("before any NAME=VALUE") != std::string::npos);
    CHECK(error("tree:0").find("(tree[:N[:C]][:kind=NAME]: N iterations from 1 to 100, default "
                               "10; C exploration from 0 to 2.5, default 1.41; kind policy: one "
                               "of fast, slow, default slow)") != std::string::npos);
}

TEST_CASE("policy parser: a two-seat game reads NAME:KEY=CHOICE as a name, not a seat",
          "[policies]") {
    static constexpr std::string_view kKinds[] = {"fast", "slow"};
    static constexpr PolicyParam kParams[] = {{"N", "iterations", 1, 100, 10},
                                              {"kind", "policy", 0, 0, 1, 0, kKinds}};
    static constexpr PolicyInfo kTree[] = {{"tree", "a search", kParams}};
    const std::array<std::string_view, 2> seats{"a", "b"};
    auto labels = [&](const std::vector<std::string>& args) {
        return seats_label(seats, pick_seat_policies("game", seats, kTree, args));
    };
    CHECK(labels({"tree:5:kind=fast"}) == "a=tree:5:kind=fast b=tree:5:kind=fast");
    CHECK(labels({"b=tree:kind=fast"}) == "a=tree:10 b=tree:10:kind=fast");
    CHECK_THROWS_WITH(labels({"tree:kind=medium"}), Catch::Contains("kind must be one of"));
}

TEST_CASE("policy parser: one seat, or SEAT=NAME per seat", "[policies]") {
    CHECK(pick_policy("game", kInfos, {}).label == "plain");
    CHECK(pick_policy("game", kInfos, {"search:4"}).label == "search:4");
    CHECK_THROWS_WITH(pick_policy("game", kInfos, {"plain", "search"}),
                      "game has one seat: give --policy once, not 2 times");

    const std::array<std::string_view, 2> seats{"a", "b"};
    auto labels = [&](const std::vector<std::string>& args) {
        return seats_label(seats, pick_seat_policies("game", seats, kInfos, args));
    };
    CHECK(labels({}) == "a=plain b=plain");
    CHECK(labels({"search:4:2"}) == "a=search:4:2 b=search:4:2");
    CHECK(labels({"b=search:5"}) == "a=plain b=search:5");
    CHECK(labels({"b=search", "a=search:7:1"}) == "a=search:7:1 b=search:16");
    CHECK_THROWS_WITH(labels({"c=plain:4"}),
                      "game: --policy 'c=plain:4': unknown seat 'c' (valid: a, b)");
    CHECK_THROWS_WITH(labels({"a=plain", "a=search"}), "game: --policy gives seat 'a' twice");
    CHECK_THROWS_WITH(labels({"search:4", "b=plain"}),
                      "game: --policy 'search:4' names both seats; give it alone, or SEAT=NAME "
                      "per seat");
    CHECK_THROWS_WITH(labels({"b=search:0"}), Catch::Contains("policy 'search:0' is not valid"));
}

TEST_CASE("policy tables: mistakes are found when the program starts", "[policies]") {
    CHECK(policy_table_error(kInfos).empty());
    const PolicyParam bad_default[] = {{"N", "simulations", 1, 10, 0}};
    const PolicyParam six[] = {{"A", "a", 0, 1, 0}, {"B", "b", 0, 1, 0}, {"C", "c", 0, 1, 0},
                               {"D", "d", 0, 1, 0}, {"E", "e", 0, 1, 0}, {"F", "f", 0, 1, 0}};
    static_assert(std::size(six) == kMaxPolicyParams + 1);
    constexpr std::string_view kTwo[] = {"x", "y"};
    const PolicyParam bad_choice[] = {{"R", "policy", 0, 0, 2, 0, kTwo}};
    const PolicyParam named_first[] = {{"R", "policy", 0, 0, 0, 0, kTwo}, {"A", "a", 0, 1, 0}};
    const std::vector<std::pair<std::vector<PolicyInfo>, std::string>> cases = {
        {{{"x", ""}, {"x", ""}}, "two policies are called 'x'"},
        {{{"", ""}}, "policy 0 has no name"},
        {{{"a:b", ""}}, "no ':' or '='"},
        {{{"x", "", bad_default}}, "a default outside its range"},
        {{{"x", "", six}}, "more than 5 parameters"},
        {{{"x", "", bad_choice}}, "a default outside its range"},
        {{{"x", "", named_first}}, "positional parameters come first"},
    };
    for (const auto& [table, says] : cases) {
        INFO(says);
        CHECK(policy_table_error(table).find(says) != std::string::npos);
    }
    for (const auto& g : games()) {
        INFO(g.name);
        CHECK(policy_table_error(g.policies).empty());
    }
}

TEST_CASE("every game's policies are named as before: parameters, defaults and seats",
          "[policies]") {
    struct Case {
        const char* game;
        std::vector<std::string> args;
        const char* label;
    };
    for (const Case& c :
         {Case{"bosconian", {}, "rules"}, Case{"fpb", {}, "cover-and-carry"},
          Case{"fpb", {"rollout"}, "rollout:16"}, Case{"fpb", {"rollout:3"}, "rollout:3"},
          Case{"naval", {}, "a=gunner b=gunner"},
          Case{"naval", {"a=rollout", "b=gunner-no-grape"}, "a=rollout:8 b=gunner-no-grape"},
          Case{"naval", {"rollout:2:1"}, "a=rollout:2:1 b=rollout:2:1"},
          Case{"naval", {"b=rollout:8:0"}, "a=gunner b=rollout:8"},
          Case{"dimension-duel", {"tau=aggressor"}, "tau=aggressor kaon=dice"},
          Case{"msc", {}, "a=turtle/strike b=turtle/strike"},
          Case{"msc", {"b=fast/raid/keep-speed"}, "a=turtle/strike b=fast/raid/keep-speed"}}) {
        INFO(c.game);
        CHECK(find_game(c.game).prepare({}, c.args)->policy == c.label);
    }
    // Small chunks for the searching policies, whose playouts cost thousands of games.
    CHECK(find_game("fpb").prepare({}, {"rollout:2"})->chunk_size == 64);
    CHECK(find_game("fpb").prepare({}, {"random"})->chunk_size == 256);
    CHECK(find_game("naval").prepare({}, {"b=rollout:2"})->chunk_size == 16);
    CHECK(find_game("naval").prepare({}, {"boarder"})->chunk_size == 64);
}
