# Dimension Duel: which of this folder's files belongs to which layer (docs/adding-a-game.md).
odds_game(
  KERNEL dimension_duel.cpp position.cpp equilibrium.cpp  # the rules (D1-D7), positions, equilibrium
  SIM    register.cpp exact.cpp                     # the registry entry and the exact solver
  TESTS  test_rules.cpp test_exact.cpp test_positions.cpp test_equilibrium.cpp test_mcts.cpp
  BENCH  bench.cpp)
