// scattered — Fan et al., HPDC 2025, §2(d) (MPICH's MPIR_Alltoallv_intra_scattered).
// spread_out in batches: post b receives from (p+i) mod P and b sends to (p-i) mod P, wait for the
// batch, then the next. The batch bounds the requests in flight (MPICH's throttle, default 32),
// which is what keeps NIC match lists from overflowing at scale (docs/references.md, "Slingshot
// match lists"). ceil((P-1)/b) rounds; P-1 messages per rank; the self block is a local copy.
#include <algorithm>

#include "algorithms/catalog.hpp"
#include "algorithms/digits.hpp"
#include "algorithms/direct.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params& params) {
  const int P = comm.size();
  const int p = comm.rank();
  const int batch = params.get_int("batch");
  comm.set_phase(phase::data);
  direct::copy_self_block(comm);
  for (int first = 1; first < P; first += batch) {
    const int last = std::min(P - 1, first + batch - 1);
    comm.next_round();
    {
      const Group launch(comm);  // one launch per batch
      for (int i = first; i <= last; ++i)
        direct::recv_block(comm, static_cast<int>(mod(p + i, P)));
      for (int i = first; i <= last; ++i)
        direct::send_block(comm, static_cast<int>(mod(p - i, P)));
    }
    comm.wait_all();
  }
}

}  // namespace

AlgorithmInfo scattered() {
  return {
      .name = "scattered",
      .family = Family::linear,
      .handles = Handles::any,
      .description = "spread_out in batches of b sends + b receives, each batch waited (MPICH)",
      .source = "Fan et al., HPDC 2025, §2(d)",
      .params = {{.name = "batch",
                  .meaning = "requests of each kind in flight per batch (MPICH throttle)",
                  .default_value = 32,
                  .min = 1,
                  .max = ParamBound::unbounded()}},
      .check = nullptr,
      .run = run,
      // one batch at a time
      .footprint =
          [](const ExchangeShape& shape, const Params& params) {
            return footprint::direct(shape, params.get("batch"));
          },
  };
}

}  // namespace a2a::catalog_entries
