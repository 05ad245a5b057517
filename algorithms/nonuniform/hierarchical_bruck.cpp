// hierarchical_bruck — a node-aware Bruck: ParLinNa's intra-node coalescing (Fan et al., HPDC
// 2025, §4.1, Alg. 2 lines 1–19) followed, across nodes, by the two-phase radix Bruck of ParLogNa
// (Fan et al., HPDC 2025, §3, Alg. 1) in place of ParLinNa's linear inter-node phase. Splitting a
// Bruck exchange into a cheap local part and a non-local part with fewer, larger messages is the
// idea of Bienz et al., EuroMPI/USA 2022 (there for allgather; its section is not cited here
// because a2a does not follow its algorithm step by step).
// P = N·Q ranks, node n = p / Q, local index g = p mod Q; Q must divide P (checked).
//   Phase 1, intra-node: exactly ParLinNa's (parlinna.hpp): the node's Q ranks run the radix-r
//     exchange on columns of N blocks. Blocks for this node land in R; rank (n, g) then holds, for
//     every other node m, the Q blocks from (n, 0..Q−1) to (m, g) (its own in the send buffer,
//     the others in the outbox), and knows their sizes from the rounds' metadata.
//   Phase 2, inter-node: the ranks with local index g on the N nodes run the same radix exchange
//     in radix r' (node_radix) with node distances: the column from node a to node b holds the Q
//     blocks from (a, 0..Q−1) to (b, g). ⌈log_r' N⌉ digit positions, at most (r' − 1) rounds each,
//     every round a metadata message then one data message of whole columns; a column's last hop
//     delivers its Q blocks to R.
//   So each block makes at most one intra-node hop per digit of its local distance and one
//   inter-node hop per digit of its node distance: O(log Q + log N) messages per rank instead of
//   ParLinNa's N − 1 inter-node ones, at the price of forwarding Q-block columns between nodes.
// Temporary memory, slots of S bytes (S the global largest block): ParLinNa staggered's outbox,
// (N − 1)·(Q − 1) + Q − (K_Q + 1), then Q·(N − (K_N + 1)) for columns in transit between nodes
// (K_Q, K_N the rounds of either phase).
// Parameters: ranks_per_node Q (default: the machine's), radix r of phase 1 in [2, Q] (ignored
// when Q = 1), node_radix r' of phase 2 (r' ≥ N − 1 makes phase 2 a direct exchange).
// Phase labels: setup, copy (self block), intra-node, metadata and data (phase 2).
#include <optional>

#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"
#include "algorithms/nonuniform/hierarchical_bruck_layout.hpp"
#include "algorithms/nonuniform/parlinna.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"
#include "algorithms/nonuniform/radix_exchange.hpp"

namespace a2a::catalog_entries {

namespace {

using parlinna::Hierarchy;
namespace layout = a2a::hierarchical_layout;

std::vector<ParamSpec> params() {
  std::vector<ParamSpec> out = parlinna::params();
  out.pop_back();  // ParLinNa's batch: this inter-node phase has one message per round
  out.push_back({.name = "node_radix",
                 .meaning = "radix of the Bruck rounds between nodes (N-1 or more = direct)",
                 .default_value = 2,
                 .min = 2,
                 .max = ParamBound::ranks()});
  return out;
}

MessageFootprint message_footprint(const ExchangeShape& shape, const Params& params) {
  const int Q = params.get_int("ranks_per_node");
  const std::int64_t peers = footprint::radix_peers(Q, params.get_int("radix")) +
                             footprint::radix_peers(shape.ranks / Q, params.get_int("node_radix"));
  return {.in_flight = 1, .data_peers = peers, .metadata_peers = peers};
}

// Phase 2's columns (hierarchical_bruck_layout.hpp). Before their first hop they are where phase
// 1 left them.
class NodeColumns final : public radix::ColumnLayout {
 public:
  NodeColumns(const parlinna::Outbox& outbox, const TempBuffer* transit, Bytes slot_bytes,
              int node_radix)
      : h_(outbox.layout().h),
        outbox_(outbox),
        transit_(transit),
        slot_bytes_(slot_bytes),
        slots_(node_radix) {}

  int members() const override { return h_.ranks_per_node; }
  BlockId block(int src, int dst, int m) const override {
    return layout::inter_node_block(h_, src, dst, m);
  }
  BlockRun members_run(int src, int dst) const override {
    return layout::inter_node_run(h_, src, dst);
  }
  Place in_transit(int o, int m) const override {
    return transit_->at(layout::transit_slot(slots_(o), h_.ranks_per_node, m) * slot_bytes_);
  }
  Place delivered(BlockId block, int, int) const override { return Place::recv_block(block.src); }
  Place unmoved(BlockId block, int, int m) const override {
    if (m == h_.local) return Place::send_block(block.dst);
    return outbox_.slot(layout::outbox_slot(outbox_.layout(), block.dst / h_.ranks_per_node, m));
  }

 private:
  Hierarchy h_;
  const parlinna::Outbox& outbox_;
  const TempBuffer* transit_;  // null when no node distance is ever in transit
  Bytes slot_bytes_;
  radix::TempSlots slots_;
};

void inter_node(Comm& comm, const parlinna::Outbox& outbox, int node_radix) {
  const Hierarchy& h = outbox.layout().h;
  const std::int64_t transit_slots = layout::transit_slots(h.nodes, h.ranks_per_node, node_radix);
  Bytes slot_bytes = outbox.slot_bytes();
  std::optional<TempBuffer> transit;
  if (transit_slots > 0) {
    // Every rank decides alike (the counts depend on N, Q and the radices only).
    if (outbox.layout().slots() == 0) {
      comm.set_phase(phase::setup);
      slot_bytes = comm.allreduce_max(comm.max_send_block_bytes());
    }
    transit.emplace(comm, transit_slots * slot_bytes);
  }
  const NodeColumns columns(outbox, transit ? &*transit : nullptr, slot_bytes, node_radix);
  const radix::RankGroup same_local_index{
      .base = h.local, .size = h.nodes, .local = h.node, .stride = h.ranks_per_node};
  radix::exchange(comm, same_local_index, node_radix, columns, {phase::metadata, phase::data});
}

void run(Comm& comm, const Params& params) {
  const auto setup = parlinna::Setup::of(comm, params);  // ParLinNa's check: Q | P, r ≤ Q
  const parlinna::Outbox outbox(comm, {setup.hierarchy, setup.radix, /*own_column_slot=*/false});
  parlinna::intra_node(comm, setup, outbox);
  inter_node(comm, outbox, params.get_int("node_radix"));
}

}  // namespace

AlgorithmInfo hierarchical_bruck() {
  return {
      .name = "hierarchical_bruck",
      .family = Family::hierarchical,
      .handles = Handles::any,
      .description = "intra-node ParLogNa on columns, then radix-r' two-phase Bruck between nodes",
      .source = "Fan et al., HPDC 2025, §3, §4.1; Bienz et al., EuroMPI/USA 2022",
      .params = params(),
      .check = parlinna::check,
      .run = run,
      .footprint = message_footprint,
  };
}

}  // namespace a2a::catalog_entries
