// Which configurations of a run the scale engine's batched re-solving could reorder
// (sim/batching_error.hpp): the bound per engine and tolerance, and the configurations within it
// of the fastest.
#include "sim/batching_error.hpp"
#include "tests/approx.hpp"

#include <doctest/doctest.h>

#include <vector>

using a2a::sim::batching_error_bound;
using a2a::sim::within_bound_of_fastest;

TEST_CASE("batching error: exact solving has none, the default tolerance 3.5 %") {
  CHECK(batching_error_bound("simgrid", 0.05) == 0);
  CHECK(batching_error_bound("scale", 0) == 0);
  CHECK(batching_error_bound("scale", 0.05) == a2a::testing::approx(0.035));
  CHECK(batching_error_bound("scale", 0.01) == a2a::testing::approx(0.015));
}

TEST_CASE("batching error: the configurations within the bound of the fastest, in rank order") {
  // Fastest is index 2 (1.00); 1.03 is within 3.5 %, 1.04 and 1.2 are not.
  const std::vector<double> predicted = {1.2, 1.03, 1.0, 1.04};
  CHECK(within_bound_of_fastest(predicted, 0.035) == std::vector<std::size_t>{2, 1});
  CHECK(within_bound_of_fastest(predicted, 0.25) == std::vector<std::size_t>{2, 1, 3, 0});
  // Nothing that close, one configuration, or exact solving: nothing to name.
  CHECK(within_bound_of_fastest(predicted, 0.01).empty());
  CHECK(within_bound_of_fastest({1.0}, 0.035).empty());
  CHECK(within_bound_of_fastest({1.0, 1.0}, 0).empty());
  // Equal predictions are too close; the first given stays first.
  CHECK(within_bound_of_fastest({2.0, 2.0}, 0.035) == std::vector<std::size_t>{0, 1});
}
