// What `vendor` means in simulation: a named MPI library's default MPI_Alltoallv choice, expressed
// as a catalog configuration (the same code that runs on real MPI).
#pragma once

#include <string>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/registry.hpp"

namespace a2a::sim {

// Known names, for error messages and `a2a list`.
const std::vector<std::string>& vendor_names();

// The known names as one comma-separated list ("openmpi, mpich, cray-mpich, fujitsu-mpi").
std::string known_vendors();

// "openmpi": Open MPI coll/tuned's fixed decision for alltoallv (communicator size only):
//   P < 4 pairwise; < 64 basic_linear; < 128 pairwise; < 256 basic_linear; < 1024 pairwise;
//   else basic_linear (coll_tuned_decision_fixed.c).
// "mpich": MPIR_Alltoallv_intra_scattered with MPIR_CVAR_ALLTOALL_THROTTLE = 32 (its default).
// "cray-mpich": HPE Cray MPICH's MPI_Alltoallv as measured, not as written (its source is not
//   public): scattered with batch 1 waiting for each step's receive only (lazy_sends=1). Cray
//   MPICH 8.1.16 on Polaris at P = 2,048 took 9.55, 9.06, 10.4 ms for blocks uniform in [0, 16 B],
//   [0, 128 B], [0, 1 KiB], about 4.5 us a step whatever the size, where MPICH's scattered with
//   batch 1 took 8.41, 8.81, 17.0 ms (its sends above the inject size wait for their
//   acknowledgement) and batch 32 2.76, 2.85, 4.06 ms, in the same job
//   (data/measured/fan2025_polaris_logs_alltoallv.csv). Fitted on those three points.
// "fujitsu-mpi": Fujitsu MPI on Fugaku (Open MPI based; Fan et al., HPDC 2025, §5) as its
//   measured behaviour and its base say: Open MPI's pairwise exchange at every size. Fan et al.,
//   §5.3, Fig. 11, measured Fugaku's default MPI_Alltoallv "similar" to the pairwise and exclusive-
//   or algorithms and Open MPI's linear algorithm "the worst, particularly for larger P"; and
//   Open MPI 4.0's coll/tuned fixed decision for alltoallv is pairwise whatever the size
//   ("For starters, just keep the original algorithm", coll_tuned_decision_fixed.c, v4.0.0 to
//   v4.0.7; the size rules of "openmpi" above came with 4.1.0). Which Open MPI release Fujitsu
//   MPI 4.12.0 is built on is not published; Fig. 11 is what the choice rests on.
// Throws InvalidParameter for other names.
Configuration vendor_choice(const std::string& mpi, int ranks, int ranks_per_node);

// Messages linear_vendor_alltoall posts at once per rank (MPICH's MPIR_CVAR_ALLTOALL_THROTTLE).
inline constexpr int kVendorAlltoallThrottle = 32;

// "vendor (openmpi: ompi_linear)": the `vendor` configuration's label with what it runs, so that
// a table or a memory refusal says which algorithm `vendor` stood for.
std::string vendor_label(const std::string& mpi, int ranks, int ranks_per_node);

// What Comm::vendor_alltoall means in simulation: a batched linear exchange between the two
// temporaries (MPICH's scattered with its default throttle of 32; Open MPI's linear algorithms
// differ only in order). Written against the comm interface, so every engine runs the same
// messages.
void linear_vendor_alltoall(Comm& comm, int send_temp, int recv_temp, Bytes block);

}  // namespace a2a::sim
