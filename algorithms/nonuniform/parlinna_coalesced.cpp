// parlinna_coalesced — Fan et al., HPDC 2025, §4, Alg. 2, Fig. 3(b), Fig. 4 (coalesced ParLinNa).
// P = N·Q ranks, node n = p / Q, local index g = p mod Q; Q must divide P (checked).
//   Phase 1, intra-node ("implicit", Fig. 3(b)), lines 1–19: the node's Q ranks run ParLogNa with
//     radix r, in which local block j is the column of N blocks {m·Q + j : every node m}; every
//     round's metadata carries the size of every block it moves, so afterwards rank (n, g) knows
//     the sizes of the blocks it holds for other nodes. Blocks for node n are then in R; rank
//     (n, g) holds, for every other node m, the Q blocks from (n, 0..Q−1) to (m, g).
//   Rearrangement, line 20: those blocks are copied contiguously per node, in the order the
//     rounds below send them (own block from the send buffer included).
//   Phase 2, inter-node, lines 21–32: N − 1 rounds; round k sends the Q blocks for node
//     (n − k) mod N to rank ((n − k) mod N, g) as one message and receives the Q blocks of node
//     (n + k) mod N from ((n + k) mod N, g) straight into R; b rounds are posted per batch
//     (receives first, then sends), then waited.
// Temporary memory, one buffer of N-byte slots (parlinna_layout.hpp): (N − 1)·Q for the rows plus
// Q − (K+1) for in-transit blocks that stay on the node (K the intra-node rounds) — P − (K+1) slots
// in all, N the global largest block.
// Parameters (parlinna.hpp): ranks_per_node Q (default: the machine's; must divide P — a partial
// last node is rejected by check()), radix r in [2, Q] (ignored when Q = 1: phase 1 is then the
// self block only), batch b ≥ 1 (default 32, MPICH scattered's throttle: the paper publishes none).
// Phase labels: intra-node, copy (self block and rearrangement), inter-node.
#include <algorithm>

#include "algorithms/catalog.hpp"
#include "algorithms/nonuniform/parlinna.hpp"

namespace a2a::catalog_entries {

namespace {

using parlinna::Hierarchy;

// Line 20: compact rows 1..N−1 to the front of the outbox. Every block moves to an offset no
// larger than its slot's, and slots are visited front to back, so nothing is overwritten before
// it is read.
void rearrange(Comm& comm, const Hierarchy& h, const parlinna::Outbox& outbox) {
  if (h.nodes == 1) return;
  comm.set_phase(phase::copy);
  comm.copy_runs([&](RunSink out) { parlinna::outgoing_runs(h, 1, h.nodes - 1, out); },
                 [&](MoveSink out) {
                   Bytes offset = 0;
                   for (int k = 1; k < h.nodes; ++k) {
                     for (int o = 0; o < h.ranks_per_node; ++o) {
                       const BlockId block = parlinna::outgoing_block(h, k, o);
                       const Bytes bytes = comm.block_bytes(block);
                       const Place from = o == 0 ? Place::send_block(block.dst)
                                                 : outbox.slot(outbox.layout().row_slot(k, o));
                       out({block, from, outbox.at(offset), bytes});
                       offset += bytes;
                     }
                   }
                 });
}

// Where row k starts in the compacted outbox: the sum of rows 1..k−1. Computed on demand, because a
// backend that sizes messages from block runs never asks; one that asks for the rows in order
// (every backend with places) gets each row summed once.
class RowStarts {
 public:
  RowStarts(const Comm& comm, const Hierarchy& h) : comm_(comm), h_(h) {}

  Bytes of(int k) {
    if (k < next_row_) {  // asked out of order: count again from the first row
      next_row_ = 1;
      next_start_ = 0;
    }
    for (; next_row_ < k; ++next_row_)
      next_start_ += row_bytes(next_row_);
    return next_start_;
  }

 private:
  Bytes row_bytes(int k) const {
    Bytes bytes = 0;
    for (int o = 0; o < h_.ranks_per_node; ++o)
      bytes += comm_.block_bytes(parlinna::outgoing_block(h_, k, o));
    return bytes;
  }

  const Comm& comm_;
  const Hierarchy& h_;
  int next_row_ = 1;
  Bytes next_start_ = 0;
};

void inter_node(Comm& comm, const parlinna::Setup& setup, const parlinna::Outbox& outbox) {
  const Hierarchy& h = setup.hierarchy;
  const int Q = h.ranks_per_node;
  comm.set_phase(phase::inter_node);
  RowStarts row_starts(comm, h);  // rows are sent in the order they were compacted
  for (int first = 1; first < h.nodes; first += setup.batch) {
    const int last = std::min(first + setup.batch, h.nodes);
    comm.next_round();
    for (int k = first; k < last; ++k) {
      comm.irecv(parlinna::recv_peer(h, k), [&](PieceSink out) {
        for (int o = 0; o < Q; ++o) {
          const BlockId block = parlinna::incoming_block(h, k, o);
          out({block, Place::recv_block(block.src), comm.block_bytes(block)});
        }
      });
    }
    for (int k = first; k < last; ++k) {
      comm.isend_runs(
          parlinna::send_peer(h, k), [&](RunSink out) { parlinna::outgoing_runs(h, k, 1, out); },
          [&](PieceSink out) {
            Bytes offset = row_starts.of(k);
            for (int o = 0; o < Q; ++o) {
              const BlockId block = parlinna::outgoing_block(h, k, o);
              const Bytes bytes = comm.block_bytes(block);
              out({block, outbox.at(offset), bytes});
              offset += bytes;
            }
          });
    }
    comm.wait_all();
  }
}

void run(Comm& comm, const Params& params) {
  const auto setup = parlinna::Setup::of(comm, params);
  const parlinna::Outbox outbox(comm, {setup.hierarchy, setup.radix, /*own_column_slot=*/true});
  parlinna::intra_node(comm, setup, outbox);
  rearrange(comm, setup.hierarchy, outbox);
  inter_node(comm, setup, outbox);
}

}  // namespace

AlgorithmInfo parlinna_coalesced() {
  return {
      .name = "parlinna_coalesced",
      .family = Family::hierarchical,
      .handles = Handles::any,
      .description = "intra-node ParLogNa on columns, then N-1 inter-node rounds of Q blocks each",
      .source = "Fan et al., HPDC 2025, §4, Alg. 2, Fig. 3(b), Fig. 4",
      .params = parlinna::params(),
      .check = parlinna::check,
      .run = run,
      .footprint = parlinna::footprint,
  };
}

}  // namespace a2a::catalog_entries
