// Least-squares fitting of a few positive parameters (`a2a calibrate`, docs/calibration.md):
// Levenberg-Marquardt on the logarithms of the parameters, with a forward-difference Jacobian, so
// parameters spanning decades (a NIC's 200 ns beside a matching cost of 1 ns) are fitted alike and
// stay positive. Made for expensive residuals (each one a simulation): few parameters, few
// iterations, every evaluation counted.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace a2a::sim::calibrate {

struct FreeParameter {
  std::string key;
  double initial = 0;  // > 0
  double lower = 0;    // > 0
  double upper = 0;    // >= lower
};

struct FitResult {
  std::vector<double> values;  // one per parameter
  double cost = 0;             // sum of squared residuals at `values`
  int iterations = 0;
  int evaluations = 0;
};

// Thrown when no residual moves with a parameter (its column of the Jacobian is zero): nothing in
// the data can fit it.
struct NotIdentifiable : std::runtime_error {
  explicit NotIdentifiable(const std::string& parameter)
      : std::runtime_error("parameter " + parameter + ": no residual depends on it"),
        key(parameter) {}
  std::string key;
};

// Residuals at the given parameter values (one value per parameter, in order).
using Residuals = std::function<std::vector<double>(const std::vector<double>&)>;

// Minimises the sum of squared residuals over the box [lower, upper]; stops after
// `max_iterations` steps or when a step improves the cost by less than `relative_tolerance`.
FitResult fit_least_squares(const std::vector<FreeParameter>& parameters,
                            const Residuals& residuals, int max_iterations = 12,
                            double relative_tolerance = 1e-4);

// Solves A x = b for a small dense symmetric positive-definite A (Gaussian elimination with
// partial pivoting). Throws std::runtime_error if A is singular.
std::vector<double> solve_linear(std::vector<std::vector<double>> a, std::vector<double> b);

}  // namespace a2a::sim::calibrate
