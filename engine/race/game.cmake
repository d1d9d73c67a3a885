# Race, the tests' tiny game: which of this folder's files belongs to which layer
# (docs/adding-a-game.md).
odds_game(
  KERNEL race.cpp                                   # the rules (R1-R4): includes no policy, no CLI
  SIM    register.cpp shape_run.cpp exact.cpp                     # the registry entry and the exact solver
  TESTS  test_race.cpp test_mcts.cpp test_shape.cpp)
