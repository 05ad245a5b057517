// bruck_basic — Fan et al., HPDC 2022, §2.1 ("Basic Bruck"), Netterville et al., HiPCW 2022, §II,
// Alg. 1; Bruck et al., IEEE TPDS 1997. Uniform blocks of n bytes, radix 2, w = num_digits(P - 1,
// 2) steps.
//  (1) Local shift: R[i] = S[(p + i) mod P].
//  (2) Step k = 0..w-1: send to (p + 2^k) mod P every R[i] whose bit k of i is set (packed),
//      receive as many from (p - 2^k) mod P and put them in the same positions of R.
//  (3) Inverse shift: out[j] = R[(p - j) mod P].
// Before step k position i holds the block from p - (i mod 2^k) to that source + i; after the last
// step, the block from p - i to p, which is why step (3) is needed.
// R is a temporary of P·n bytes; a step receives into a staging buffer and then copies the arrivals
// into R (bruck_rounds.hpp, staged_rounds), as the papers' code does.
#include "algorithms/bruck/bruck_rounds.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  const Bytes n = bruck::uniform_block_bytes(comm, "bruck_basic");
  const int P = comm.size();
  const int p = comm.rank();
  TempBuffer R(comm, P * n);
  auto position = [&](int i) { return R.at(i * n); };

  comm.set_phase(phase::copy);
  comm.copy([&](MoveSink out) {
    for (int i = 0; i < P; ++i) {
      const auto dst = static_cast<int>(mod(p + i, P));
      out({{p, dst}, Place::send_block(dst), position(i), n});
    }
  });

  // Every block sits in R from the start, so a block that has not moved is read from R too.
  bruck::staged_rounds(comm, bruck::Orientation::basic, 2, n, position, position);

  comm.set_phase(phase::copy);
  comm.copy([&](MoveSink out) {
    for (int j = 0; j < P; ++j) {
      out({{j, p}, position(static_cast<int>(mod(p - j, P))), Place::recv_block(j), n});
    }
  });
}

}  // namespace

AlgorithmInfo bruck_basic() {
  return {
      .name = "bruck_basic",
      .family = Family::bruck,
      .handles = Handles::uniform_only,
      .description = "radix-2 Bruck: rotate, log2 P store-and-forward steps, rotate back",
      .source =
          "Bruck et al., IEEE TPDS 1997; Fan et al., HPDC 2022, §2.1; Netterville et al., HiPCW "
          "2022, §II, Alg. 1",
      .params = {},
      .check = nullptr,
      .run = run,
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::radix_rounds(shape, 2, 1, false); },
  };
}

}  // namespace a2a::catalog_entries
