// One MPI_Alltoall or MPI_Alltoallv call of an application, run by a catalog algorithm on the
// caller's own buffers: what the C API (c_api.h) and the LD_PRELOAD interposer share.
//
// The call becomes an ExchangeLayout in bytes (counts × type size, displacements × type extent)
// over the caller's buffers and runs on MpiComm like every a2a-mpi run. Copies are made only where
// the standard's semantics or the datatype need them: MPI_IN_PLACE (the receive blocks are copied
// as the send side before anything is received) and non-contiguous datatypes (packed with
// MPI_Pack into a staging buffer, unpacked with MPI_Unpack; datatype_blocks.hpp).
//
// Every rank must take the same path, or the job hangs: each decision is made from values that
// are equal on every rank (P, the choice, the collective) or agreed by one small allreduce
// (whether an MPI_Alltoallv is uniform, balanced or packed in rank order — asked only when the
// algorithm's applicability depends on it; the mean block size — asked only when a tuning table's
// rows depend on it). Cases the library does not handle — inter-communicators, an algorithm that
// does not apply to the exchange, a parameter out of range for the communicator — run the
// vendor's call with the caller's own arguments, logged at A2A_LOG=info: never a wrong answer.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/function_ref.hpp"
#include "mpi/algorithm_choice.hpp"
#include "mpi/mpi_comm.hpp"

namespace a2a::mpi {

struct AlltoallCall {
  Collective collective = Collective::alltoallv;
  const void* sendbuf = nullptr;                  // may be MPI_IN_PLACE
  std::vector<std::int64_t> sendcounts, sdispls;  // elements of sendtype (unused when in place)
  MPI_Datatype sendtype = MPI_DATATYPE_NULL;
  void* recvbuf = nullptr;
  std::vector<std::int64_t> recvcounts, rdispls;
  MPI_Datatype recvtype = MPI_DATATYPE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;
  bool nonblocking = false;  // MPI_Ialltoall(v), run on a helper thread (nonblocking.hpp)
};

// "MPI_Alltoallv", "MPI_Ialltoall", ...: the function the application called.
std::string call_name(const AlltoallCall& call);

// The arguments of MPI_Alltoallv / MPI_Alltoall as a call (MPI_Alltoall's block i is at
// i × count elements). Send arguments are not read when sendbuf is MPI_IN_PLACE.
AlltoallCall alltoallv_call(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
AlltoallCall alltoall_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

// Runs the call with the algorithm `choice` names for it, or with `vendor` (the library's own
// call on the caller's arguments). Returns an MPI error code. Invalid arguments (negative counts,
// overlapping receive blocks, MPI_DATATYPE_NULL) go to the communicator's error handler with
// MPI_ERR_ARG; an error inside an algorithm aborts the job with one line.
// `context`: the communicator's a2a context; null for the one context_for(call.comm) caches (a
// non-blocking call brings its helper thread's own).
int run_call(const AlltoallCall& call, const AlgorithmChoice& choice, FunctionRef<int()> vendor,
             const Context* context = nullptr);

}  // namespace a2a::mpi
