// spread_out — Netterville et al., HiPCW 2022, §II, Alg. 2 ("spread-out"); Fan et al., HPDC 2022,
// §4.1. Post a receive from (p+i) mod P for i = 1..P-1, then a send to (p-i) mod P, then wait for
// all. Staggering the peers keeps every rank from sending to the same destination at the same time.
// The self block is a local copy. One round; P-1 messages per rank.
#include "algorithms/catalog.hpp"
#include "algorithms/digits.hpp"
#include "algorithms/direct.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  const int P = comm.size();
  const int p = comm.rank();
  comm.set_phase(phase::data);
  comm.next_round();
  direct::copy_self_block(comm);
  {
    // NCCL's all-to-all: every send and receive in one group (Sewell et al., HPCAsia 2024, §3.1)
    const Group launch(comm);
    for (int i = 1; i < P; ++i)
      direct::recv_block(comm, static_cast<int>(mod(p + i, P)));
    for (int i = 1; i < P; ++i)
      direct::send_block(comm, static_cast<int>(mod(p - i, P)));
  }
  comm.wait_all();
}

}  // namespace

AlgorithmInfo spread_out() {
  return {
      .name = "spread_out",
      .family = Family::linear,
      .handles = Handles::any,
      .description = "all receives then all sends to staggered peers (p+i / p-i), one wait",
      .source = "Netterville et al., HiPCW 2022, §II, Alg. 2; Fan et al., HPDC 2022, §4.1",
      .params = {},
      .check = nullptr,
      .run = run,
      // every message posted at once
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::direct(shape, shape.ranks - 1); },
  };
}

}  // namespace a2a::catalog_entries
