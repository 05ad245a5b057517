// What the library did with the application's all-to-alls: per collective, how many calls each
// configuration ran and how many fell back to the vendor's call and why. Fallbacks are logged at
// A2A_LOG=info the first time each reason occurs (by rank 0 of the communicator: the decisions are
// the same on every rank); at MPI_Finalize every rank prints its counts at A2A_LOG=info, so that a
// test can see that the library was really called (never a vacuous pass).
#pragma once

#include <mpi.h>

#include <string>

#include "mpi/tuning_table.hpp"

namespace a2a::mpi {

// `call`: the MPI function's name ("MPI_Alltoallv", "MPI_Ialltoallv"), one summary line each.
void note_run(const std::string& call, const std::string& label);
void note_fallback(const std::string& call, const std::string& reason, MPI_Comm comm);
// Calls that fell back to the vendor so far in this process (a2a-mpi bench --fftw reports them).
long long fallback_count();

}  // namespace a2a::mpi
