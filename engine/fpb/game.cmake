# Full Plastic Bodybag: Heroes: which of this folder's files belongs to which layer
# (docs/adding-a-game.md).
odds_game(
  KERNEL fpb.cpp position.cpp                       # the rules (H1-H8), positions: no policy, no CLI
  SIM    register.cpp                                             # the registry entry
  TESTS  test_rules.cpp test_stats.cpp test_positions.cpp test_mcts.cpp
  BENCH  bench.cpp)
