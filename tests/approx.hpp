// Approximate comparison of doubles for the doctest suites, relative to the values compared.
//
// doctest::Approx's tolerance is epsilon · (scale + max(|a|, |b|)) with a default scale of 1, so
// below 1 it is an absolute 1.2e-5: a time of a few microseconds, a byte count per second or a
// ratio near 0 would pass against any other value within 12 µs (or 1.2e-5). approx() sets the
// scale to the smallest normal double (not 0: doctest compares with <, so 0 would fail 0 == 0),
// so the tolerance is epsilon (100 float epsilons, about 1.2e-5) times the larger of the two
// values, whatever their unit.
#pragma once

#include <limits>

#include <doctest/doctest.h>

namespace a2a::testing {

inline doctest::Approx approx(double value) {
  return doctest::Approx(value).scale(std::numeric_limits<double>::min());
}

}  // namespace a2a::testing
