#include <iostream>

#include "sim/cli/cli.hpp"
#ifdef ODDS_MPI
#include "sim/cli/mpi.hpp"
#endif

int main(int argc, char** argv) {
#ifdef ODDS_MPI
    return odds::odds_mpi_main(argc, argv);
#else
    return odds::with_stdout_flushed(odds::odds_main(argc, argv, std::cout, std::cerr));
#endif
}
