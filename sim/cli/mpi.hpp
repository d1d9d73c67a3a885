// odds under MPI (CMake option ODDS_MPI): `mpirun -np P odds run ...` plays the command's chunks
// on P ranks, rank r as shard r+1 of P (sim/executor.hpp); the shards' exact states are gathered
// to rank 0, which merges them and writes the files: byte for byte one process's.
#pragma once

namespace odds {

// main() of the MPI build: MPI_Init, the command shared out over the ranks, MPI_Finalize.
int odds_mpi_main(int argc, char** argv);

}  // namespace odds
