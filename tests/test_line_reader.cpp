// The line-record reader every file format odds defines shares (engine/line_reader.hpp).
#include <catch2/catch.hpp>

#include <functional>
#include <string>

#include "engine/line_reader.hpp"

using odds::LineReader;

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
    LineReader r("# a comment\n\nship 1  A\t3 # trailing\r\n   \nturn 4", "p.txt");
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
    LineReader r("hp 7x\nhp\n", "pos.txt");
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
    LineReader big("n 99999999999999999999999\n", "b");
    REQUIRE(big.next());
    CHECK(failure([&] { (void)big.integer(1, 0, 9, "n"); }) ==
          "b:1: n '99999999999999999999999' is not a whole number in 0..9");
}

TEST_CASE("line reader: comments by the format's rule, a line's rest and value as written",
          "[position]") {
    using C = LineReader::Comments;
    LineReader first("# note\nset a=1 # kept\n  #x y\r\n", "b", C::first_word);
    REQUIRE(first.next());
    CHECK(first.line() == 2);
    CHECK(first.rest(1) == "a=1 # kept");
    CHECK(first.rest(3) == "kept");
    CHECK(first.rest(5).empty());
    CHECK_FALSE(first.next());
    LineReader none("arg  --x=#1 y\r\nkey\n", "s", C::none);
    REQUIRE(none.next());
    CHECK(none.value() == " --x=#1 y\r");  // verbatim: the CR kept
    CHECK(none.rest(1) == "--x=#1 y\r");
    REQUIRE(none.next());
    CHECK(none.value().empty());
    CHECK(failure([&] { none.fail("bad"); }) == "s:2: bad");
    CHECK(std::string(LineReader::error_at("f", 9, "why").what()) == "f:9: why");
}

TEST_CASE("split_words: one splitter, every blank std::isspace knows", "[position]") {
    CHECK(odds::split_words("") == std::vector<std::string>{});
    CHECK(odds::split_words(" \t a=1\vb=2\f\r\nc ") == std::vector<std::string>{"a=1", "b=2", "c"});
}
