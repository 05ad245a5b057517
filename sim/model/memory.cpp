// Model of the memory-efficient algorithm: docs/algorithms.md "bitonic_inplace" (Zhuang et al.,
// IPSJ SIG-HPC 2009, §2, §3.1–3.2: O(N log² P) time). docs/algorithms.md gives no closed form; the
// model follows the code. Notation: P = 2^s ranks each sending and receiving n bytes in all, buffer
// (chunk) size C, α, β, o as in machine.hpp, c the memory-copy seconds per byte, A the allreduce of
// nonuniform.cpp. s·(s+1)/2 compare-exchange steps; step t swaps W_t bytes between partners (the
// most of any pair) in ⌈W_t / C⌉ chunks and merges in place, moving M_t bytes (rotation merge, O(n
// log R)):
//   T = 2·A + c·n + Σ_t [ (α + 2·o + 8·β) + (α + 2·o + 32·R_t·β)             (run descriptors)
//                        + Σ_chunks (c·C_j + α + 2·o + C_j·β)                 (swap)
//                        + c·M_t ]                                            (merge)
// R_t the most runs a rank holds. W_t, R_t and M_t depend on the block sizes: the model computes
// them by running the algorithm's own run bookkeeping (bitonic_runs.hpp) on every rank's run
// list, from the workload — no bytes, O(P·R) integers.
#include <algorithm>
#include <vector>

#include "algorithms/errors.hpp"
#include "algorithms/memory/bitonic_runs.hpp"
#include "sim/model/families.hpp"

namespace a2a::model {

namespace {

// The partners tell each other their run count, then their runs (bitonic_inplace.cpp,
// exchange_runs): two rounds.
void run_descriptors(CostBuilder& cost, int P, int stage, int step,
                     const std::vector<bitonic::RunList>& runs) {
  cost.round();
  cost.step({1, 1}, [&](auto emit) {
    for (int p = 0; p < P; ++p)
      emit(p, bitonic::partner(p, stage, step), kValueBytes);
  });
  cost.round();
  cost.step({1, 1}, [&](auto emit) {
    for (int p = 0; p < P; ++p) {
      const auto values =
          static_cast<Bytes>(runs[static_cast<size_t>(p)].size() * bitonic::kRunFields);
      emit(p, bitonic::partner(p, stage, step), values * kValueBytes);
    }
  });
}

// The swap through the C-byte buffer: per chunk a copy into the buffer and one exchange.
void swap_chunks(CostBuilder& cost, int P, int stage, int step,
                 const std::vector<bitonic::SwapPlan>& plans, Bytes chunk) {
  Bytes most = 0;
  for (const bitonic::SwapPlan& plan : plans)
    most = std::max(most, plan.bytes);
  cost.round();
  for (Bytes at = 0; at < most; at += chunk) {
    cost.copy(std::min(chunk, most - at));
    cost.step({1, 1}, [&](auto emit) {
      for (int p = 0; p < P; ++p) {
        const Bytes left = plans[static_cast<size_t>(p)].bytes - at;
        if (left > 0) emit(p, bitonic::partner(p, stage, step), std::min(chunk, left));
      }
    });
  }
}

}  // namespace

void bitonic_inplace(const Configuration& config, const Exchange& x, CostBuilder& cost) {
  const int P = x.ranks();
  const int stages = bitonic::log2_exact(P);
  if (stages < 0) throw NotApplicable("bitonic_inplace needs a power-of-two number of ranks");
  cost.allreduce_max();  // the total, then whether every rank's totals agree
  cost.allreduce_max();
  const Bytes n = x.most_sent();
  cost.round();
  cost.copy(n);
  if (P == 1 || n == 0) return;
  const Bytes chunk = std::min<Bytes>(config.params.get("chunk"), n);
  std::vector<bitonic::RunList> runs(static_cast<size_t>(P));
  for (int p = 0; p < P; ++p)
    runs[static_cast<size_t>(p)] =
        bitonic::send_runs(p, P, [&](BlockId b) { return x.block(b.src, b.dst); });
  std::vector<bitonic::SwapPlan> plans(static_cast<size_t>(P));
  for (int stage = 1; stage <= stages; ++stage) {
    for (int step = 0; step < stage; ++step) {
      run_descriptors(cost, P, stage, step, runs);
      for (int p = 0; p < P; ++p) {
        const int q = bitonic::partner(p, stage, step);
        plans[static_cast<size_t>(p)] =
            bitonic::plan_swap(runs[static_cast<size_t>(p)], runs[static_cast<size_t>(q)], p < q);
      }
      swap_chunks(cost, P, stage, step, plans, chunk);
      Bytes merged = 0;
      for (int p = 0; p < P; ++p) {
        bitonic::SwapPlan& plan = plans[static_cast<size_t>(p)];
        Bytes moved = 0;
        bitonic::merge_in_place(plan.layout, 0, plan.middle, plan.layout.size(), 0, chunk,
                                [&](const bitonic::LocalMove& move) { moved += move.run.bytes; });
        runs[static_cast<size_t>(p)] = bitonic::normalized(plan.layout);
        merged = std::max(merged, moved);
      }
      cost.copy(merged);
    }
  }
}

}  // namespace a2a::model
