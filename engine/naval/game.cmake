# Naval Duel: which of this folder's files belongs to which layer (docs/adding-a-game.md).
odds_game(
  KERNEL naval.cpp position.cpp                     # the rules (N1-N9): includes no policy, no CLI
  SIM    register.cpp                                             # the registry entry
  TESTS  test_rules.cpp test_sim.cpp test_position.cpp test_mcts.cpp
  BENCH  bench.cpp)
