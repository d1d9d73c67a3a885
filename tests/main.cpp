// The test programs' main: Catch2's, and `odds_tests odds ARGS...` runs the odds command line
// with the test programs' registry (the games of ODDS_GAMES and ODDS_TEST_GAMES), which is how
// scripts/rebaseline records the test games' baselines.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <iostream>
#include <string_view>

#include "sim/cli/cli.hpp"

int main(int argc, char* argv[]) {
    if (argc > 1 && std::string_view(argv[1]) == "odds")
        return odds::odds_main(argc - 1, argv + 1, std::cout, std::cerr);
    return Catch::Session().run(argc, argv);
}
