#include "workloads/plan.hpp"

#include "algorithms/errors.hpp"

namespace a2a {

ExchangeShape shape_of(const Workload& workload, int ranks_per_node, LayoutStyle layout) {
  ExchangeShape shape;
  shape.ranks = workload.ranks();
  shape.ranks_per_node = ranks_per_node;
  shape.uniform = workload.uniform();
  shape.balanced = workload.balanced();
  shape.contiguous_in_order = layout == LayoutStyle::packed;
  return shape;
}

std::vector<Planned> plan(const Selection& selection, const Workload& workload,
                          int ranks_per_node) {
  std::vector<const AlgorithmInfo*> algorithms;
  for (const auto& name : selection.algorithms) {
    if (name == "all") {
      for (const auto& info : catalog())
        algorithms.push_back(&info);
    } else {
      algorithms.push_back(&find_algorithm(name));
    }
  }
  // A parameter no selected algorithm has is a mistake, not something to ignore silently.
  for (const auto& [name, value] : selection.params) {
    bool used = false;
    for (const AlgorithmInfo* algorithm : algorithms) {
      for (const auto& spec : algorithm->params)
        used = used || spec.name == name;
    }
    if (!used) throw InvalidParameter("no selected algorithm has parameter '" + name + "'");
  }
  const int P = workload.ranks();
  const ExchangeShape with_gaps = shape_of(workload, ranks_per_node, LayoutStyle::gaps);
  const ExchangeShape packed = shape_of(workload, ranks_per_node, LayoutStyle::packed);
  std::vector<Planned> out;
  for (const AlgorithmInfo* algorithm : algorithms) {
    for (Configuration& config : expand(*algorithm, selection.params, P, ranks_per_node)) {
      Planned planned{config, LayoutStyle::gaps, not_applicable_reason(config, with_gaps)};
      if (planned.skip && !not_applicable_reason(config, packed)) {
        planned.layout = LayoutStyle::packed;
        planned.skip.reset();
      }
      out.push_back(std::move(planned));
    }
  }
  return out;
}

}  // namespace a2a
