// One a2a Context (private duplicate + node layout, mpi_comm.hpp) per communicator the
// application calls an all-to-all on, made at the first call and cached on the communicator as an
// MPI attribute: freed with it (MPI_Comm_free calls our delete callback), never mixed up with a
// later communicator that reuses the handle, and all freed at MPI_Finalize while MPI still works.
#pragma once

#include <mpi.h>

#include "mpi/mpi_comm.hpp"

namespace a2a::mpi {

// Collective over `comm` on its first call (MPI_Comm_dup, node detection); a lookup afterwards.
// The context's temporary-memory pool is capped by pool_cap_setting().
const Context& context_for(MPI_Comm comm);

// A2A_POOL_MAX (parse_pool_cap's syntax), or kDefaultPoolCap when unset. Throws InvalidParameter
// naming the variable for a malformed value (the interposer reports it at MPI_Init, the C API at
// a2a_config_create).
Bytes pool_cap_setting();

// Runs `hook` once inside MPI_Finalize, before MPI tears anything down (an attribute on
// MPI_COMM_SELF, whose delete callbacks the standard runs first). Hooks run in reverse order of
// registration; the contexts are freed after every hook.
void at_finalize(void (*hook)());

}  // namespace a2a::mpi
