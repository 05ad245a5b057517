// What parlinna_coalesced and parlinna_staggered share (Fan et al., HPDC 2025, §4): parameters,
// applicability, the outbox buffer and phase 1, the intra-node exchange (Alg. 2 lines 1–19). Index
// arithmetic: parlinna_layout.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/nonuniform/parlinna_layout.hpp"
#include "algorithms/registry.hpp"

namespace a2a::parlinna {

// ranks_per_node Q (default: the machine's), radix r of the intra-node phase, batch b of the
// inter-node phase.
std::vector<ParamSpec> params();

// Empty when the parameters fit the exchange: Q must divide P (only full nodes are supported:
// with a partial last node the pairing of local indices across nodes breaks), and r ≤ Q when
// Q ≥ 2 (r ≥ Q − 1 already makes every intra-node distance direct). With Q = 1 the intra-node
// phase is the self block only and r is ignored. Reads ranks_per_node and radix only
// (hierarchical_bruck shares it).
std::optional<std::string> check(const ExchangeShape& shape, const Params& params);

// Phase 1's radix rounds inside a node (data and metadata), then phase 2 with one peer per other
// node, b messages at a time.
MessageFootprint footprint(const ExchangeShape& shape, const Params& params);

// The parameters of one run, validated again (run() may be called without check()); batch 1 for
// an algorithm without one (hierarchical_bruck).
struct Setup {
  Hierarchy hierarchy;
  int radix = 2;
  int batch = 1;
  static Setup of(const Comm& comm, const Params& params);
  // Rank `rank` of `ranks`: what the analytic model (sim/model/hierarchical.cpp) evaluates.
  static Setup of(int rank, int ranks, const Params& params);
};

// The temporary buffer laid out as OutboxLayout describes; N bytes per slot, N = global largest
// block (an allreduce, skipped when the layout has no slots).
class Outbox {
 public:
  Outbox(Comm& comm, const OutboxLayout& layout);
  const OutboxLayout& layout() const { return layout_; }
  Place slot(std::int64_t index) const { return buffer_->at(index * slot_bytes_); }
  Place at(Bytes offset) const { return buffer_->at(offset); }
  Bytes slot_bytes() const { return slot_bytes_; }  // 0 when the layout has no slots

 private:
  OutboxLayout layout_;
  Bytes slot_bytes_ = 0;
  std::optional<TempBuffer> buffer_;
};

// Phase 1: the self block goes to R; the radix exchange on the node's Q ranks delivers every
// block for this node to R and leaves the blocks for other nodes in their outbox row slots.
void intra_node(Comm& comm, const Setup& setup, const Outbox& outbox);

}  // namespace a2a::parlinna
