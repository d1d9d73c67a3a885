// The processes that run one command together, each the same search (odds tune under mpirun,
// sim/cli/mpi.cpp): this one's rank among `size`, and a collective call every rank makes alike,
// in the same order, that hands every rank every rank's `mine`, in rank order. Nothing in sim/
// knows it is MPI: sim/cli/mpi.cpp makes the team.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace odds::sim {

struct Team {
    int rank = 0, size = 1;
    std::function<std::vector<std::string>(const std::string& mine)> all_gather;
};

}  // namespace odds::sim
