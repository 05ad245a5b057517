#include "workloads/column_prefix_sums.hpp"

#include <algorithm>

#include "workloads/counter_rng.hpp"

namespace a2a::workload_rng {

namespace {

// Below 64 sources a block's two lookups (cache misses) cost about what its draws do.
constexpr std::int64_t kSmallestBlock = 64;

}  // namespace

std::int64_t ColumnPrefixSums::block_for(std::int64_t ranks, std::int64_t bound) {
  // A column's sum is at most P · bound: it must fit the 32-bit numbers.
  if (bound < 0 || static_cast<double>(ranks) * static_cast<double>(bound + 1) >= 4294967296.0) {
    return 0;
  }
  std::int64_t block = kSmallestBlock;
  while (block < ranks && ranks * ((ranks + block - 1) / block + 1) * 4 > kBudgetBytes)
    block *= 2;
  return ranks >= 4 * block ? block : 0;  // a run must span two blocks to use it
}

ColumnPrefixSums::ColumnPrefixSums(std::span<const std::uint64_t> rows, std::int64_t bound)
    : rows_(rows),
      ranks_(static_cast<std::int64_t>(rows.size())),
      bound_(bound),
      block_(block_for(ranks_, bound)),
      sums_(ranks_, block_ == 0 ? 0 : sums_per_column()) {}

std::int64_t ColumnPrefixSums::draws(std::int64_t src, std::int64_t dst, std::int64_t n) const {
  return sum_below_or_equal(rows_, src, 1, dst, 0, n, bound_);
}

std::optional<std::int64_t> ColumnPrefixSums::run(std::int64_t src, std::int64_t dst,
                                                  std::int64_t n) const {
  if (block_ == 0 || n < 2 * block_) return {};
  const std::int64_t end = src + n;
  const std::int64_t first = (src + block_ - 1) / block_;  // first whole block
  const std::int64_t last = end == ranks_ ? sums_per_column() - 1 : end / block_;  // sums index
  const std::int64_t head_end = first * block_, tail_start = std::min(last * block_, ranks_);
  const std::uint32_t* sums = sums_.row(dst, [&](std::uint32_t* out) { fill(dst, out); });
  // The two sums are a cache miss (the table is hundreds of MiB): loaded after the head's draws,
  // as written before, the miss stalled the run (88 % of this function's samples on the load in
  // `perf annotate`, P = 131,072). Started first, it overlaps the head's and the tail's draws.
  __builtin_prefetch(sums + first);
  __builtin_prefetch(sums + last);
  const std::int64_t ends =
      draws(src, dst, head_end - src) + draws(tail_start, dst, end - tail_start);
  return ends + (std::int64_t{sums[last]} - sums[first]);
}

void ColumnPrefixSums::fill(std::int64_t dst, std::uint32_t* sums) const {
  // sums[i]: the column's draws from the sources below i · block (the last: all of them).
  sums[0] = 0;
  for (std::int64_t i = 1; i < sums_per_column(); ++i) {
    const std::int64_t from = (i - 1) * block_;
    sums[i] =
        sums[i - 1] + static_cast<std::uint32_t>(draws(from, dst, std::min(block_, ranks_ - from)));
  }
}

}  // namespace a2a::workload_rng
