// Models of the hierarchical algorithms: docs/algorithms.md "parlinna_coalesced",
// "parlinna_staggered" (Fan et al., HPDC 2025, §4, Alg. 2 and 3). docs/algorithms.md gives no
// closed form for them; the model adds the two phases as the code runs them. Notation: P = N'·Q'
// ranks in N' groups ("nodes") of Q' = the ranks_per_node parameter, radix r of the intra-node
// phase, batch b; α, β, β_nic, α_intra, β_intra, o as in machine.hpp, c the memory-copy seconds per
// byte, L the launch overhead of a group, A the allreduce of nonuniform.cpp. Whether a message is
// intra-node depends on the machine's ranks per node: with Q' = Q, phase 1 runs at α_intra, β_intra
// and phase 2 crosses the network, where the Q ranks of a node send at once and share its link
// (β_nic).
//   Phase 1: radix_exchange_rounds on groups of Q' with columns of N' blocks, K(Q', r) rounds:
//     Σ_{x,z} (2·L + 2·α_intra + 4·o + 8·N'·m_{x,z}·β_intra + D_{x,z}·β_intra)
//   Phase 2, coalesced: ⌈(N'−1)/b⌉ steps of b messages of Q' blocks each,
//     Σ (α + max(2b·o + Q'·n·β, (b+1)·o + Q·b·Q'·n·β_nic))          (uniform n)
//   Phase 2, staggered: ⌈(N'−1)·Q'/b⌉ steps of b single-block messages.
//   hierarchical_bruck: phase 1 as staggered, then radix_exchange_rounds in radix r' on the groups
//     of the N' ranks with one local index (stride Q'), columns of Q' blocks, K(N', r') rounds:
//     Σ_{x,z} (2·L + 2·α + 4·o + 8·Q'·m_{x,z}·β + D_{x,z}·β), plus an allreduce when only
//     phase 2 needs temporary slots.
#include <algorithm>

#include "algorithms/nonuniform/hierarchical_bruck_layout.hpp"

#include "algorithms/nonuniform/parlinna.hpp"
#include "sim/model/families.hpp"

namespace a2a::model {

namespace {

using parlinna::Hierarchy;

// The run's parameters as parlinna.cpp resolves them (checked, batch capped at P), from rank 0's
// view: the node count and group size are the same on every rank.
parlinna::Setup setup_of(const Configuration& config, int P) {
  return parlinna::Setup::of(0, P, config.params);
}

Hierarchy hierarchy(const parlinna::Setup& s, int p) {
  const Hierarchy& h = s.hierarchy;
  return Hierarchy::of(p, h.nodes * h.ranks_per_node, h.ranks_per_node);
}

// The allreduce of the outbox (skipped when it has no slot), the self block, then phase 1.
void intra_node_phase(const Exchange& x, CostBuilder& cost, const parlinna::Setup& s,
                      bool own_column_slot) {
  const parlinna::OutboxLayout outbox{s.hierarchy, s.radix, own_column_slot};
  if (outbox.slots() > 0) cost.allreduce_max();
  cost.copy(x.largest_self());
  radix_exchange_rounds(x, cost, s.hierarchy.ranks_per_node, s.radix, s.hierarchy.nodes,
                        [&](int p, int src, int dst) {
                          const Hierarchy h = hierarchy(s, p);
                          Bytes column = 0;
                          for (int m = 0; m < s.hierarchy.nodes; ++m) {
                            const BlockId block = parlinna::column_block(h, src, dst, m);
                            column += x.block(block.src, block.dst);
                          }
                          return column;
                        });
}

// Bytes rank p sends to node row k in phase 2: its Q' blocks for that node.
Bytes row_bytes(const Exchange& x, const Hierarchy& h, int k) {
  Bytes bytes = 0;
  for (int o = 0; o < h.ranks_per_node; ++o) {
    const BlockId block = parlinna::outgoing_block(h, k, o);
    bytes += x.block(block.src, block.dst);
  }
  return bytes;
}

}  // namespace

// parlinna_coalesced (Fan et al., HPDC 2025, §4, Alg. 2): phase 1, the rearrangement copy of every
// block bound off-node (c·S_off, S_off the most a rank sends to other nodes), phase 2 coalesced.
void parlinna_coalesced(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  const parlinna::Setup s = setup_of(config, P);
  intra_node_phase(x, cost, s, true);
  if (s.hierarchy.nodes == 1) return;
  cost.copy(max_over_ranks(P, [&](int p) {
    Bytes off_node = 0;
    for (int k = 1; k < s.hierarchy.nodes; ++k)
      off_node += row_bytes(x, hierarchy(s, p), k);
    return off_node;
  }));
  cost.begin_free_running();
  for (int first = 1; first < s.hierarchy.nodes; first += s.batch) {
    const int last = std::min(first + s.batch, s.hierarchy.nodes);
    cost.round();
    cost.step({last - first, last - first}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        const Hierarchy h = hierarchy(s, p);
        for (int k = first; k < last; ++k)
          emit(p, parlinna::send_peer(h, k), row_bytes(x, h, k));
      }
    });
  }
  cost.end_free_running();
}

// parlinna_staggered (Fan et al., HPDC 2025, §4.2, Alg. 3): phase 1, then phase 2 one block per
// message, no rearrangement.
void parlinna_staggered(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  const parlinna::Setup s = setup_of(config, P);
  intra_node_phase(x, cost, s, false);
  const std::int64_t messages = std::int64_t{s.hierarchy.nodes - 1} * s.hierarchy.ranks_per_node;
  cost.begin_free_running();
  for (std::int64_t first = 0; first < messages; first += s.batch) {
    const std::int64_t last = std::min<std::int64_t>(first + s.batch, messages);
    cost.round();
    cost.step({last - first, last - first}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        const Hierarchy h = hierarchy(s, p);
        for (std::int64_t i = first; i < last; ++i) {
          const int k = static_cast<int>(i / s.hierarchy.ranks_per_node) + 1;
          const BlockId block =
              parlinna::outgoing_block(h, k, static_cast<int>(i % s.hierarchy.ranks_per_node));
          emit(p, parlinna::send_peer(h, k), x.block(block.src, block.dst));
        }
      }
    });
  }
  cost.end_free_running();
}

// hierarchical_bruck (Fan et al., HPDC 2025, §3 and §4.1): staggered's phase 1, then the
// two-phase radix exchange between nodes on columns of Q' blocks.
void hierarchical_bruck(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  const parlinna::Setup s = setup_of(config, P);
  const int Q = s.hierarchy.ranks_per_node;
  const int N = s.hierarchy.nodes;
  const int node_radix = config.params.get_int("node_radix");
  intra_node_phase(x, cost, s, false);
  const parlinna::OutboxLayout outbox{s.hierarchy, s.radix, false};
  if (outbox.slots() == 0 && hierarchical_layout::transit_slots(N, Q, node_radix) > 0) {
    cost.allreduce_max();
  }
  radix_exchange_rounds(
      x, cost, N, node_radix, Q,
      [&](int p, int src_node, int dst_node) {
        const Hierarchy h = hierarchy(s, p);
        Bytes column = 0;
        for (int m = 0; m < Q; ++m) {
          const BlockId block = hierarchical_layout::inter_node_block(h, src_node, dst_node, m);
          column += x.block(block.src, block.dst);
        }
        return column;
      },
      Q);
}

}  // namespace a2a::model
