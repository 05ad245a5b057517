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
#include <algorithm>

#include "algorithms/nonuniform/parlinna_layout.hpp"
#include "sim/model/families.hpp"

namespace a2a::model {

namespace {

using parlinna::Hierarchy;

struct Setup {
  int nodes = 1, ranks_per_node = 1, radix = 2, batch = 1;
};

// The parameters as parlinna.cpp's Setup::of resolves them (batch capped at P).
Setup setup_of(const Configuration& config, int P) {
  Setup s;
  s.ranks_per_node = config.params.get_int("ranks_per_node");
  s.nodes = P / s.ranks_per_node;
  s.radix = config.params.get_int("radix");
  s.batch = static_cast<int>(std::min<std::int64_t>(config.params.get("batch"), P));
  return s;
}

Hierarchy hierarchy(const Setup& s, int p) {
  return Hierarchy::of(p, s.nodes * s.ranks_per_node, s.ranks_per_node);
}

// The allreduce of the outbox (skipped when it has no slot), the self block, then phase 1.
void intra_node_phase(const Exchange& x, CostBuilder& cost, const Setup& s, bool own_column_slot) {
  const parlinna::OutboxLayout outbox{hierarchy(s, 0), s.radix, own_column_slot};
  if (outbox.slots() > 0) cost.allreduce_max();
  cost.copy(x.largest_self());
  radix_exchange_rounds(x, cost, s.ranks_per_node, s.radix, s.nodes, [&](int p, int src, int dst) {
    const Hierarchy h = hierarchy(s, p);
    Bytes column = 0;
    for (int m = 0; m < s.nodes; ++m) {
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
  const Setup s = setup_of(config, P);
  intra_node_phase(x, cost, s, true);
  if (s.nodes == 1) return;
  cost.copy(max_over_ranks(P, [&](int p) {
    Bytes off_node = 0;
    for (int k = 1; k < s.nodes; ++k)
      off_node += row_bytes(x, hierarchy(s, p), k);
    return off_node;
  }));
  for (int first = 1; first < s.nodes; first += s.batch) {
    const int last = std::min(first + s.batch, s.nodes);
    cost.round();
    cost.step({last - first, last - first}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        const Hierarchy h = hierarchy(s, p);
        for (int k = first; k < last; ++k)
          emit(p, parlinna::send_peer(h, k), row_bytes(x, h, k));
      }
    });
  }
}

// parlinna_staggered (Fan et al., HPDC 2025, §4.2, Alg. 3): phase 1, then phase 2 one block per
// message, no rearrangement.
void parlinna_staggered(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  const Setup s = setup_of(config, P);
  intra_node_phase(x, cost, s, false);
  const std::int64_t messages = std::int64_t{s.nodes - 1} * s.ranks_per_node;
  for (std::int64_t first = 0; first < messages; first += s.batch) {
    const std::int64_t last = std::min<std::int64_t>(first + s.batch, messages);
    cost.round();
    cost.step({last - first, last - first}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        const Hierarchy h = hierarchy(s, p);
        for (std::int64_t i = first; i < last; ++i) {
          const int k = static_cast<int>(i / s.ranks_per_node) + 1;
          const BlockId block =
              parlinna::outgoing_block(h, k, static_cast<int>(i % s.ranks_per_node));
          emit(p, parlinna::send_peer(h, k), x.block(block.src, block.dst));
        }
      }
    });
  }
}

}  // namespace a2a::model
