// The power-law block size of Fan et al., HPDC 2025, §5.4, Fig. 13 (b), shared by the generator and
// its tests.
#pragma once

#include <cstdint>

namespace a2a::workload_detail {

// floor(max · x^k) bytes for 0 <= x <= 1. x^k is computed by binary exponentiation in double:
// each IEEE product is exactly rounded, so the result is the same on every machine (std::pow's
// last bit is not guaranteed to be), and no product exceeds 1, so the result never exceeds max.
inline std::int64_t powerlaw_bytes(std::int64_t max, double x, std::int64_t k) {
  double power = 1.0;
  for (double base = x; k > 0; k >>= 1, base *= base) {
    // Every factor still to come is <= base, so once max·base < 1/2 the result floors to 0; stop
    // before the squares turn subnormal (slow on most CPUs). The result is unchanged.
    if (static_cast<double>(max) * base < 0.5) return 0;
    power *= (k & 1) ? base : 1.0;  // a product by 1.0 is exact; no branch to mispredict
  }
  return static_cast<std::int64_t>(static_cast<double>(max) * power);
}

}  // namespace a2a::workload_detail
