#include "workloads/distance_residue_sums.hpp"

#include <algorithm>
#include <bit>

#include "workloads/counter_rng.hpp"

namespace a2a::workload_rng {

namespace {

std::int64_t wrap(std::int64_t value, std::int64_t P) {
  value %= P;
  return value < 0 ? value + P : value;
}

}  // namespace

std::int64_t DistanceResidueSums::largest_modulus_for(std::int64_t ranks, std::int64_t bound) {
  // A residue sum is at most P · bound: it must fit the 32-bit numbers.
  if (ranks < 2 || bound < 0 ||
      static_cast<double>(ranks) * static_cast<double>(bound + 1) >= 4294967296.0) {
    return 0;
  }
  // Rows are used while m ≤ √(r · P) (bruck::for_each_run); √(4P) covers radices 2 and 4.
  std::int64_t modulus = 2;
  while ((2 * modulus) * (2 * modulus) <= 4 * ranks && 2 * modulus <= ranks)
    modulus *= 2;
  while (modulus >= 2 && ranks * (2 * modulus - 2) * 4 > kBudgetBytes)
    modulus /= 2;
  return modulus >= 2 ? modulus : 0;
}

DistanceResidueSums::DistanceResidueSums(std::span<const std::uint64_t> rows, std::int64_t bound,
                                         int sign)
    : rows_(rows),
      ranks_(static_cast<std::int64_t>(rows.size())),
      bound_(bound),
      sign_(sign < 0 ? -1 : 1),
      modulus_(largest_modulus_for(ranks_, bound)),
      sums_(ranks_, modulus_ == 0 ? 0 : 2 * modulus_ - 2) {}

std::optional<std::int64_t> DistanceResidueSums::whole_class(std::int64_t src, std::int64_t dst,
                                                             std::int64_t dst_step,
                                                             std::int64_t n) const {
  const std::int64_t m = dst_step * sign_;
  if (m < 2 || m > modulus_ || !std::has_single_bit(static_cast<std::uint64_t>(m))) return {};
  const std::int64_t c = wrap(sign_ * (dst - src), ranks_);  // the run's first distance
  if (c >= m || n != (ranks_ - 1 - c) / m + 1) return {};
  const std::uint32_t* sums = sums_.row(src, [&](std::uint32_t* out) { fill(src, out); });
  return sums[m - 2 + c];  // modulus m's sums start at 2 + 4 + ... + m/2 = m − 2
}

void DistanceResidueSums::fill(std::int64_t src, std::uint32_t* sums) const {
  const std::int64_t P = ranks_, M = modulus_;
  // Modulus M first: distance δ adds into sums[M − 2 + δ mod M]. The distances are taken M at a
  // time, so that δ mod M runs along the sums while the destination src ± δ runs along the row
  // (in two straight pieces where it wraps around P).
  std::uint32_t* top = sums + (M - 2);
  std::fill(top, top + M, 0u);
  for (std::int64_t first = 0; first < P; first += M) {
    const std::int64_t length = std::min(M, P - first);
    for (std::int64_t t = 0; t < length;) {
      const std::int64_t dst = wrap(src + sign_ * (first + t), P);
      const std::int64_t straight = std::min(length - t, sign_ > 0 ? P - dst : dst + 1);
      add_draws(rows_[static_cast<size_t>(src)], dst, sign_, straight, bound_, top + t);
      t += straight;
    }
  }
  // Then each modulus from the next: class c of m/2 is classes c and c + m/2 of m.
  for (std::int64_t m = M; m > 2; m /= 2) {
    const std::uint32_t* from = sums + (m - 2);
    std::uint32_t* to = sums + (m / 2 - 2);
    for (std::int64_t c = 0; c < m / 2; ++c)
      to[c] = from[c] + from[c + m / 2];
  }
}

}  // namespace a2a::workload_rng
