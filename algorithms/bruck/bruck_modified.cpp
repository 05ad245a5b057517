// bruck_modified — Fan et al., HPDC 2022, §2.1 ("Modified Bruck"); Träff et al., ICS 2014.
// Uniform blocks of n bytes, radix 2, w = num_digits(P - 1, 2) steps.
//  (1) Local shift: R[i] = S[(2p - i) mod P].
//  (2) Step k = 0..w-1: send to (p - 2^k) mod P every R[(i + p) mod P] whose bit k of i is set,
//      receive as many from (p + 2^k) mod P into the same positions.
// Sending "downwards" makes the block from source s arrive in R[s]: no final rotation. R is the
// caller's receive buffer itself. A step receives into a staging buffer and then copies the
// arrivals into R (bruck_rounds.hpp, staged_rounds), as the papers' code does.
#include "algorithms/bruck/bruck_rounds.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  const Bytes n = bruck::uniform_block_bytes(comm, "bruck_modified");
  const int P = comm.size();
  const int p = comm.rank();

  comm.set_phase(phase::copy);
  comm.copy([&](MoveSink out) {
    for (int j = 0; j < P; ++j) {
      const auto dst = static_cast<int>(mod(2 * p - j, P));
      out({{p, dst}, Place::send_block(dst), Place::recv_block(j), n});
    }
  });

  // After the shift relative index i (block for p - i) sits at position (p + i) mod P of R.
  bruck::staged_rounds(
      comm, bruck::Orientation::modified, 2, n,
      [&](int i) { return Place::recv_block(bruck::modified_position(P, p, i)); },
      [](int j) { return Place::recv_block(j); });
}

}  // namespace

AlgorithmInfo bruck_modified() {
  return {
      .name = "bruck_modified",
      .family = Family::bruck,
      .handles = Handles::uniform_only,
      .description = "radix-2 Bruck sending to p-2^k after a shifted rotation; no final rotation",
      .source = "Fan et al., HPDC 2022, §2.1; Träff et al., ICS 2014",
      .params = {},
      .check = nullptr,
      .run = run,
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::radix_rounds(shape, 2, 1, false); },
  };
}

}  // namespace a2a::catalog_entries
