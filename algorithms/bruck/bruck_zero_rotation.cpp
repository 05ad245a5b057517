// bruck_zero_rotation — Fan et al., HPDC 2022, §2.1 ("Zero Rotation Bruck").
// Modified Bruck (send to (p - 2^k) mod P the blocks at relative indices i with bit k set, receive
// from (p + 2^k) mod P) without its initial rotation: the rotation index array I[i] = (2p - i) mod
// P says where a block that has not moved yet lives in the send buffer S; blocks that have moved
// live in R, the caller's receive buffer, and the block from source s ends in R[s]. No rotation
// phase at all. I is never stored: I[(p + i) mod P] = (p - i) mod P is computed where it is needed.
// The loop is the one of bruck_radix with r = 2 (bruck_rounds.hpp, zero_rotation_bruck).
#include "algorithms/bruck/bruck_rounds.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  const Bytes n = bruck::uniform_block_bytes(comm, "bruck_zero_rotation");
  bruck::zero_rotation_bruck(
      comm, 2, n, [](int dst) { return Place::send_block(dst); },
      [](int src) { return Place::recv_block(src); });
}

}  // namespace

AlgorithmInfo bruck_zero_rotation() {
  return {
      .name = "bruck_zero_rotation",
      .family = Family::bruck,
      .handles = Handles::uniform_only,
      .description =
          "radix-2 modified Bruck reading unmoved blocks from the send buffer: no rotation",
      .source = "Fan et al., HPDC 2022, §2.1",
      .params = {},
      .check = nullptr,
      .run = run,
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::radix_rounds(shape, 2, 1, false); },
  };
}

}  // namespace a2a::catalog_entries
