// Models of the uniform Bruck family: docs/algorithms.md "Bruck family" and "Cost models" (uniform
// Bruck, radix 2: ⌈log2 P⌉·α + β·n·Σ_k |{i < P : bit k of i set}|; radix r: K ≤ w·(r−1) rounds),
// Fan et al., HPDC 2022, §2.1; Fan et al., HPDC 2025, §3.1.
// Notation: P ranks, n bytes per block, rounds (x, z) of bruck_indices.hpp with m_{x,z} the blocks
// whose x-th base-r digit is z (radix 2: m_k = |{i < P : bit k of i set}|), α, β, β_nic, o as in
// machine.hpp, c the memory-copy seconds per byte, L the launch overhead of a group. Every round
// is one group (bruck_rounds.hpp) with one receive and one send per rank:
//   T_round = L + α + max(2·o + m·n·β, 2·o + m·n·β_nic)
// (the two bandwidth terms differ only when ranks of one node send off-node at once).
#include "algorithms/bruck/bruck_indices.hpp"
#include "sim/model/families.hpp"

namespace a2a::model {

namespace {

using bruck::Orientation;

// Every round of the exchange, each followed (when `staged`) by the copy of its arrivals from the
// staging buffer into R: m·n bytes (bruck_rounds.hpp, staged_rounds).
void rounds(const Exchange& x, CostBuilder& cost, Orientation orientation, int radix, Bytes block,
            bool staged) {
  const int P = x.ranks();
  bruck::for_each_round(P, radix, [&](const bruck::Round& round) {
    const Bytes bytes = bruck::blocks_in_round(P, round, radix) * block;
    cost.round();
    cost.launch();
    cost.step({1, 1}, [&](auto emit) {
      for (int p = 0; p < P; ++p)
        emit(p, bruck::send_peer(P, p, orientation, round), bytes);
    });
    if (staged) cost.copy(bytes);
  });
}

}  // namespace

void zero_rotation_rounds(const Exchange& x, CostBuilder& cost, int radix, Bytes block) {
  rounds(x, cost, Orientation::modified, radix, block, true);
}

// bruck_basic (Fan et al., HPDC 2022, §2.1; Netterville et al., HiPCW 2022, §II, Alg. 1): rotation,
// radix-2 rounds, inverse rotation.
//   T = 2·P·n·c + Σ_k (T_round(m_k) + m_k·n·c)
// = Σ_k (α + m_k·n·β) on a contention-free star with free copies (tests/sim/closed_form).
void bruck_basic(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const Bytes n = x.uniform_block("bruck_basic");
  cost.copy(x.ranks() * n);
  rounds(x, cost, Orientation::basic, 2, n, true);
  cost.copy(x.ranks() * n);
}

// bruck_modified (Fan et al., HPDC 2022, §2.1; Träff et al., ICS 2014): one rotation, no inverse
// rotation.
//   T = P·n·c + Σ_k (T_round(m_k) + m_k·n·c)
void bruck_modified(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const Bytes n = x.uniform_block("bruck_modified");
  cost.copy(x.ranks() * n);
  rounds(x, cost, Orientation::modified, 2, n, true);
}

// bruck_zero_copy (Fan et al., HPDC 2022, §2.1): one rotation, then rounds that alternate two
// buffers and copy nothing.
//   T = P·n·c + Σ_k T_round(m_k)
void bruck_zero_copy(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const Bytes n = x.uniform_block("bruck_zero_copy");
  cost.copy(x.ranks() * n);
  rounds(x, cost, Orientation::modified, 2, n, false);
}

// bruck_zero_rotation (Fan et al., HPDC 2022, §2.1): no rotation; the self block is the only extra
// copy.
//   T = n·c + Σ_k (T_round(m_k) + m_k·n·c)
void bruck_zero_rotation(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const Bytes n = x.uniform_block("bruck_zero_rotation");
  cost.copy(n);  // the self block
  zero_rotation_rounds(x, cost, 2, n);
}

// bruck_radix, radix r (Fan et al., HPDC 2025, §2(c), §3.1): K ≤ w·(r−1) rounds (x, z), w = digits
// of P − 1.
//   T = n·c + Σ_{x,z} (T_round(m_{x,z}) + m_{x,z}·n·c)
// Small r: few rounds (K·α); large r: few forwarded blocks (Σ m_{x,z} ≤ w·(r−1)·r^(w−1)).
void bruck_radix(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const Bytes n = x.uniform_block("bruck_radix");
  cost.copy(n);  // the self block
  zero_rotation_rounds(x, cost, config.params.get_int("radix"), n);
}

}  // namespace a2a::model
