// Prefix sums down the columns of a counter-based matrix, every `block` sources, cached per
// column: what makes a long run down a column cost two lookups and at most 2·block draws.
//
// Why: the late rounds of a Bruck-style exchange (bruck::for_each_run, place ≥ √(P/r)) send
// columns: for each destination, the blocks of `place` consecutive sources. Drawn one by one that
// is P/2 draws per rank and round at radix 2, the half of a P = 131,072 run that the residue sums
// (distance_residue_sums.hpp) leave (docs/performance.md). With the column's sums at every multiple
// of `block`, a run of n ≥ 2·block sources draws only its two ends.
//
// A column is filled (P draws) the first time a long run of it is asked for, on whichever thread
// asks; the sums are the same integers as the draws'.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "workloads/lazy_table.hpp"

namespace a2a::workload_rng {

class ColumnPrefixSums {
 public:
  // At most 512 MiB.
  static constexpr std::int64_t kBudgetBytes = std::int64_t{512} << 20;

  // `rows`: row_key of every source (P of them, kept by the caller); each draw is
  // below_or_equal(draw_in_row(rows[src], dst), bound).
  ColumnPrefixSums(std::span<const std::uint64_t> rows, std::int64_t bound);

  // Σ count(src + k, dst) over k < n for a straight run (src + n ≤ P) of at least 2·block sources;
  // nothing for a shorter one, or when there is no cache.
  std::optional<std::int64_t> run(std::int64_t src, std::int64_t dst, std::int64_t n) const;

  // Sources between two cached sums (0: no cache, e.g. sums that could exceed 32 bits, or P too
  // small for a cache to pay).
  std::int64_t block() const { return block_; }
  // Bytes the cache takes once every column is filled.
  std::int64_t bytes() const { return block_ == 0 ? 0 : sums_.bytes(); }
  // The block a cache for P ranks would use (0: none).
  static std::int64_t block_for(std::int64_t ranks, std::int64_t bound);

 private:
  std::int64_t sums_per_column() const { return (ranks_ + block_ - 1) / block_ + 1; }
  void fill(std::int64_t dst, std::uint32_t* sums) const;
  std::int64_t draws(std::int64_t src, std::int64_t dst, std::int64_t n) const;

  std::span<const std::uint64_t> rows_;
  std::int64_t ranks_;
  std::int64_t bound_;
  std::int64_t block_;
  LazyTable sums_;  // per column: its sums at every multiple of block_, and its total
};

}  // namespace a2a::workload_rng
