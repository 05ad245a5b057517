// Models of the non-uniform logarithmic algorithms: docs/algorithms.md "Non-uniform logarithmic
// algorithms" and "Cost models" (padded_bruck: Fan et al., HPDC 2022, §3.3, eq. 1; two_phase_bruck:
// Fan et al., HPDC 2022, §3.3, eq. 2; radix r: Fan et al., HPDC 2025, §3.1). Notation: P ranks, N
// the largest block anywhere, rounds (x, z) of bruck_indices.hpp with m_{x,z} the blocks whose x-th
// base-r digit is z (radix 2: m_k), α, β, β_nic, o as in machine.hpp, c the memory-copy seconds per
// byte, L the launch overhead of a group, and
//   A = ⌈log2 P⌉·(α + 2·o + 8·β)   the simulated allreduce of N (dissemination, 8-byte values).
// Where the blocks a round moves differ in size, the model takes for each round the exact
// largest message any rank sends, from the workload (D_{x,z} below): a sum of per-round maxima,
// which is exact when ranks run in lockstep and an upper bound otherwise.
#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"
#include "sim/model/families.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::model {

namespace {

constexpr Bytes kSizeBytes = 8;  // one block size in a metadata message

// Padding (padding.hpp): the allreduce of N, the copy of every send block into its N-byte slot and
// of the self block straight to the receive buffer (together, what the rank sends), the uniform
// exchange of N-byte blocks, and the copy of every other real receive block out of its slot.
template <typename Uniform>
void padded(const Exchange& x, CostBuilder& cost, Uniform&& uniform_exchange) {
  cost.allreduce_max();
  cost.copy(x.most_sent());
  uniform_exchange(x.largest_block());
  cost.copy(x.most_received() - x.largest_self());
}

}  // namespace

// The rounds of radix_exchange.cpp, run by every group at once: groups of Q = group_size ranks
// `stride` apart (radix::RankGroup), consecutive ranks when stride is 1. Per round: a metadata step
// (the sizes of the moving blocks, 8 bytes each) and a data step, each one group with one send and
// one receive per rank:
//   T_round = 2·L + 2·α + 4·o + m·members·8·β + D·β      (o = 0: no overlap of the two steps)
// with D the most bytes a rank sends in the round.
void radix_exchange_rounds(const Exchange& x, CostBuilder& cost, int group_size, int radix,
                           int members,
                           const std::function<Bytes(int p, int src, int dst)>& bytes_of_column,
                           int stride, bool barrier_each_round) {
  if (group_size <= 1) return;
  const int P = x.ranks();
  const int Q = group_size;
  const auto local = [&](int p) { return p / stride % Q; };  // p's index in its group
  auto peer = [&](int p, const bruck::Round& round) {
    const int base = p - local(p) * stride;
    return base + bruck::send_peer(Q, local(p), bruck::Orientation::modified, round) * stride;
  };
  bruck::for_each_round(Q, radix, [&](const bruck::Round& round) {
    const Bytes sizes = bruck::blocks_in_round(Q, round, radix) * members * kSizeBytes;
    cost.round();
    cost.launch();
    cost.step({1, 1}, [&](auto emit) {
      for (int p = 0; p < P; ++p)
        emit(p, peer(p, round), sizes);
    });
    cost.launch();
    cost.step({1, 1}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        Bytes bytes = 0;
        bruck::for_each_index(Q, round, radix, [&](int o) {
          const BlockId column = bruck::modified_block(Q, local(p), o, round.place);
          bytes += bytes_of_column(p, column.src, column.dst);
        });
        emit(p, peer(p, round), bytes);
      }
    });
    if (barrier_each_round) cost.barrier();
  });
}

// padded_bruck (Fan et al., HPDC 2022, §3.1; §3.3, eq. 1: α·log P + β·log P·((P+1)/2)·N): pad to N,
// zero-rotation Bruck on N-byte blocks, unpad.
//   T = A + c·(S + R − n_self) + Σ_k (L + α + 2·o + m_k·N·β + m_k·N·c)
// with S, R the most bytes a rank sends / receives and n_self its own block (copied once, not
// padded). On a contention-free star with o = c = 0:
// ⌈log2 P⌉·(α + 8β) + Σ_k (α + m_k·N·β) (tests/sim/closed_form).
void padded_bruck(const Configuration&, const Exchange& x, CostBuilder& cost) {
  padded(x, cost, [&](Bytes N) { zero_rotation_rounds(x, cost, 2, N); });
}

// padded_alltoall (Fan et al., HPDC 2022, §4.1): pad to N, the simulated vendor alltoall
// (sim/vendor_model.hpp: batches of 32 distances, not grouped), unpad.
//   T = A + c·(S + R − n_self + N) + Σ_{⌈(P−1)/32⌉ batches} (α + max(64·o + N·β, 33·o +
//   32·N·β_nic))
void padded_alltoall(const Configuration&, const Exchange& x, CostBuilder& cost) {
  padded(x, cost, [&](Bytes N) {
    cost.copy(N);
    direct_batches(x, cost, {.batch = sim::kVendorAlltoallThrottle, .grouped = false},
                   [N](int, int) { return N; });
  });
}

// two_phase_bruck (Fan et al., HPDC 2022, §3.2, Alg. 1; §3.3, eq. 2: 2α·log P + 4β·log P·(P+1)/2 +
// (N/2)·β·log P·(P+1)/2 with 4-byte sizes): radix-2 rounds of metadata then data.
//   T = A + c·n_self + Σ_k (2·L + 2·α + 4·o + 8·m_k·β + D_k·β)
// D_k the most bytes a rank sends in step k: the blocks it holds whose distance has bit k set,
// forwarded ones included, summed from the workload.
void two_phase_bruck(const Configuration&, const Exchange& x, CostBuilder& cost) {
  cost.allreduce_max();
  cost.copy(x.largest_self());
  radix_exchange_rounds(x, cost, x.ranks(), 2, 1,
                        [&](int, int src, int dst) { return x.block(src, dst); });
}

// parlogna, radix r (Fan et al., HPDC 2025, §3, Alg. 1): two_phase_bruck in base r; K ≤ w·(r−1)
// rounds.
//   T = [B > 0]·A + c·n_self + Σ_{x,z} (2·L + 2·α + 4·o + 8·m_{x,z}·β + D_{x,z}·β + [barrier]·W)
// B = P − (K+1) temporary slots: no allreduce when r ≥ P − 1 (every distance direct). With
// barrier=1 every round adds W, the simulated barrier (CostBuilder::barrier).
void parlogna(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const int r = config.params.get_int("radix");
  if (radix::temp_slots(x.ranks(), r) > 0) cost.allreduce_max();
  cost.copy(x.largest_self());
  radix_exchange_rounds(
      x, cost, x.ranks(), r, 1, [&](int, int src, int dst) { return x.block(src, dst); }, 1,
      config.params.get_int("barrier") != 0);
}

}  // namespace a2a::model
