// Models of the linear-time (direct) algorithms: docs/algorithms.md "Linear-time (direct)
// algorithms" and "Cost models" (spread_out / scattered: (P−1)·α + β·Σ bytes sent in Hockney's
// form). Notation: P ranks, n bytes per block (uniform), α, β, β_nic, o as in machine.hpp; c the
// memory-copy seconds per byte, L the launch overhead of a group.
#include <algorithm>

#include "algorithms/digits.hpp"
#include "sim/model/families.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::model {

void direct_batches(const Exchange& x, CostBuilder& cost, const DirectBatches& how,
                    const std::function<Bytes(int, int)>& bytes_of) {
  const int P = x.ranks();
  for (int first = 1; first < P; first += how.batch) {
    const int last = std::min(P - 1, first + how.batch - 1);
    const std::int64_t k = last - first + 1;
    cost.round();
    if (how.grouped) cost.launch();
    cost.step({k, k, how.same_last_destination, how.waits_sends}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        for (int i = first; i <= last; ++i) {
          const auto dst = static_cast<int>(mod(p - i, P));
          emit(p, dst, bytes_of(p, dst));
        }
      }
    });
  }
}

namespace {

// The self copy, then the P − 1 exchanges of every rank as `how` says.
void direct_exchanges(const Exchange& x, CostBuilder& cost, const DirectBatches& how) {
  cost.copy(x.largest_self());
  direct_batches(x, cost, how, [&](int p, int dst) { return x.block(p, dst); });
}

}  // namespace

// spread_out (Netterville et al., HiPCW 2022, §II, Alg. 2; Fan et al., HPDC 2022, §4.1): one step
// with every send in flight.
//   T = c·n + L + α + max((2P−2)·o + n·β, P·o + (P−1)·n·β_nic)
// On a contention-free star with o = c = L = 0: α + (P−1)·n·β — not Hockney's (P−1)·α + ... :
// the sends share the node's link at once, so the latency is paid once (docs/simulation.md).
// Non-uniform: n is the largest block and (P−1)·n the most bytes a rank sends or receives. With Q
// ranks per node their node's link carries Q·(P−Q)·n: the contention term.
void spread_out(const Configuration&, const Exchange& x, CostBuilder& cost) {
  direct_exchanges(x, cost, {.batch = std::max(1, x.ranks() - 1)});
}

// scattered, batch b (Fan et al., HPDC 2025, §2(d), MPICH): ⌈(P−1)/b⌉ steps of b exchanges each,
//   T = c·n + Σ_batches [L + α + max(2b·o + n·β, (b+1)·o + b·n·β_nic)]
// = ⌈(P−1)/b⌉·α + (P−1)·n·β on a contention-free star with o = 0.
// With lazy_sends a batch waits for its receives only: no batch waits for an acknowledgement.
void scattered(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  direct_exchanges(x, cost,
                   {.batch = config.params.get_int("batch"),
                    .waits_sends = config.params.get_int("lazy_sends") == 0});
}

// ompi_linear (Fan et al., HPDC 2025, §2(d), Open MPI basic linear): all receives, then all sends
// in ascending rank order, one wait. Every rank posts its send to the last rank (P − 1, or P − 2 on
// P − 1) last, so that rank's link receives its P − 1 blocks only after everyone's last post:
//   T = c·n + L + α + (2P−2)·o + (P−1)·n·β_nic
// the cost of spread_out when o = 0.
void ompi_linear(const Configuration&, const Exchange& x, CostBuilder& cost) {
  direct_exchanges(x, cost, {.batch = std::max(1, x.ranks() - 1), .same_last_destination = true});
}

// ompi_pairwise (Fan et al., HPDC 2025, §2(d), Open MPI pairwise): P − 1 steps, step k receives
// from p − k and sends to p + k, waited before the next:
//   T = c·n + Σ_{k=1}^{P−1} (L + α + 2·o + n_k·β),  n_k the largest block at distance k
// = (P−1)·(α + n·β) on a contention-free star (Hockney's linear cost, exactly).
void ompi_pairwise(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  cost.copy(x.largest_self());
  for (int k = 1; k < P; ++k) {
    cost.round();
    cost.launch();
    cost.step({1, 1}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        const auto dst = static_cast<int>(mod(p + k, P));
        emit(p, dst, x.block(p, dst));
      }
    });
  }
}

// xor_pairwise (Fan et al., HPDC 2025, §5.3): steps k = 1..P'−1 (P' the next power of two), partner
// p XOR k.
//   T = c·n + Σ_{k : some pair p, p XOR k < P} (L + α + 2·o + n_k·β)
// Every rank makes P − 1 exchanges, but when P is not a power of two a rank waits for partners
// still busy with earlier steps: the model charges every step in which any pair exchanges (the
// chain through the busiest ranks), an upper bound that is exact for powers of two.
void xor_pairwise(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  int steps = 1;
  while (steps < P)
    steps *= 2;
  cost.copy(x.largest_self());
  cost.round(P - 1);
  for (int k = 1; k < steps; ++k) {
    cost.step({1, 1}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        if ((p ^ k) < P) emit(p, p ^ k, x.block(p, p ^ k));
      }
    });
    cost.launch();
  }
}

// vendor (Fan et al., HPDC 2025, §5.3): the model of the configuration the named MPI picks
// (sim/vendor_model.hpp: Open MPI's fixed rule by communicator size, or MPICH's scattered 32).
void vendor(const Configuration&, const Exchange& x, CostBuilder& cost) {
  const Configuration chosen =
      sim::vendor_choice(x.vendor(), x.ranks(), cost.machine().ranks_per_node);
  model_of(chosen.algorithm->name)(chosen, x, cost);
}

}  // namespace a2a::model
