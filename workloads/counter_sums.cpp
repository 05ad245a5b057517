// sum_below_or_equal (counter_rng.hpp): the sum of many counter-based draws, written so the
// compiler vectorises it. Each draw is independent (no loop-carried state but the sum), and for
// bounds below 2^32 Lemire's 64×64→128-bit multiply-shift is computed exactly from two 32×32→64
// products, which vector units have. GCC builds an AVX-512 clone (x86-64-v4: 64-bit vector
// multiplies) next to the baseline one and picks it at load time; both give the same integers.
// This file is compiled with -O3 (CMakeLists.txt): -O2 in GCC 12 does not vectorise these loops.
#include <cstdint>

#include "workloads/counter_rng.hpp"

namespace a2a::workload_rng {

namespace {

// floor(word · b / 2^64) for b <= 2^32, exactly: with word = hi·2^32 + lo it is
// floor((hi·b + floor(lo·b / 2^32)) / 2^32), and hi·b + lo·b / 2^32 < 2^64.
inline std::uint64_t scale_small(std::uint64_t word, std::uint64_t b) {
  return ((word >> 32) * b + (((word & 0xFFFFFFFFull) * b) >> 32)) >> 32;
}

// One source: its half of draw_keyed is mixed once.
[[gnu::target_clones("arch=x86-64-v4", "default")]] std::uint64_t row_sum(
    std::uint64_t row, std::uint64_t dst, std::uint64_t dst_step, std::int64_t n, std::uint64_t b) {
  std::uint64_t total = 0;
  for (std::int64_t k = 0; k < n; ++k)
    total += scale_small(draw_in_row(row, dst + static_cast<std::uint64_t>(k) * dst_step), b);
  return total;
}

[[gnu::target_clones("arch=x86-64-v4", "default")]] std::uint64_t pair_sum(
    std::uint64_t key, std::uint64_t src, std::uint64_t src_step, std::uint64_t dst,
    std::uint64_t dst_step, std::int64_t n, std::uint64_t b) {
  std::uint64_t total = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    const auto step = static_cast<std::uint64_t>(k);
    total += scale_small(draw_keyed(key, src + step * src_step, dst + step * dst_step), b);
  }
  return total;
}

}  // namespace

std::int64_t sum_below_or_equal(std::uint64_t key, std::int64_t src, std::int64_t src_step,
                                std::int64_t dst, std::int64_t dst_step, std::int64_t n,
                                std::int64_t bound) {
  // Indices are non-negative and steps are added in two's complement: unsigned arithmetic gives
  // the same words draw_keyed sees.
  const auto s = static_cast<std::uint64_t>(src), ss = static_cast<std::uint64_t>(src_step);
  const auto d = static_cast<std::uint64_t>(dst), ds = static_cast<std::uint64_t>(dst_step);
  const auto b = static_cast<std::uint64_t>(bound) + 1;
  if (b > (std::uint64_t{1} << 32)) {  // rare (blocks above 32 GiB of 8-byte elements): scalar
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      const auto step = static_cast<std::uint64_t>(k);
      total += below_or_equal(draw_keyed(key, s + step * ss, d + step * ds), bound);
    }
    return total;
  }
  const std::uint64_t total =
      src_step == 0 ? row_sum(row_key(key, s), d, ds, n, b) : pair_sum(key, s, ss, d, ds, n, b);
  return static_cast<std::int64_t>(total);
}

}  // namespace a2a::workload_rng
