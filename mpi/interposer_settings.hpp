// The LD_PRELOAD interposer's settings, from the environment, checked at MPI_Init so that a bad
// setting is one clear error before the application runs, never a wrong result later:
// - A2A_ALLTOALLV=SPEC|auto: algorithm for MPI_Alltoallv and MPI_Ialltoallv (default: auto with
//   A2A_TUNING, else vendor);
// - A2A_ALLTOALL=SPEC|auto: the same for MPI_Alltoall and MPI_Ialltoall;
// - A2A_TUNING=FILE: the tuning table (tuning_table.hpp) auto uses;
// - A2A_RECORD=DIR: record every exchange's count matrix (recording.hpp);
// - A2A_LOG=error|warn|info|debug;
// - A2A_POOL_MAX=BYTES: cap of each communicator's temporary-memory pool (comm_contexts.hpp).
// Any other variable starting with A2A_ is an error too (a typo would otherwise do nothing).
#pragma once

#include <mpi.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mpi/algorithm_choice.hpp"
#include "mpi/recording.hpp"

namespace a2a::mpi {

struct InterposerSettings {
  std::optional<AlgorithmChoice> alltoallv, alltoall;  // empty: the vendor's call, untouched
  std::string alltoallv_text, alltoall_text;           // as given, for messages
  std::unique_ptr<Recorder> recorder;
  // The lowest thread level any rank of MPI_COMM_WORLD initialised with (set at MPI_Init): below
  // MPI_THREAD_MULTIPLE, non-blocking calls go to the vendor (nonblocking.hpp).
  int thread_level = MPI_THREAD_SINGLE;
};

// Local checks only (no communication): syntax, names, the tuning file, the record directory.
// Throws a2a::Error with a message naming the variable.
InterposerSettings read_settings();

// Checks that need the communicator: a fixed algorithm's parameters must fit MPI_COMM_WORLD (ranges
// that depend on P), and a uniform-only algorithm is no setting for MPI_Alltoallv. Throws
// a2a::Error naming the variable. An algorithm that cannot handle the world itself (bitonic_inplace
// on P not a power of two) is no error: sub-communicators may suit it, and every call it cannot
// handle falls back to the vendor's. Returns one note per such setting, for A2A_LOG=info.
std::vector<std::string> check_for_world(const InterposerSettings& settings, int ranks,
                                         int ranks_per_node);

}  // namespace a2a::mpi
