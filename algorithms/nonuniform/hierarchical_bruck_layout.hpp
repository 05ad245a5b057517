// Index arithmetic of hierarchical_bruck's inter-node phase (hierarchical_bruck.cpp), used by the
// algorithm, its model and the unit tests. Inline, integer only, no MPI.
//
// P = N·Q ranks (parlinna_layout.hpp's Hierarchy). The ranks with local index g on the N nodes run
// the radix exchange of radix_exchange.hpp with node distances; the column from node a to node b
// has Q members, member m the block from (a, m) to (b, g).
#pragma once

#include <cstdint>

#include "algorithms/nonuniform/parlinna_layout.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"

namespace a2a::hierarchical_layout {

using parlinna::Hierarchy;

// Member m of the column from node `src_node` to node `dst_node`, for the ranks with h's local
// index.
inline BlockId inter_node_block(const Hierarchy& h, int src_node, int dst_node, int m) {
  return {h.rank_of(src_node, m), h.rank_of(dst_node, h.local)};
}

// The same members as one run of blocks (the Q sources of a node are consecutive ranks), for
// size-only backends.
inline BlockRun inter_node_run(const Hierarchy& h, int src_node, int dst_node) {
  return {inter_node_block(h, src_node, dst_node, 0), 1, 0, h.ranks_per_node};
}

// The outbox slot (ParLinNa staggered's layout, own_column_slot = false) where phase 1 left
// member m ≠ g of a column this rank starts: the row of its destination node, at m's local
// distance from this rank. Member g, this rank's own block, is still in the send buffer.
inline std::int64_t outbox_slot(const parlinna::OutboxLayout& outbox, int dst_node, int m) {
  const Hierarchy& h = outbox.h;
  const int distance = static_cast<int>(mod(m - h.local, h.ranks_per_node));
  return outbox.row_slot(parlinna::row_of_node(h, dst_node), distance);
}

// Slots for columns in transit between nodes: Q per node distance that is neither 0 nor direct
// (parlogna_indices.hpp, Fan et al., HPDC 2025, §3.3).
inline std::int64_t transit_slots(int nodes, int ranks_per_node, int node_radix) {
  return std::int64_t{radix::temp_slots(nodes, node_radix)} * ranks_per_node;
}
// The slot of member m of the column at node distance o; `slot_of_distance` is
// radix::temp_slot(o, node_radix) (or radix::TempSlots, its cached form).
inline std::int64_t transit_slot(int slot_of_distance, int ranks_per_node, int m) {
  return std::int64_t{slot_of_distance} * ranks_per_node + m;
}

}  // namespace a2a::hierarchical_layout
