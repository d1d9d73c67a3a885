#include <iostream>

#include "sim/cli.hpp"

int main(int argc, char** argv) { return odds::odds_main(argc, argv, std::cout, std::cerr); }
