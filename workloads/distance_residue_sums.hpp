// Sums of a counter-based row by residue class of the distance, cached per source: what makes a
// Bruck round's message size cost a table lookup instead of P/r draws.
//
// Why: in a Bruck-style round (bruck::for_each_run) the blocks rank h sends, when they are summed
// as rows, are for each source s a whole residue class of the distance δ = ±(dst − src) mod P:
// every δ < P with δ ≡ c (mod m), m = r^(k+1) the round's period. The scale engine sums each such
// row draw by draw (Workload::run_count); over the log_r P rounds every rank draws about
// (r − 1)/r · P blocks per round, which took half the run at P = 131,072 (docs/performance.md).
// Drawing a source's whole row once (P draws) and folding it gives its sums for every modulus
// 2, 4, ..., M at once, so every later row round of that source is a lookup.
//
// The cache holds, per source, the sums for every power of two m ≤ M and every c < m
// (2M − 2 numbers of 32 bits), M ≤ √(4P) (larger periods are summed as columns) and the cache
// ≤ kBudgetBytes. A source is filled the first time a run of it is asked for, on whichever thread
// asks (rank batches run on several threads): its sums are the same integers as the draws', so
// predictions do not depend on which runs hit the cache.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "workloads/lazy_table.hpp"

namespace a2a::workload_rng {

class DistanceResidueSums {
 public:
  // Per direction of the distance (dst − src or src − dst): at most 512 MiB.
  static constexpr std::int64_t kBudgetBytes = std::int64_t{512} << 20;

  // `rows`: row_key of every source (P of them, kept by the caller); `bound`: each draw is
  // below_or_equal(draw_in_row(rows[src], dst), bound). `sign` +1: δ = dst − src; −1: src − dst.
  DistanceResidueSums(std::span<const std::uint64_t> rows, std::int64_t bound, int sign);

  // Σ count(src, (dst + k·dst_step) mod P) over k < n when that run is a whole residue class of
  // the distance (dst_step = sign · m, m a power of two ≤ M, the run starting at the class's
  // smallest distance c < m and ending at its largest below P); nothing otherwise.
  std::optional<std::int64_t> whole_class(std::int64_t src, std::int64_t dst, std::int64_t dst_step,
                                          std::int64_t n) const;

  // The largest modulus cached (0: none, e.g. P = 1 or sums that could exceed 32 bits).
  std::int64_t largest_modulus() const { return modulus_; }
  // Bytes the cache takes once every source is filled.
  std::int64_t bytes() const { return modulus_ == 0 ? 0 : sums_.bytes(); }
  // The largest modulus a cache for P ranks would hold (0: none).
  static std::int64_t largest_modulus_for(std::int64_t ranks, std::int64_t bound);

 private:
  void fill(std::int64_t src, std::uint32_t* sums) const;

  std::span<const std::uint64_t> rows_;
  std::int64_t ranks_;
  std::int64_t bound_;
  int sign_;
  std::int64_t modulus_;
  LazyTable sums_;  // per source: 2M − 2 numbers
};

}  // namespace a2a::workload_rng
