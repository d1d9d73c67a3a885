// One function per game, each defined in sim/games/<game>.cpp; the registry lists them.
#pragma once

#include "sim/registry.hpp"

namespace odds {

GameEntry bosconian_entry();
GameEntry dimension_duel_entry();
GameEntry fpb_entry();
GameEntry msc_entry();
GameEntry naval_entry();

}  // namespace odds
