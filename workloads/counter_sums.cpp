// sum_below_or_equal (counter_rng.hpp): the sum of many counter-based draws, written so the
// compiler vectorises it. Each draw is independent (no loop-carried state but the sum), and for
// bounds below 2^32 Lemire's 64×64→128-bit multiply-shift is computed exactly from two 32×32→64
// products, which vector units have. GCC builds an AVX-512 clone (x86-64-v4: 64-bit vector
// multiplies) and an AVX2 clone (x86-64-v3: each 64-bit multiply made of three 32×32→64 ones)
// next to the baseline one and picks one at load time; all give the same integers. Without the
// AVX2 clone a CPU lacking AVX-512 ran the scalar loop: on an AMD EPYC (Zen 3) a draw took 3.2 ns
// in a row and 5.2 ns down a column, 2.1 ns with it (docs/performance.md).
// This file is compiled with -O3 (CMakeLists.txt): -O2 in GCC 12 does not vectorise these loops.
#include <cstdint>
#include <span>

#include "workloads/counter_rng.hpp"

namespace a2a::workload_rng {

namespace {

// floor(word · b / 2^64) for b < 2^32, exactly: with word = hi·2^32 + lo it is
// floor((hi·b + floor(lo·b / 2^32)) / 2^32), and hi·b + lo·b / 2^32 < 2^64. b is 32-bit so that
// the compiler knows each product needs one 32×32→64 multiply (three for a 64-bit b).
inline std::uint64_t scale_small(std::uint64_t word, std::uint32_t b) {
  const std::uint64_t wide = b;
  return ((word >> 32) * wide + (((word & 0xFFFFFFFFull) * wide) >> 32)) >> 32;
}

#define A2A_VECTOR_CLONES [[gnu::target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")]]

// One source: its half of draw_keyed is mixed once.
A2A_VECTOR_CLONES std::uint64_t row_sum(std::uint64_t row, std::uint64_t dst,
                                        std::uint64_t dst_step, std::int64_t n, std::uint32_t b) {
  std::uint64_t total = 0;
  for (std::int64_t k = 0; k < n; ++k, dst += dst_step)
    total += scale_small(draw_in_row(row, dst), b);
  return total;
}

// Sources one after another (src_step 1): their keys are read from the table in order.
A2A_VECTOR_CLONES std::uint64_t consecutive_rows_sum(const std::uint64_t* rows, std::uint64_t dst,
                                                     std::uint64_t dst_step, std::int64_t n,
                                                     std::uint32_t b) {
  std::uint64_t total = 0;
  for (std::int64_t k = 0; k < n; ++k, dst += dst_step)
    total += scale_small(draw_in_row(rows[k], dst), b);
  return total;
}

A2A_VECTOR_CLONES std::uint64_t strided_rows_sum(const std::uint64_t* rows, std::int64_t src_step,
                                                 std::uint64_t dst, std::uint64_t dst_step,
                                                 std::int64_t n, std::uint32_t b) {
  std::uint64_t total = 0;
  for (std::int64_t k = 0; k < n; ++k, dst += dst_step)
    total += scale_small(draw_in_row(rows[k * src_step], dst), b);
  return total;
}

A2A_VECTOR_CLONES void add_draws_small(std::uint64_t row, std::uint64_t dst, std::uint64_t dst_step,
                                       std::int64_t n, std::uint32_t b, std::uint32_t* out) {
  for (std::int64_t k = 0; k < n; ++k, dst += dst_step)
    out[k] += static_cast<std::uint32_t>(scale_small(draw_in_row(row, dst), b));
}

}  // namespace

void add_draws(std::uint64_t row, std::int64_t dst, std::int64_t dst_step, std::int64_t n,
               std::int64_t bound, std::uint32_t* out) {
  add_draws_small(row, static_cast<std::uint64_t>(dst), static_cast<std::uint64_t>(dst_step), n,
                  static_cast<std::uint32_t>(bound + 1), out);
}

std::int64_t sum_below_or_equal(std::span<const std::uint64_t> rows, std::int64_t src,
                                std::int64_t src_step, std::int64_t dst, std::int64_t dst_step,
                                std::int64_t n, std::int64_t bound) {
  if (n <= 0) return 0;
  // The sum does not depend on the order of its terms: a run stepping down through the sources is
  // summed from its last term up, so the table is read forwards.
  if (src_step < 0) {
    src += (n - 1) * src_step;
    dst += (n - 1) * dst_step;
    src_step = -src_step;
    dst_step = -dst_step;
  }
  // Indices are non-negative and steps are added in two's complement: unsigned arithmetic gives
  // the same words draw_keyed sees.
  const auto d = static_cast<std::uint64_t>(dst), ds = static_cast<std::uint64_t>(dst_step);
  const auto b = static_cast<std::uint64_t>(bound) + 1;
  const std::uint64_t* first = rows.data() + src;
  if (b >= (std::uint64_t{1} << 32)) {  // rare (blocks of 32 GiB of 8-byte elements): scalar
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      const auto step = static_cast<std::uint64_t>(k);
      total += below_or_equal(draw_in_row(first[k * src_step], d + step * ds), bound);
    }
    return total;
  }
  const auto b32 = static_cast<std::uint32_t>(b);
  const std::uint64_t total = src_step == 0   ? row_sum(*first, d, ds, n, b32)
                              : src_step == 1 ? consecutive_rows_sum(first, d, ds, n, b32)
                                              : strided_rows_sum(first, src_step, d, ds, n, b32);
  return static_cast<std::int64_t>(total);
}

}  // namespace a2a::workload_rng
