// The odds commands, one function each (sim/cli*.cpp).
#pragma once

#include <string>
#include <vector>

#include "sim/cli_common.hpp"

namespace odds::cli {

int cmd_list(const std::vector<std::string>& args, Io io);
int cmd_run(const std::vector<std::string>& args, Io io);
int cmd_exact(const std::vector<std::string>& args, Io io);
int cmd_state(const std::vector<std::string>& args, Io io);
int cmd_rules(const std::vector<std::string>& args, Io io);       // sim/cli.cpp
int cmd_dice(const std::vector<std::string>& args, Io io);        // sim/cli_dice.cpp
int cmd_sweep(const std::vector<std::string>& args, Io io);       // sim/cli_sweep.cpp
int cmd_tune(const std::vector<std::string>& args, Io io);        // sim/cli_tune.cpp
int cmd_baseline(const std::vector<std::string>& args, Io io);    // sim/cli_baseline.cpp
int cmd_check(const std::vector<std::string>& args, Io io);       // sim/cli_baseline.cpp
int cmd_compare(const std::vector<std::string>& args, Io io);     // sim/cli_compare.cpp
int cmd_tournament(const std::vector<std::string>& args, Io io);  // sim/cli_tournament.cpp
int cmd_skill(const std::vector<std::string>& args, Io io);       // sim/cli_skill.cpp
int cmd_shape(const std::vector<std::string>& args, Io io);       // sim/cli_shape.cpp
int cmd_restrict(const std::vector<std::string>& args, Io io);    // sim/cli_restrict.cpp
int cmd_merge(const std::vector<std::string>& args, Io io);       // sim/cli_merge.cpp
int cmd_version(const std::vector<std::string>& args, Io io);     // sim/cli.cpp
int cmd_report(const std::vector<std::string>& args, Io io);      // sim/cli_report.cpp

}  // namespace odds::cli
