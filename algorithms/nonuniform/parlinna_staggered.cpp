// parlinna_staggered — Fan et al., HPDC 2025, §4.2, Alg. 3, Fig. 5(a) (staggered ParLinNa).
// P = N·Q ranks, node n = p / Q, local index g = p mod Q; Q must divide P (checked).
//   Phase 1, intra-node (Alg. 3 line 1): as parlinna_coalesced — ParLogNa with radix r on the
//     node's Q ranks, local block j being the column {m·Q + j : every node m}. Afterwards rank
//     (n, g) holds, for every other node m, the Q blocks from (n, 0..Q−1) to (m, g), and knows
//     their sizes from the rounds' metadata.
//   Phase 2, inter-node (lines 2–18): one block per message, (N − 1)·Q messages per rank. Message
//     i = (k − 1)·Q + o, for node offset k = 1..N−1 and position o = 0..Q−1, sends the block from
//     (n, (g + o) mod Q) to ((n − k) mod N, g) and receives, from ((n + k) mod N, g), the block
//     from ((n + k) mod N, (g + o) mod Q); b messages are posted per batch (receives first, then
//     sends), then waited. No rearrangement: each block is sent from where it is (the rank's own
//     blocks from the send buffer).
// Temporary memory, one buffer of N-byte slots (parlinna_layout.hpp): (N − 1)·(Q − 1) row slots
// plus Q − (K+1) for in-transit blocks that stay on the node; N the global largest block.
// Parameters (parlinna.hpp): ranks_per_node Q (default: the machine's; must divide P — a partial
// last node is rejected by check()), radix r in [2, Q] (ignored when Q = 1: phase 1 is then the
// self block only), batch b ≥ 1 (default 32, MPICH scattered's throttle: the paper publishes none).
// Phase labels: intra-node, copy (self block), inter-node.
#include <algorithm>

#include "algorithms/catalog.hpp"
#include "algorithms/nonuniform/parlinna.hpp"

namespace a2a::catalog_entries {

namespace {

using parlinna::Hierarchy;

void inter_node(Comm& comm, const parlinna::Setup& setup, const parlinna::Outbox& outbox) {
  const Hierarchy& h = setup.hierarchy;
  const int Q = h.ranks_per_node;
  const std::int64_t messages = std::int64_t{h.nodes - 1} * Q;
  comm.set_phase(phase::inter_node);
  for (std::int64_t first = 0; first < messages; first += setup.batch) {
    const std::int64_t last = std::min(first + setup.batch, messages);
    comm.next_round();
    for (std::int64_t i = first; i < last; ++i) {
      const int k = static_cast<int>(i / Q) + 1;
      const int o = static_cast<int>(i % Q);
      const BlockId block = parlinna::incoming_block(h, k, o);
      const Bytes bytes = comm.block_bytes(block);
      // From the rank with the same local index on node (n + k) mod N, which forwards the block.
      comm.irecv(parlinna::recv_peer(h, k), [&](PieceSink out) {
        out({block, Place::recv_block(block.src), bytes});
      });
    }
    for (std::int64_t i = first; i < last; ++i) {
      const int k = static_cast<int>(i / Q) + 1;
      const int o = static_cast<int>(i % Q);
      const BlockId block = parlinna::outgoing_block(h, k, o);
      const Bytes bytes = comm.block_bytes(block);
      const Place from =
          o == 0 ? Place::send_block(block.dst) : outbox.slot(outbox.layout().row_slot(k, o));
      comm.isend(parlinna::send_peer(h, k), [&](PieceSink out) { out({block, from, bytes}); });
    }
    comm.wait_all();
  }
}

void run(Comm& comm, const Params& params) {
  const auto setup = parlinna::Setup::of(comm, params);
  const parlinna::Outbox outbox(comm, {setup.hierarchy, setup.radix, /*own_column_slot=*/false});
  parlinna::intra_node(comm, setup, outbox);
  inter_node(comm, setup, outbox);
}

}  // namespace

AlgorithmInfo parlinna_staggered() {
  return {
      .name = "parlinna_staggered",
      .family = Family::hierarchical,
      .handles = Handles::any,
      .description =
          "intra-node ParLogNa on columns, then (N-1)*Q single-block inter-node messages",
      .source = "Fan et al., HPDC 2025, §4.2, Alg. 3, Fig. 5(a)",
      .params = parlinna::params(),
      .check = parlinna::check,
      .run = run,
      .footprint = parlinna::footprint,
  };
}

}  // namespace a2a::catalog_entries
