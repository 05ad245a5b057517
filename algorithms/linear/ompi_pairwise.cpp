// ompi_pairwise — Fan et al., HPDC 2025, §2(d) (Open MPI coll/tuned alltoallv "pairwise", id 2).
// For k = 1..P-1: receive from (p-k) mod P while sending (blocking) to (p+k) mod P, then wait.
// One exchange in flight at a time: P-1 rounds, the least network pressure and the most latency.
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
  direct::copy_self_block(comm);
  for (int k = 1; k < P; ++k) {
    comm.next_round();
    Request receive, send;
    {
      const Group launch(comm);  // one launch per step
      receive = direct::recv_block(comm, static_cast<int>(mod(p - k, P)));
      send = direct::send_block(comm, static_cast<int>(mod(p + k, P)));
    }
    comm.wait(send);  // a blocking send: waited before the receive
    comm.wait(receive);
  }
}

}  // namespace

AlgorithmInfo ompi_pairwise() {
  return {
      .name = "ompi_pairwise",
      .family = Family::linear,
      .handles = Handles::any,
      .description = "P-1 rounds: receive from p-k while sending to p+k (Open MPI pairwise)",
      .source = "Fan et al., HPDC 2025, §2(d)",
      .params = {},
      .check = nullptr,
      .run = run,
      // one exchange at a time
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::direct(shape, 1); },
  };
}

}  // namespace a2a::catalog_entries
