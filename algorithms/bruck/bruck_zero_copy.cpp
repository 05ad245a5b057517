// bruck_zero_copy — Fan et al., HPDC 2022, §2.1 ("Zero-copy Bruck"); Träff et al., ICS 2014.
// Modified Bruck (send to (p - 2^k) mod P the blocks at relative indices i with bit k set, receive
// from (p + 2^k) mod P into the same relative indices, position (p + i) mod P) with a second buffer
// T used alternately with R, so no block is copied after a step. For a block moving in step k let
// b = number of set bits of i at positions >= k (the hops it still has to make, this one included):
// it leaves from one buffer and arrives in the other, and its last hop (b = 1) must land in R, the
// caller's receive buffer. So b odd: send from T, receive into R; b even: send from R, receive into
// T. The initial shift puts the block for p - i where its first hop (b = popcount(i)) leaves from:
// R if popcount(i) is even (the self block included), else T.
// The paper's text states the alternation with R and T the other way round; read literally after a
// shift into R only, blocks with two hops would be sent from an empty T and every moved block
// would end in T. This is the reading that delivers into the receive buffer.
// T is a temporary of P·n bytes. Copies: the initial shift only.
#include "algorithms/bruck/bruck_rounds.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/footprint.hpp"

namespace a2a::catalog_entries {

namespace {

void run(Comm& comm, const Params&) {
  const Bytes n = bruck::uniform_block_bytes(comm, "bruck_zero_copy");
  const int P = comm.size();
  const int p = comm.rank();
  TempBuffer T(comm, P * n);
  // Where relative index i is kept while it still has `hops` hops to make.
  auto kept = [&](int i, int hops) {
    const int j = bruck::modified_position(P, p, i);
    return bruck::zero_copy_keeps_in_r(hops) ? Place::recv_block(j) : T.at(j * n);
  };

  comm.set_phase(phase::copy);
  comm.copy([&](MoveSink out) {
    for (int i = 0; i < P; ++i) {
      const auto dst = static_cast<int>(mod(p - i, P));
      out({{p, dst}, Place::send_block(dst), kept(i, bruck::hops_left(i, 1, 2)), n});
    }
  });

  bruck::exchange_rounds(
      comm, bruck::Orientation::modified, 2, n,
      [&](int i, const bruck::Round& round) {
        return kept(i, bruck::hops_left(i, round.place, 2));
      },
      [&](int i, const bruck::Round& round) {
        return kept(i, bruck::hops_left(i, round.place, 2) - 1);
      },
      [](const bruck::Round&, int) {});
}

}  // namespace

AlgorithmInfo bruck_zero_copy() {
  return {
      .name = "bruck_zero_copy",
      .family = Family::bruck,
      .handles = Handles::uniform_only,
      .description = "modified Bruck alternating two buffers by hop parity: no copy after a step",
      .source = "Fan et al., HPDC 2022, §2.1; Träff et al., ICS 2014",
      .params = {},
      .check = nullptr,
      .run = run,
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::radix_rounds(shape, 2, 1, false); },
  };
}

}  // namespace a2a::catalog_entries
