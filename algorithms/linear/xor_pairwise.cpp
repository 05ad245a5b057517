// xor_pairwise — Fan et al., HPDC 2025, §5.3 (exclusive-or pairwise exchange).
// For k = 1..P'-1 with P' the next power of two at or above P: partner = p XOR k; exchange with the
// partner if it exists (partner < P). Partners are mutual, so every step is a perfect matching for
// powers of two; for other P some ranks idle in some steps.
#include "algorithms/catalog.hpp"
#include "algorithms/direct.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

int next_power_of_two(int n) {
  int power = 1;
  while (power < n)
    power *= 2;
  return power;
}

void run(Comm& comm, const Params&) {
  const int P = comm.size();
  const int p = comm.rank();
  comm.set_phase(phase::data);
  direct::copy_self_block(comm);
  const int steps = next_power_of_two(P);
  for (int k = 1; k < steps; ++k) {
    const int partner = p ^ k;
    if (partner >= P) continue;
    comm.next_round();
    Request receive, send;
    {
      const Group launch(comm);  // one launch per step
      receive = direct::recv_block(comm, partner);
      send = direct::send_block(comm, partner);
    }
    comm.wait(send);
    comm.wait(receive);
  }
}

}  // namespace

AlgorithmInfo xor_pairwise() {
  return {
      .name = "xor_pairwise",
      .family = Family::linear,
      .handles = Handles::any,
      .description = "exchange with partner p XOR k for k = 1..P'-1 (P' next power of two)",
      .source = "Fan et al., HPDC 2025, §5.3",
      .params = {},
      .check = nullptr,
      .run = run,
      // one exchange at a time
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::direct(shape, 1); },
  };
}

}  // namespace a2a::catalog_entries
