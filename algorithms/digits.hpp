// Base-r digit arithmetic shared by the Bruck family and ParLogNa. Integer-only: the number of
// digits is never computed as ceil(log(P)/log(r)) in floating point (wrong for P = 125, r = 5).
#pragma once

#include <cstdint>

namespace a2a {

// Non-negative remainder a mod m (m > 0).
inline std::int64_t mod(std::int64_t a, std::int64_t m) {
  std::int64_t r = a % m;
  return r < 0 ? r + m : r;
}

// a mod m for a in [-m, 2m): one comparison instead of a division (the Bruck index arithmetic
// adds or subtracts two values below m, in the innermost loop of every message description).
inline std::int64_t wrap(std::int64_t a, std::int64_t m) {
  return a < 0 ? a + m : (a >= m ? a - m : a);
}

// Number of base-`radix` digits of `value` (0 for value 0). For P ranks the Bruck rounds run over
// num_digits(P - 1, r) digit positions.
inline int num_digits(std::int64_t value, std::int64_t radix) {
  int digits = 0;
  while (value > 0) {
    value /= radix;
    ++digits;
  }
  return digits;
}

// radix^exponent, exact in 64-bit for the ranges used (r^x < P).
inline std::int64_t ipow(std::int64_t radix, int exponent) {
  std::int64_t out = 1;
  for (int i = 0; i < exponent; ++i)
    out *= radix;
  return out;
}

// The x-th base-r digit of `value`, where `place` = r^x.
inline std::int64_t digit_at(std::int64_t value, std::int64_t place, std::int64_t radix) {
  return (value / place) % radix;
}

}  // namespace a2a
