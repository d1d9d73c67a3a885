# Dimension Duel: which of this folder's files belongs to which layer (docs/adding-a-game.md).
odds_game(
  KERNEL dimension_duel.cpp position.cpp equilibrium.cpp  # the rules (D1-D7), positions, equilibrium
  SIM    register.cpp shape_run.cpp exact.cpp shape.cpp           # the registry entry, the exact solver, shape
  TESTS  test_rules.cpp test_exact.cpp test_positions.cpp test_equilibrium.cpp test_mcts.cpp
         test_shape.cpp test_shape_estimate.cpp
  BENCH  bench.cpp)
