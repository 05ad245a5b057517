// MPI_Ialltoall(v) run by a catalog algorithm (issue 17). A non-blocking collective must progress
// while the application does anything else — computes, or blocks in another MPI call that waits for
// a peer still inside the collective — so it cannot run in the calling thread, neither at the call
// nor when the request is waited for. Each communicator gets one helper thread that runs its
// non-blocking all-to-alls one after another, in call order (the order MPI guarantees is the same
// on every rank), on a private duplicate of the communicator made with MPI_Comm_idup at the first
// call (so the call itself never blocks) and with its own pool of temporaries. The application
// receives a generalized request (MPI_Grequest_start) that the helper completes; MPI_Wait, MPI_Test
// and the rest work on it unchanged.
//
// Needs MPI_THREAD_MULTIPLE on every rank (the helper thread calls MPI while the application
// does); the interposer checks that at MPI_Init and otherwise passes non-blocking calls to the
// vendor, logging why.
#pragma once

#include <mpi.h>

#include <functional>

#include "mpi/algorithm_choice.hpp"
#include "mpi/alltoall_call.hpp"

namespace a2a::mpi {

// Queues `call` on its communicator's helper thread and sets *request to a generalized request
// completed when the call has run. `vendor` runs the library's own blocking call on the given
// communicator (the helper's duplicate) with the application's arguments, for the per-call
// fallbacks. `choice` must outlive the call. Returns an MPI error code.
int start_nonblocking(AlltoallCall call, const AlgorithmChoice& choice,
                      std::function<int(MPI_Comm)> vendor, MPI_Request* request);

}  // namespace a2a::mpi
