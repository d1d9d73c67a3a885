# Bosconian-D: which of this folder's files belongs to which layer (docs/adding-a-game.md).
odds_game(
  KERNEL bosconian.cpp                              # the rules (B1-B9): includes no policy, no CLI
  SIM    register.cpp shape_run.cpp exact.cpp shape.cpp           # the registry entry, the exact solver, shape
  TESTS  test_rules.cpp test_stats.cpp test_exact.cpp test_shape.cpp
  BENCH  bench.cpp)
