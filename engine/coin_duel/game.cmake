odds_game(
  KERNEL coin_duel.cpp
  SIM    register.cpp
  TESTS  test_rules.cpp)
