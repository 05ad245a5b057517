// What the family files of the analytic models share (internal to sim/model/): the exchange as a
// model sees it, and the model of each algorithm, listed here by family.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "algorithms/registry.hpp"
#include "sim/model/cost.hpp"
#include "workloads/workload.hpp"

namespace a2a::model {

// The workload's block sizes in bytes, and the summaries several models need, computed once.
class Exchange {
 public:
  Exchange(const Workload& workload, std::string vendor)
      : workload_(workload), vendor_(std::move(vendor)) {}

  int ranks() const { return workload_.ranks(); }
  const Workload& workload() const { return workload_; }
  const std::string& vendor() const { return vendor_; }
  Bytes block(int src, int dst) const {
    return workload_.count(src, dst) * workload_.element_bytes();
  }
  // n of a uniform exchange; NotApplicable naming `algorithm` otherwise.
  Bytes uniform_block(const char* algorithm) const;
  Bytes largest_block() const;  // N: the largest block anywhere
  Bytes largest_self() const;   // the largest block a rank sends itself
  Bytes most_sent() const;      // the largest total a rank sends (its own block included)
  Bytes most_received() const;  // the largest total a rank receives (its own block included)

 private:
  void summarize() const;

  const Workload& workload_;
  std::string vendor_;
  struct Summary {
    Bytes largest = 0, self = 0, sent = 0, received = 0;
  };
  mutable std::optional<Summary> summary_;
};

// The largest of f(p) over ranks p.
template <typename F>
Bytes max_over_ranks(int P, F&& f) {
  Bytes most = 0;
  for (int p = 0; p < P; ++p)
    most = std::max<Bytes>(most, f(p));
  return most;
}

using Model = void (*)(const Configuration&, const Exchange&, CostBuilder&);
// The model of the algorithm `name`; InvalidParameter when it has none (model.cpp).
Model model_of(const std::string& name);

// linear.cpp
void spread_out(const Configuration&, const Exchange&, CostBuilder&);
void scattered(const Configuration&, const Exchange&, CostBuilder&);
void ompi_linear(const Configuration&, const Exchange&, CostBuilder&);
void ompi_pairwise(const Configuration&, const Exchange&, CostBuilder&);
void xor_pairwise(const Configuration&, const Exchange&, CostBuilder&);
void vendor(const Configuration&, const Exchange&, CostBuilder&);
// The direct exchanges of every rank with the ranks at distances 1..P−1 in batches of `batch`:
// per batch one round (and one group when `grouped`) in which rank p receives from p + i and
// sends bytes_of(p, p − i) to p − i for each distance i of the batch. spread_out, scattered,
// ompi_linear and the simulated vendor alltoall.
struct DirectBatches {
  int batch = 1;
  bool grouped = true;
  bool same_last_destination = false;  // ompi_linear: every rank sends to the same rank last
  bool waits_sends = true;             // false: scattered's lazy_sends (receives only per batch)
};
void direct_batches(const Exchange& x, CostBuilder& cost, const DirectBatches& how,
                    const std::function<Bytes(int p, int dst)>& bytes_of);
// bruck.cpp
void bruck_basic(const Configuration&, const Exchange&, CostBuilder&);
void bruck_modified(const Configuration&, const Exchange&, CostBuilder&);
void bruck_zero_copy(const Configuration&, const Exchange&, CostBuilder&);
void bruck_zero_rotation(const Configuration&, const Exchange&, CostBuilder&);
void bruck_radix(const Configuration&, const Exchange&, CostBuilder&);
// Zero-rotation Bruck rounds in radix r on blocks of `block` bytes (bruck_rounds.hpp,
// zero_rotation_rounds): every round with its staged copy, the self copy left to the caller.
// Shared with padded_bruck.
void zero_rotation_rounds(const Exchange& x, CostBuilder& cost, int radix, Bytes block);
// nonuniform.cpp
void padded_bruck(const Configuration&, const Exchange&, CostBuilder&);
void padded_alltoall(const Configuration&, const Exchange&, CostBuilder&);
void two_phase_bruck(const Configuration&, const Exchange&, CostBuilder&);
void parlogna(const Configuration&, const Exchange&, CostBuilder&);
// The two-phase radix-r exchange (radix_exchange.cpp) run by every group of `group_size` ranks
// `stride` apart at once (consecutive ranks when stride is 1); `bytes_of_column(p, src, dst)` is
// the bytes of the column that group-local rank `src` of rank p's group sends to group-local `dst`
// (the sum over its `members` blocks). Shared with ParLinNa's intra-node phase and
// hierarchical_bruck's two phases. `barrier_each_round`: a barrier of all ranks after every round
// (parlogna's `barrier`).
void radix_exchange_rounds(const Exchange& x, CostBuilder& cost, int group_size, int radix,
                           int members,
                           const std::function<Bytes(int p, int src, int dst)>& bytes_of_column,
                           int stride = 1, bool barrier_each_round = false);
// hierarchical.cpp
void parlinna_coalesced(const Configuration&, const Exchange&, CostBuilder&);
void parlinna_staggered(const Configuration&, const Exchange&, CostBuilder&);
void hierarchical_bruck(const Configuration&, const Exchange&, CostBuilder&);
// memory.cpp
void bitonic_inplace(const Configuration&, const Exchange&, CostBuilder&);

}  // namespace a2a::model
