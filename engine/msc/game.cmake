# Minimal Space Combat: The Strategic Game: which of this folder's files belongs to which layer
# (docs/adding-a-game.md).
odds_game(
  KERNEL map.cpp ships.cpp msc.cpp position.cpp     # the rules (M1-M9): includes no policy, no CLI
  SIM    register.cpp                                             # the registry entry
  TESTS  test_rules.cpp test_map.cpp test_ships.cpp test_decisions.cpp test_mcts.cpp
  BENCH  bench.cpp)

# The seed's example map, built into the kernel as a header.
file(READ ${CMAKE_CURRENT_LIST_DIR}/example-map.txt ODDS_MSC_EXAMPLE_MAP)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/example-map.txt)
configure_file(${CMAKE_CURRENT_LIST_DIR}/example_map_data.hpp.in
               ${PROJECT_BINARY_DIR}/generated/engine/msc/example_map_data.hpp @ONLY)
