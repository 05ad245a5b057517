// scattered — Fan et al., HPDC 2025, §2(d) (MPICH's MPIR_Alltoallv_intra_scattered).
// spread_out in batches: post b receives from (p+i) mod P and b sends to (p-i) mod P, wait for the
// batch, then the next. The batch bounds the requests in flight (MPICH's throttle, default 32),
// which is what keeps NIC match lists from overflowing at scale (docs/references.md, "Slingshot
// match lists"). ceil((P-1)/b) rounds; P-1 messages per rank; the self block is a local copy.
//
// `lazy_sends=1` waits for each batch's receives only and for all sends at the end. MPICH's code
// waits for both; the variant models HPE Cray MPICH's MPI_Alltoallv, whose source is closed, as
// measured on Polaris (sim/vendor_model.cpp): one message each way per step, about 4.5 us a step
// whatever the block size, where waiting for every send would add the round trip of its
// acknowledgement once messages outgrow the NIC's inject size (docs/validation.md).
#include <algorithm>
#include <vector>

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
  const bool lazy_sends = params.get_int("lazy_sends") != 0;
  comm.set_phase(phase::data);
  direct::copy_self_block(comm);
  std::vector<Request> receives;
  for (int first = 1; first < P; first += batch) {
    const int last = std::min(P - 1, first + batch - 1);
    comm.next_round();
    receives.clear();
    {
      const Group launch(comm);  // one launch per batch
      for (int i = first; i <= last; ++i)
        receives.push_back(direct::recv_block(comm, static_cast<int>(mod(p + i, P))));
      for (int i = first; i <= last; ++i)
        direct::send_block(comm, static_cast<int>(mod(p - i, P)));
    }
    if (!lazy_sends) {
      comm.wait_all();
      continue;
    }
    for (const Request received : receives)
      comm.wait(received);
  }
  comm.wait_all();  // with lazy_sends, the sends still in flight
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
                  .max = ParamBound::unbounded()},
                 {.name = "lazy_sends",
                  .meaning = "1: wait for each batch's receives only, for the sends at the end",
                  .default_value = 0,
                  .min = 0,
                  .max = ParamBound::number(1),
                  .labelled_at_default = false}},
      .check = nullptr,
      .run = run,
      // one batch at a time, and with lazy_sends the sends of every batch before it
      .footprint =
          [](const ExchangeShape& shape, const Params& params) {
            const std::int64_t batch = params.get("batch");
            return footprint::direct(
                shape, params.get("lazy_sends") != 0
                           ? std::min<std::int64_t>(batch, shape.ranks) + shape.ranks - 1
                           : batch);
          },
  };
}

}  // namespace a2a::catalog_entries
