// How far the scale engine's batched re-solving can move a prediction, and which configurations
// of a run are therefore too close to rank by it (docs/simulation.md, "How close is too close").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace a2a::sim {

// The largest relative error of a prediction against exact solving, for `engine` at
// `simulation.tolerance`. 0 for the SimGrid engine and for tolerance 0 (both solve at every flow
// start and end). Measured against exact solving on 14 scenarios at P = 2,048-32,768
// (docs/performance.md, stop 39): at most 3.5 % at tolerance 0.05, 1.5 % at 0.01. The bound
// 0.01 + 0.5 x tolerance is fitted to those two maxima; other tolerances were not measured.
double batching_error_bound(const std::string& engine, double tolerance);

// `other` is too close to `fastest` to rank by a prediction that may err by `bound`.
inline bool within_bound(double fastest, double other, double bound) {
  return bound > 0 && other < fastest * (1 + bound);
}

// The configurations, by index into `predicted`, whose prediction is within `bound` of the
// fastest (predicted < fastest x (1 + bound)), the fastest first, then by prediction; empty when
// no other configuration is that close.
std::vector<std::size_t> within_bound_of_fastest(const std::vector<double>& predicted,
                                                 double bound);

}  // namespace a2a::sim
