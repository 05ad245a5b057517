// two_phase_bruck — Fan et al., HPDC 2022, §3.2, Alg. 1 ("two-phase non-uniform Bruck"), radix 2.
// Built on zero-rotation Bruck (§2.1): no data is rotated; the index array I[j] = (2p − j) mod P
// says which send block sits at position j. With j = (p + i) mod P, I[j] = p − i: position j holds
// the block of distance i = (p − destination) mod P.
//   line 1–2: N = global largest block (allreduce max); a monolithic working buffer W of P·N bytes
//             (the paper's memory claim: W has a slot of N bytes for every position j).
//   steps k = 0..w−1 (w binary digits of P−1), peers (p − 2^k) mod P and (p + 2^k) mod P:
//   line 8–16:  send the sizes of the blocks whose distance has bit k set (metadata), receive the
//               sizes of the blocks about to arrive;
//   line 17–24: send those blocks — from W[j·N] if the block has moved before (status = 1), else
//               from the send buffer S[I[j]];
//   line 25–33: receive each block into R[source] if this step was its last hop (no higher bit
//               set), else into W[j·N].
// The status flag needs no array: a block has moved before step k exactly when a bit of its
// distance below k is set (bruck_indices.hpp, has_moved).
//
// The steps are the radix-2 case of the exchange shared with parlogna (radix_exchange.cpp); only
// the working buffer differs: W of P·N here, parlogna's tight T of (P − (K+1))·N there.
#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/catalog.hpp"
#include "algorithms/direct.hpp"
#include "algorithms/footprint.hpp"
#include "algorithms/nonuniform/radix_exchange.hpp"

namespace a2a::catalog_entries {

namespace {

constexpr int kRadix = 2;

// One block per column; a block in transit at distance i lives in W at position j = (p + i) mod P.
class WorkingBufferColumns final : public radix::ColumnLayout {
 public:
  WorkingBufferColumns(int rank, int ranks, const TempBuffer& working, Bytes slot_bytes)
      : rank_(rank), ranks_(ranks), working_(working), slot_bytes_(slot_bytes) {}

  int members() const override { return 1; }
  BlockId block(int src, int dst, int) const override { return {src, dst}; }
  BlockRun members_run(int src, int dst) const override { return {{src, dst}, 0, 0, 1}; }
  Place in_transit(int i, int) const override {
    return working_.at(bruck::modified_position(ranks_, rank_, i) * slot_bytes_);
  }
  Place delivered(BlockId block, int, int) const override { return Place::recv_block(block.src); }

 private:
  int rank_;
  int ranks_;
  const TempBuffer& working_;
  Bytes slot_bytes_;
};

void run(Comm& comm, const Params&) {
  const int P = comm.size();
  const int p = comm.rank();

  comm.set_phase(phase::setup);
  const Bytes N = comm.allreduce_max(comm.max_send_block_bytes());
  const TempBuffer working(comm, P * N);

  comm.set_phase(phase::copy);
  direct::copy_self_block(comm);

  const WorkingBufferColumns columns(p, P, working, N);
  radix::exchange(comm, {0, P, p}, kRadix, columns, {phase::metadata, phase::data});
}

}  // namespace

AlgorithmInfo two_phase_bruck() {
  return {
      .name = "two_phase_bruck",
      .family = Family::logarithmic,
      .handles = Handles::any,
      .description =
          "radix-2 Bruck with a metadata exchange before every data step, W of P*N bytes",
      .source = "Fan et al., HPDC 2022, §3.2, Alg. 1",
      .params = {},
      .check = nullptr,
      .run = run,
      .footprint = [](const ExchangeShape& shape,
                      const Params&) { return footprint::radix_rounds(shape, 2, 1, true); },
  };
}

}  // namespace a2a::catalog_entries
