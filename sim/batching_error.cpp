#include "sim/batching_error.hpp"

#include <algorithm>
#include <numeric>

namespace a2a::sim {

double batching_error_bound(const std::string& engine, double tolerance) {
  if (engine != "scale" || tolerance <= 0) return 0;
  return 0.01 + 0.5 * tolerance;
}

std::vector<std::size_t> within_bound_of_fastest(const std::vector<double>& predicted,
                                                 double bound) {
  std::vector<std::size_t> order(predicted.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return predicted[a] < predicted[b]; });
  if (bound <= 0 || order.size() < 2) return {};
  std::size_t close = 1;
  while (close < order.size() &&
         within_bound(predicted[order.front()], predicted[order[close]], bound))
    ++close;
  if (close < 2) return {};
  order.resize(close);
  return order;
}

}  // namespace a2a::sim
