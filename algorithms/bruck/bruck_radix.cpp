// bruck_radix — Fan et al., HPDC 2025, §2(c) and §3.1 (parameterised uniform Bruck, Fan et al., ISC
// 2024). Uniform blocks of n bytes. Relative block indices i < P are written in base r with w =
// num_digits(P - 1, r) digits. Rounds (x, z) for x = 0..w-1, z = 1..r-1 with z·r^x < P: send every
// block whose x-th digit is z to (p - z·r^x) mod P, receive as many from (p + z·r^x) mod P. K <=
// w·(r - 1) rounds. Small r: few rounds (latency); large r: little forwarding (bandwidth); r = P is
// a direct exchange in P - 1 rounds. Blocks are kept as in zero-rotation Bruck (bruck_rounds.hpp):
// unmoved blocks are read from the send buffer, moved ones live in the receive buffer, arrivals are
// staged and copied; with r = 2 this is exactly bruck_zero_rotation. The digit count is integer
// arithmetic (P = 125, r = 5 has 3 digits), and r = 2 at P = 2 is one round — the papers' code
// clamps r and loops forever there.
#include "algorithms/bruck/bruck_rounds.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params& params) {
  const Bytes n = bruck::uniform_block_bytes(comm, "bruck_radix");
  bruck::zero_rotation_bruck(
      comm, params.get_int("radix"), n, [](int dst) { return Place::send_block(dst); },
      [](int src) { return Place::recv_block(src); });
}

}  // namespace

AlgorithmInfo bruck_radix() {
  return {
      .name = "bruck_radix",
      .family = Family::bruck,
      .handles = Handles::uniform_only,
      .description = "uniform Bruck in base r: K <= w(r-1) rounds, block digit x = z to p - z*r^x",
      .source = "Fan et al., HPDC 2025, §2(c), §3.1",
      .params = {{.name = "radix",
                  .meaning = "base of the block-index digits (2 = classic Bruck, P = direct)",
                  .default_value = 2,
                  .default_is_machine = false,
                  .min = 2,
                  .max = ParamBound::ranks()}},
      .check = nullptr,
      .run = run,
      .footprint =
          [](const ExchangeShape& shape, const Params& params) {
            return footprint::radix_rounds(shape, params.get_int("radix"), params.get("radix") - 1,
                                           false);
          },
  };
}

}  // namespace a2a::catalog_entries
