// padded_bruck — Fan et al., HPDC 2022, §3.1 ("Padded Bruck").
// Turn the non-uniform exchange into a uniform one and run uniform Bruck on it:
//  (1) N = global largest block (MPI_Allreduce of each rank's largest send block);
//  (2) pad every send block to N bytes in a P·N temporary S';
//  (3) the rounds of uniform zero-rotation Bruck on N-byte blocks from S' into a P·N temporary R'
//      (bruck_rounds.hpp, the loop of bruck_zero_rotation; the self block was copied straight to
//      the receive buffer in step 2, so its slot is left out);
//  (4) copy each block's real recvcounts bytes from R' to the receive buffer.
// log2 P rounds of about (P + 1)/2 · N bytes each (Fan et al., HPDC 2022, §3.3, eq. 1): cheap in
// latency, wasteful when block sizes vary. An all-zero exchange (N = 0) still runs every round,
// with empty messages.
#include "algorithms/bruck/bruck_rounds.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"
#include "algorithms/nonuniform/padding.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  padding::PaddedBlocks padded(comm);
  bruck::zero_rotation_rounds(
      comm, 2, padded.block(), [&](int dst) { return padded.send(dst); },
      [&](int src) { return padded.recv(src); });
  padded.unpad();
}

}  // namespace

AlgorithmInfo padded_bruck() {
  return {
      .name = "padded_bruck",
      .family = Family::logarithmic,
      .handles = Handles::any,
      .description = "pad every block to the global maximum, uniform zero-rotation Bruck, unpad",
      .source = "Fan et al., HPDC 2022, §3.1",
      .params = {},
      .check = nullptr,
      .run = run,
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::radix_rounds(shape, 2, 1, false); },
  };
}

}  // namespace a2a::catalog_entries
