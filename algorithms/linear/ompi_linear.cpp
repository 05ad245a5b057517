// ompi_linear — Fan et al., HPDC 2025, §2(d) (Open MPI coll/tuned alltoallv "basic_linear", id 1).
// Post receives from every other rank in ascending rank order, then sends to every other rank in
// ascending order, then wait for all. Unlike spread_out every rank starts by sending to rank 0
// (or 1), so early on many senders target the same few receivers. One round; P-1 messages per rank.
#include "algorithms/catalog.hpp"
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
    const Group launch(comm);  // all posts launched together
    for (int src = 0; src < P; ++src) {
      if (src != p) direct::recv_block(comm, src);
    }
    for (int dst = 0; dst < P; ++dst) {
      if (dst != p) direct::send_block(comm, dst);
    }
  }
  comm.wait_all();
}

}  // namespace

AlgorithmInfo ompi_linear() {
  return {
      .name = "ompi_linear",
      .family = Family::linear,
      .handles = Handles::any,
      .description = "all receives then all sends in ascending rank order, one wait (Open MPI)",
      .source = "Fan et al., HPDC 2025, §2(d)",
      .params = {},
      .check = nullptr,
      .run = run,
      // every message posted at once
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::direct(shape, shape.ranks - 1); },
  };
}

}  // namespace a2a::catalog_entries
