// The least-squares fit behind `a2a calibrate` (sim/calibrate/fit.hpp): it recovers known
// parameters of a model whose terms span decades, respects its box, and the small linear solver
// is exact.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "sim/calibrate/fit.hpp"
#include "tests/approx.hpp"

using namespace a2a::sim::calibrate;

TEST_CASE("calibrate fit: recovers a per-message time and a per-byte cost from their sums") {
  // t(P, S) = P * message + P * S * byte: like an all-to-all's time from its message count and
  // volume. Truth: 200 ns per message, 0.1 ns per byte; start a decade away from both.
  const double message = 200e-9, byte = 0.1e-9;
  const double points[][2] = {{64, 16}, {512, 16}, {64, 4096}, {4096, 1024}, {8192, 16}};
  const auto residuals = [&](const std::vector<double>& v) {
    std::vector<double> r;
    for (const auto& p : points) {
      const double measured = p[0] * message + p[0] * p[1] * byte;
      r.push_back(std::log((p[0] * v[0] + p[0] * p[1] * v[1]) / measured));
    }
    return r;
  };
  const FitResult fit = fit_least_squares(
      {{"message", 2e-9, 1e-12, 1e-3}, {"byte", 1e-9, 1e-15, 1e-6}}, residuals, 30);
  CHECK(fit.values[0] == a2a::testing::approx(message).epsilon(1e-3));
  CHECK(fit.values[1] == a2a::testing::approx(byte).epsilon(1e-3));
  CHECK(fit.cost < 1e-8);
  CHECK(fit.evaluations >= 3);
}

TEST_CASE("calibrate fit: stays in its box, and rejects an empty one") {
  const auto residuals = [](const std::vector<double>& v) {
    return std::vector<double>{std::log(v[0] / 1e-3)};  // wants 1e-3, the box ends at 1e-6
  };
  const FitResult fit = fit_least_squares({{"x", 1e-7, 1e-9, 1e-6}}, residuals, 20);
  CHECK(fit.values[0] <= 1e-6);
  CHECK(fit.values[0] == a2a::testing::approx(1e-6).epsilon(1e-6));
  CHECK_THROWS_AS(fit_least_squares({{"x", 1, 2, 1}}, residuals), std::invalid_argument);
}

TEST_CASE("calibrate fit: the linear solver") {
  const std::vector<double> x = solve_linear({{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}, {6, 10, 8});
  CHECK(x[0] == a2a::testing::approx(1));
  CHECK(x[1] == a2a::testing::approx(2));
  CHECK(x[2] == a2a::testing::approx(3));
  CHECK_THROWS_AS(solve_linear({{1, 2}, {2, 4}}, {1, 2}), std::runtime_error);
}
