// The two-phase Bruck-style radix-r exchange, written once for two_phase_bruck (Fan et al., HPDC
// 2022, §3.2, Alg. 1: radix 2), parlogna (Fan et al., HPDC 2025, §3, Alg. 1) and the intra-node
// phase of ParLinNa (Fan et al., HPDC 2025, §4.1, Alg. 2 lines 5–19). Index arithmetic:
// bruck/bruck_indices.hpp (rounds, index lists, block identities) and parlogna_indices.hpp (last
// hops, direct blocks, the tight temporary buffer).
//
// The exchange runs among a group of Q ranks (RankGroup: the whole communicator for parlogna, the
// ranks of one node for ParLinNa, those with one local index on every node for hierarchical_bruck).
// It moves "columns": the column at distance o on a rank stands for ColumnLayout::members() real
// blocks (parlogna: one; ParLinNa: one per node). Each round (x, z):
//   1. metadata — send the sizes of every block about to move to (g − z·r^x) mod Q, receive the
//      sizes of the blocks coming from (g + z·r^x) mod Q; wait;
//   2. data — send those blocks, read from where they start (ColumnLayout::unmoved: the send
//      buffer, unless an earlier phase gathered them) if they have not moved yet, else from
//      where the layout keeps blocks in transit; receive the incoming blocks into their delivery
//      place if this was their last hop, else into the transit place; wait.
// Only the sizes of the moving blocks travel as metadata (they are learned through the comm
// interface); nothing is stored per block, every identity and place is computed inside the
// message lambdas.
//
// The column at distance o leaves its transit place and the next column at distance o arrives into
// the same place in the same round (as in both papers, whose code packs the outgoing blocks into a
// send buffer first). This needs the outgoing bytes to be read before the incoming ones are
// written. The MPI backend packs every message of two or more pieces when isend is called and
// stages every such receive until its wait; a one-piece message here is always the round's direct
// block alone (distance z·r^x moves in every round and, being direct, goes from the send buffer
// straight to R), which shares no place with anything. The send is also posted before the receive.
//
// The self column (distance 0) never moves; callers handle it.
#pragma once

#include "algorithms/comm.hpp"

namespace a2a::radix {

// Q ranks base, base + stride, .., base + (Q−1)·stride; this rank is base + local·stride. Stride 1
// is a node (ParLinNa) or the communicator (parlogna); stride Q is the ranks with one local index
// on every node (hierarchical_bruck's inter-node phase).
struct RankGroup {
  int base = 0;
  int size = 1;
  int local = 0;
  int stride = 1;
  int rank_of(int local_rank) const { return base + local_rank * stride; }
};

// What a column is and where its blocks live on this rank.
class ColumnLayout {
 public:
  virtual ~ColumnLayout() = default;
  // Real blocks per column.
  virtual int members() const = 0;
  // Member m of the column that local rank `src` sends to local rank `dst`. A one-member column
  // over the whole communicator is the block (src, dst) itself (parlogna, two_phase_bruck).
  virtual BlockId block(int src, int dst, int m) const = 0;
  // The members of that column as one run of blocks (size-only backends sum it in one call).
  virtual BlockRun members_run(int src, int dst) const = 0;
  // Where member m of the column at distance o waits here for its next hop.
  virtual Place in_transit(int o, int m) const = 0;
  // Where member m (identity `block`) of the column at distance o goes when its last hop ends here.
  virtual Place delivered(BlockId block, int o, int m) const = 0;
  // Where member m (identity `block`) of the column at distance o is before its first hop: this
  // rank's send buffer, unless an earlier phase gathered it here from another rank.
  virtual Place unmoved(BlockId block, int /*o*/, int /*m*/) const {
    return Place::send_block(block.dst);
  }
};

// Phase labels for the two halves of every round.
struct Phases {
  const char* metadata;
  const char* data;
};

// Runs every round of the exchange on this rank (nothing when Q ≤ 1). With `barrier_each_round`
// every rank of the communicator waits at a barrier after each round's data exchange, as the
// authors' benchmarked ParLogNa does (parlogna.cpp).
void exchange(Comm& comm, const RankGroup& group, int radix, const ColumnLayout& columns,
              const Phases& phases, bool barrier_each_round = false);

}  // namespace a2a::radix
