// Index arithmetic of ParLinNa (Fan et al., HPDC 2025, §4, Alg. 2 and 3), shared by
// parlinna_coalesced and parlinna_staggered and used by the unit tests. Inline, integer only, no
// MPI.
//
// P = N·Q ranks on N nodes of Q ranks; rank p is (node n = p / Q, local g = p mod Q).
// Phase 1 (intra-node) is the radix exchange of radix_exchange.hpp on the node's Q ranks, in which
// the column at local distance o = (g_src − g_dst) mod Q stands for N blocks, one per node m:
// from (n, g_src) to (m, g_dst). Afterwards rank (n, g) holds, for every node m, the Q blocks from
// (n, 0..Q−1) to (m, g): the column at distance o holds the one from (n, (g + o) mod Q).
// Phase 2 (inter-node) round k = 1..N−1 sends node (n − k) mod N its Q blocks and receives from
// node (n + k) mod N, always between ranks with the same local index g.
#pragma once

#include <cstdint>

#include "algorithms/comm.hpp"
#include "algorithms/digits.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"

namespace a2a::parlinna {

struct Hierarchy {
  int ranks_per_node = 1;  // Q
  int nodes = 1;           // N = P / Q
  int node = 0;            // n
  int local = 0;           // g

  static Hierarchy of(int rank, int ranks, int ranks_per_node) {
    return {ranks_per_node, ranks / ranks_per_node, rank / ranks_per_node, rank % ranks_per_node};
  }
  int rank_of(int node_index, int local_index) const {
    return node_index * ranks_per_node + local_index;
  }
};

// Member m of the phase-1 column that local rank `src` sends to local rank `dst`.
inline BlockId column_block(const Hierarchy& h, int src, int dst, int m) {
  return {h.rank_of(h.node, src), h.rank_of(m, dst)};
}

// Inter-node round k sends to node (n − k) mod N: the "row" of node m is k = (n − m) mod N.
inline int row_of_node(const Hierarchy& h, int m) {
  return static_cast<int>(mod(h.node - m, h.nodes));
}
inline int node_of_row(const Hierarchy& h, int k) {
  return static_cast<int>(mod(h.node - k, h.nodes));
}

// Inter-node round k: this rank sends to the rank with the same local index on node (n − k) mod N
// and receives from the one on node (n + k) mod N.
inline int send_peer(const Hierarchy& h, int k) {
  return h.rank_of(node_of_row(h, k), h.local);
}
inline int recv_peer(const Hierarchy& h, int k) {
  return h.rank_of(static_cast<int>(mod(h.node + k, h.nodes)), h.local);
}

// The block at position o of the message for row k: from (n, (g + o) mod Q) to (node_of_row(k), g).
inline BlockId outgoing_block(const Hierarchy& h, int k, int o) {
  const int Q = h.ranks_per_node;
  return {h.rank_of(h.node, static_cast<int>(mod(h.local + o, Q))),
          h.rank_of(node_of_row(h, k), h.local)};
}

// The block at position o of the message from node (n + k) mod N: the sender's outgoing_block(k,
// o).
inline BlockId incoming_block(const Hierarchy& h, int k, int o) {
  const int Q = h.ranks_per_node;
  const int from_node = recv_peer(h, k) / Q;
  return {h.rank_of(from_node, static_cast<int>(mod(h.local + o, Q))), h.rank_of(h.node, h.local)};
}

// The blocks of the inter-node rows k = first..first+rows−1 (outgoing_block of every position o),
// as runs for size-only backends (BlockRun): per source, the destinations of consecutive rows are
// one node (Q ranks) apart going down; the sources (n, (g + o) mod Q) wrap inside the node, so a
// row's Q sources are two runs.
template <typename F>
void outgoing_runs(const Hierarchy& h, int first, int rows, F&& f) {
  const int Q = h.ranks_per_node;
  const int P = Q * h.nodes;
  const int dst = h.rank_of(node_of_row(h, first), h.local);
  if (rows == 1) {
    const int above = Q - h.local;  // sources g..Q−1, then 0..g−1
    f(BlockRun{{h.rank_of(h.node, h.local), dst}, 1 % P, 0, above});
    if (h.local > 0) f(BlockRun{{h.rank_of(h.node, 0), dst}, 1 % P, 0, h.local});
    return;
  }
  for (int g = 0; g < Q; ++g)
    f(BlockRun{{h.rank_of(h.node, g), dst}, 0, static_cast<int>(mod(-Q, P)), rows});
}

// Slots (of N bytes, N the global largest block) of the temporary buffer, called the outbox:
//   rows k = 1..N−1: the blocks for node (n − k) mod N, at position o; coalesced keeps a slot for
//     o = 0 too (the rank's own block, copied in by the rearrangement), staggered sends that one
//     straight from the send buffer and has no slot for it;
//   then B = Q − (K + 1) transit slots (Fan et al., HPDC 2025, §3.3) for the member of an
//   in-transit column that
//     stays on this node (m = n); the other members wait in their own row slot, which is where
//     their last hop would put them anyway.
// Rows come in the order the inter-node rounds send them, so the coalesced rearrangement can
// compact them in place, front to back, and the sender can track each row's start with one
// running offset.
struct OutboxLayout {
  Hierarchy h;
  int intra_radix = 2;  // r of phase 1
  bool own_column_slot = true;

  int row_length() const { return own_column_slot ? h.ranks_per_node : h.ranks_per_node - 1; }
  std::int64_t row_slots() const { return std::int64_t{h.nodes - 1} * row_length(); }
  int transit_slots() const { return radix::temp_slots(h.ranks_per_node, intra_radix); }
  std::int64_t slots() const { return row_slots() + transit_slots(); }

  std::int64_t row_slot(int k, int o) const {
    return std::int64_t{k - 1} * row_length() + (own_column_slot ? o : o - 1);
  }
  std::int64_t transit_slot(int o) const { return row_slots() + radix::temp_slot(o, intra_radix); }

  // Where member m of the column at distance o waits between hops.
  std::int64_t in_transit_slot(int o, int m) const {
    return m == h.node ? transit_slot(o) : row_slot(row_of_node(h, m), o);
  }
};

}  // namespace a2a::parlinna
