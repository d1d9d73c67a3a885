// The position reader every game's position format shares (engine/position.hpp).
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "engine/position.hpp"

using odds::PositionReader;

namespace {

std::string failure(const std::function<void()>& f) {
    try {
        f();
    } catch (const odds::UsageError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("position reader: lines of words, comments and blanks skipped", "[position]") {
    PositionReader r("# a comment\n\nship 1  A\t3 # trailing\r\n   \nturn 4", "p.txt");
    REQUIRE(r.next());
    CHECK(r.line() == 3);
    REQUIRE(r.size() == 4);
    CHECK(r.word(0) == "ship");
    CHECK(r.word(2) == "A");
    CHECK(r.word(3) == "3");
    REQUIRE(r.next());
    CHECK(r.line() == 5);
    CHECK(r.integer(1, 0, 10, "turn") == 4);
    CHECK_FALSE(r.next());
    CHECK_FALSE(r.next());
}

TEST_CASE("position reader: every mistake is one line naming file, line and word", "[position]") {
    PositionReader r("hp 7x\nhp\n", "pos.txt");
    REQUIRE(r.next());
    CHECK(failure([&] { (void)r.integer(1, 0, 150, "hit points", "D1"); }) ==
          "pos.txt:1: hit points '7x' is not a whole number in 0..150 (D1)");
    CHECK(failure([&] { (void)r.integer(1, 0, 5, "x"); }).find("'7x'") != std::string::npos);
    REQUIRE(r.next());
    CHECK(failure([&] { (void)r.word(1); }) == "pos.txt:2: 'hp' needs at least 2 words");
    CHECK(failure([&] { r.expect_words(3, "hp SIDE N"); }) ==
          "pos.txt:2: expected 3 words, got 1: hp SIDE N");
    CHECK(failure([&] { r.fail_at(1, "two lines disagree"); }) == "pos.txt:1: two lines disagree");
    CHECK_FALSE(r.next());
    CHECK(failure([&] { r.fail("no turn line"); }) == "pos.txt: no turn line");
    PositionReader big("n 99999999999999999999999\n", "b");
    REQUIRE(big.next());
    CHECK(failure([&] { (void)big.integer(1, 0, 9, "n"); }) ==
          "b:1: n '99999999999999999999999' is not a whole number in 0..9");
}
