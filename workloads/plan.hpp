// Which configurations to run on a workload, on which layout, and why others are skipped. Shared by
// `a2a-mpi verify`/`bench` and the simulator so every backend skips and lays out the same way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a {

struct Selection {
  std::vector<std::string> algorithms;  // names, or {"all"}
  ParamChoices params;                  // e.g. radix -> "all"
};

// One configuration to run on a workload, or the reason it is skipped.
struct Planned {
  Configuration config;
  LayoutStyle layout = LayoutStyle::gaps;
  std::optional<std::string> skip;
};

ExchangeShape shape_of(const Workload& workload, int ranks_per_node, LayoutStyle layout);

// Every configuration the selection names, in selection order. Algorithms that only apply to a
// packed layout (in-place ones) are planned on it; the rest on the gaps layout. A parameter no
// selected algorithm has is an InvalidParameter.
std::vector<Planned> plan(const Selection& selection, const Workload& workload, int ranks_per_node);

}  // namespace a2a
