// parlogna — Fan et al., HPDC 2025, §3, Alg. 1 (ParLogNa, "parameterized logarithmic non-uniform
// all-to-all"). Two-phase Bruck generalised to radix r, 2 ≤ r ≤ P. Block indices are distances o =
// (p − destination) mod P written in base r (the rotation I[i] = (2p − i) mod P of Alg. 1 line 4,
// applied implicitly). Rounds (x, z) for x = 0..w−1, z = 1..r−1 with z·r^x < P, K of them; in each,
// a metadata exchange (the sizes of the blocks whose digit x is z) then the data exchange, sending
// to (p − z·r^x) mod P and receiving from (p + z·r^x) mod P (lines 5–20).
//
// Temporary memory (§3.3): T holds only blocks that will be forwarded again. "Direct" blocks (a
// single non-zero digit: one per round, K in all) travel once from the send buffer to R, and the
// self block never moves, so T has B = P − (K + 1) slots of N bytes, N the global largest block
// (line 1, an allreduce). Distance o uses slot t = o − 1 − dx·(r−1) − dz (parlogna_indices.hpp).
// r ≥ P − 1 makes every distance direct: B = 0, no T and no allreduce — a direct exchange in P − 1
// rounds that still carries its metadata, like every other radix.
//
// The rounds themselves are radix_exchange.cpp, shared with two_phase_bruck and ParLinNa.
//
// `barrier=1` waits at a barrier of all ranks after every round. The algorithm needs none; the
// authors' benchmarked code has one: gAtav.cpp of github.com/KokoFan16/general-alltoallv (commit
// 41d2e8f) calls MPI_Barrier(MPI_COMM_WORLD) after each round's MPI_Waitall, and their Polaris
// logs charge every round of it about a barrier's time more than the same messages cost MPICH's
// scattered algorithm (docs/validation.md). a2a simulates that code with it, to compare with what
// was measured.
#include <optional>

#include "algorithms/catalog.hpp"
#include "algorithms/direct.hpp"
#include "algorithms/footprint.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"
#include "algorithms/nonuniform/radix_exchange.hpp"

namespace a2a::catalog_entries {

namespace {

// One block per column: the block itself. Blocks in transit live in T at their slot t(o).
class ParlognaColumns final : public radix::ColumnLayout {
 public:
  ParlognaColumns(int radix, const TempBuffer* temp, Bytes slot_bytes)
      : slots_(radix), temp_(temp), slot_bytes_(slot_bytes) {}

  int members() const override { return 1; }
  BlockId block(int src, int dst, int) const override { return {src, dst}; }
  BlockRun members_run(int src, int dst) const override { return {{src, dst}, 0, 0, 1}; }
  Place in_transit(int o, int) const override { return temp_->at(slots_(o) * slot_bytes_); }
  Place delivered(BlockId block, int, int) const override { return Place::recv_block(block.src); }

 private:
  radix::TempSlots slots_;  // one per rank: the layout lives on the rank's stack
  const TempBuffer* temp_;  // null when B = 0: then no distance is ever in transit
  Bytes slot_bytes_;
};

void run(Comm& comm, const Params& params) {
  const int P = comm.size();
  const int r = params.get_int("radix");
  const int slots = radix::temp_slots(P, r);  // B = P − (K + 1)

  Bytes slot_bytes = 0;
  std::optional<TempBuffer> temp;
  if (slots > 0) {
    comm.set_phase(phase::setup);
    slot_bytes = comm.allreduce_max(comm.max_send_block_bytes());
    temp.emplace(comm, slots * slot_bytes);
  }

  comm.set_phase(phase::copy);
  direct::copy_self_block(comm);

  const ParlognaColumns columns(r, temp ? &*temp : nullptr, slot_bytes);
  radix::exchange(comm, {0, P, comm.rank()}, r, columns, {phase::metadata, phase::data},
                  params.get_int("barrier") != 0);
}

}  // namespace

AlgorithmInfo parlogna() {
  return {
      .name = "parlogna",
      .family = Family::logarithmic,
      .handles = Handles::any,
      .description =
          "two-phase Bruck in radix r: metadata then data per round, T of P-(K+1) blocks",
      .source = "Fan et al., HPDC 2025, §3, Alg. 1",
      .params = {{.name = "radix",
                  .meaning = "base of the digit rounds: small = few rounds, large = less volume",
                  .default_value = 2,
                  .min = 2,
                  .max = ParamBound::ranks()},
                 {.name = "barrier",
                  .meaning = "1: a barrier after every round, as the authors' benchmarked code",
                  .default_value = 0,
                  .min = 0,
                  .max = ParamBound::number(1),
                  .labelled_at_default = false}},
      .check = nullptr,
      .run = run,
      .footprint =
          [](const ExchangeShape& shape, const Params& params) {
            const MessageFootprint rounds =
                footprint::radix_rounds(shape, params.get_int("radix"), 1, true);
            return params.get_int("barrier") != 0 ? footprint::with_barrier(rounds, shape) : rounds;
          },
  };
}

}  // namespace a2a::catalog_entries
