// MPI_Barrier as both simulation engines run it: MPICH's SMP-aware barrier
// (MPIR_Barrier_intra_smp, MPICH's choice for a communicator whose ranks span several nodes; Cray
// MPICH and Open MPI's hierarchical barriers have the same shape). The ranks of a node meet at
// the node's first rank through shared memory; the nodes' first ranks run a dissemination barrier
// among themselves (⌈log2 N⌉ steps, step k sending to node n + 2^k and receiving from node
// n − 2^k: Hensgen, Finkel and Manber, "Two algorithms for barrier synchronization", IJPP 1988);
// then each first rank releases its node through shared memory.
//
// Why this shape and not a dissemination over all P ranks: the barrier the authors of ParLogNa
// call after every round costs, by their own benchmark logs on Polaris, about 10, 13 and 24 us at
// P = 256, 512 and 2,048 (32 ranks per node: 3, 4 and 6 inter-node steps); a flat dissemination
// in a2a's model costs 28, 32 and 42 us there, since every one of its log2 P steps is an MPI
// message with its CPU overheads (docs/validation.md).
//
// `Ops` is the engine's: `Request post(bool receive, int peer, bool mpi)` posts a message of no
// payload — through shared memory when `mpi` is false (it costs the intra-node latency but no MPI
// call: no per-message CPU overhead, no matching), an MPI message otherwise — and
// `void wait(Request)` waits for it.
#pragma once

#include <vector>

#include "algorithms/comm.hpp"

namespace a2a::sim {

template <typename Ops>
void smp_barrier(int rank, int size, int per_node, Ops& ops) {
  const int node = rank / per_node;
  const int leader = node * per_node;
  if (rank != leader) {
    const Request arrived = ops.post(false, leader, false);
    const Request released = ops.post(true, leader, false);
    ops.wait(arrived);
    ops.wait(released);
    return;
  }
  const int end = std::min(size, leader + per_node);  // one past the node's last rank
  std::vector<Request> flags;
  for (int member = leader + 1; member < end; ++member)
    flags.push_back(ops.post(true, member, false));
  for (const Request flag : flags)
    ops.wait(flag);
  const int nodes = (size + per_node - 1) / per_node;
  for (int distance = 1; distance < nodes; distance *= 2) {
    const Request sent = ops.post(false, (node + distance) % nodes * per_node, true);
    const Request received = ops.post(true, (node - distance + nodes) % nodes * per_node, true);
    ops.wait(received);
    ops.wait(sent);
  }
  flags.clear();
  for (int member = leader + 1; member < end; ++member)
    flags.push_back(ops.post(false, member, false));
  for (const Request flag : flags)
    ops.wait(flag);
}

}  // namespace a2a::sim
