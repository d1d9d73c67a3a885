// The generic tree search (policies/mcts.hpp) as a Naval Duel policy: legal play to the end,
// the honest sample of what it cannot see (the opponent's hand and the deck: N4, N9c),
// determinism, and strength against the rules of thumb. (No allocation: tests/test_alloc.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>

#include "engine/dice.hpp"
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::naval;

namespace {

Options small_sea() {
    Options o;
    o.length = 10;
    o.breadth = 8;
    o.islands = 6;
    o.ships = 3;
    o.max_turns = 30;
    return o;
}

std::array<int, kCardKinds> cards_of(const std::uint8_t* c, int n) {
    std::array<int, kCardKinds> count{};
    for (int k = 0; k < n; ++k) ++count[c[k]];
    return count;
}

}  // namespace

TEST_CASE("naval mcts answers every question with a legal choice, to the end of the game (N2-N9)",
          "[naval][mcts]") {
    const Options o = small_sea();
    const Game::Options go;
    naval::Mcts searcher(64, 1.41, Basic{Gunner{}}, 1, false);
    Random random;
    Dice dice(11);
    std::vector<Game::Choice> legal(Game::kMaxChoices);
    int searched = 0;
    for (int g = 0; g < 3; ++g) {
        State s = Game::start(opening(o), dice);
        while (!Game::over(s, go)) {
            const bool mine = s.actor == 0;
            const Game::Choice c =
                mine ? Game::decide(s, go, searcher, dice) : Game::decide(s, go, random, dice);
            if (mine) {
                const int n = Game::legal(s, go, legal.data());
                INFO("step " << static_cast<int>(s.step));
                REQUIRE(std::find(legal.begin(), legal.begin() + n, c) != legal.begin() + n);
                searched += n <= 64 / 4 && n > 1;
            }
            Game::apply(s, go, c, dice);
        }
        CHECK(s.winner != -2);
    }
    CHECK(searched > 100);
}

TEST_CASE(
    "naval mcts samples what it cannot see: the deck's order, and the opponent's hand "
    "unless hands are open (N4, N9c)",
    "[naval][mcts]") {
    Gunner g;
    Dice dice(5);
    State s = setup(Options{}, g, g, dice);
    draw_phase(s, g, g, dice);
    draw_phase(s, g, g, dice);  // two cards each
    REQUIRE(s.hand_n[0] == 2);
    const auto unseen = [&](const State& x) {  // side A's view: B's hand and the deck
        auto c = cards_of(x.deck.data(), x.deck_n);
        const auto h = cards_of(x.hand[1].data(), x.hand_n[1]);
        for (int k = 0; k < kCardKinds; ++k) c[k] += h[k];
        return c;
    };
    int hand_changed = 0, open_hand_changed = 0, deck_changed = 0;
    for (int i = 0; i < 200; ++i) {
        State hidden = s, open = s;
        Game::determinize(hidden, Game::Options{}, 0, dice);
        Game::determinize(open, Game::Options{.open_hands = true}, 0, dice);
        // What A sees is kept: its own hand, the discards, the counts; the unseen cards are the
        // same cards, dealt again.
        CHECK(hidden.hand[0] == s.hand[0]);
        CHECK(hidden.hand_n == s.hand_n);
        CHECK(hidden.deck_n == s.deck_n);
        CHECK(hidden.discards == s.discards);
        CHECK(unseen(hidden) == unseen(s));
        CHECK(open.hand[1] == s.hand[1]);
        CHECK(unseen(open) == unseen(s));
        hand_changed += hidden.hand[1] != s.hand[1];
        open_hand_changed += open.hand[1] != s.hand[1];
        deck_changed += open.deck != s.deck;
    }
    CHECK(hand_changed > 150);
    CHECK(open_hand_changed == 0);
    CHECK(deck_changed > 190);
}

TEST_CASE("naval mcts depends only on the seed: 1 and 2 threads, identical tallies",
          "[naval][mcts]") {
    const auto run = find_game("naval").prepare(
        {{"width", "10"}, {"height", "8"}, {"ships", "3"}, {"max_turns", "20"}},
        {"a=mcts:24", "b=boarder"});
    CHECK(test::same_on_1_and_2_threads(*run, 8, 4, 2));
}
