// Levenberg-Marquardt in log-parameter space; see fit.hpp.
#include "sim/calibrate/fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace a2a::sim::calibrate {

namespace {

double squared_sum(const std::vector<double>& residuals) {
  double sum = 0;
  for (const double r : residuals)
    sum += r * r;
  return sum;
}

// Parameter values from their logarithms, clamped to the box.
std::vector<double> values_of(const std::vector<FreeParameter>& parameters,
                              const std::vector<double>& logs) {
  std::vector<double> values(logs.size());
  for (size_t i = 0; i < logs.size(); ++i)
    values[i] = std::clamp(std::exp(logs[i]), parameters[i].lower, parameters[i].upper);
  return values;
}

// A forward difference of 5 % in each parameter: large enough to see through the small steps
// that max-min re-solving in batches gives the simulated times, small enough to stay local.
constexpr double kLogStep = 0.05;

}  // namespace

std::vector<double> solve_linear(std::vector<std::vector<double>> a, std::vector<double> b) {
  const size_t n = b.size();
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t row = col + 1; row < n; ++row)
      if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
    if (!(std::abs(a[pivot][col]) > 1e-300)) throw std::runtime_error("singular system");
    std::swap(a[pivot], a[col]);
    std::swap(b[pivot], b[col]);
    for (size_t row = col + 1; row < n; ++row) {
      const double factor = a[row][col] / a[col][col];
      for (size_t k = col; k < n; ++k)
        a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  std::vector<double> x(n);
  for (size_t i = n; i-- > 0;) {
    double sum = b[i];
    for (size_t k = i + 1; k < n; ++k)
      sum -= a[i][k] * x[k];
    x[i] = sum / a[i][i];
  }
  return x;
}

FitResult fit_least_squares(const std::vector<FreeParameter>& parameters,
                            const Residuals& residuals, int max_iterations,
                            double relative_tolerance) {
  const size_t k = parameters.size();
  std::vector<double> logs(k);
  for (size_t i = 0; i < k; ++i) {
    const FreeParameter& p = parameters[i];
    if (!(p.initial > 0 && p.lower > 0 && p.upper >= p.lower))
      throw std::invalid_argument("parameter " + p.key + ": needs 0 < lower <= upper, initial > 0");
    logs[i] = std::log(std::clamp(p.initial, p.lower, p.upper));
  }
  FitResult result;
  std::vector<double> r = residuals(values_of(parameters, logs));
  ++result.evaluations;
  double cost = squared_sum(r);
  double damping = 1e-2;
  for (int iteration = 0; iteration < max_iterations && k > 0; ++iteration) {
    result.iterations = iteration + 1;
    // Jacobian of the residuals with respect to the log-parameters.
    std::vector<std::vector<double>> jacobian(r.size(), std::vector<double>(k));
    for (size_t j = 0; j < k; ++j) {
      std::vector<double> shifted = logs;
      shifted[j] += kLogStep;
      const std::vector<double> tried = values_of(parameters, shifted);
      const std::vector<double> rj = residuals(tried);
      ++result.evaluations;
      for (size_t i = 0; i < r.size(); ++i)
        jacobian[i][j] = (rj[i] - r[i]) / kLogStep;
      // The parameter moved (it was not held at its bound) and not one residual did: with
      // deterministic residuals, no data depends on it.
      const bool moved = tried[j] != values_of(parameters, logs)[j];
      if (moved && std::equal(rj.begin(), rj.end(), r.begin()))
        throw NotIdentifiable(parameters[j].key);
    }
    std::vector<std::vector<double>> normal(k, std::vector<double>(k, 0.0));
    std::vector<double> gradient(k, 0.0);
    for (size_t i = 0; i < r.size(); ++i) {
      for (size_t a = 0; a < k; ++a) {
        gradient[a] -= jacobian[i][a] * r[i];
        for (size_t b = 0; b < k; ++b)
          normal[a][b] += jacobian[i][a] * jacobian[i][b];
      }
    }
    bool improved = false;
    // Raise the damping until a step lowers the cost (at most a few tries: each is a simulation).
    for (int attempt = 0; attempt < 4 && !improved; ++attempt) {
      std::vector<std::vector<double>> damped = normal;
      for (size_t a = 0; a < k; ++a)
        damped[a][a] += damping * std::max(normal[a][a], 1e-12);
      std::vector<double> step;
      try {
        step = solve_linear(damped, gradient);
      } catch (const std::runtime_error&) {
        damping *= 10;
        continue;
      }
      std::vector<double> trial = logs;
      for (size_t a = 0; a < k; ++a) {
        // At most a factor e^2 per step: the residuals are far from linear over decades.
        trial[a] += std::clamp(step[a], -2.0, 2.0);
        trial[a] =
            std::clamp(trial[a], std::log(parameters[a].lower), std::log(parameters[a].upper));
      }
      const std::vector<double> trial_r = residuals(values_of(parameters, trial));
      ++result.evaluations;
      const double trial_cost = squared_sum(trial_r);
      if (trial_cost < cost) {
        const double gain = (cost - trial_cost) / std::max(cost, 1e-300);
        logs = trial;
        r = trial_r;
        cost = trial_cost;
        damping = std::max(damping / 10, 1e-6);
        improved = true;
        if (gain < relative_tolerance) iteration = max_iterations;  // converged
      } else {
        damping *= 10;
      }
    }
    if (!improved) break;
  }
  result.values = values_of(parameters, logs);
  result.cost = cost;
  return result;
}

}  // namespace a2a::sim::calibrate
