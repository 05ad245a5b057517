// Fuzz target: the scenario YAML loader (sim/scenario.cpp), then what `a2a run` does with a
// scenario before simulating: the workload spec and every algorithm entry's parameters are parsed
// and planned (for P <= 64, so that each input stays fast). Workload files (matrix:file=) and
// platform files are not opened: an input may name any path.
#include <algorithm>

#include "fuzz/fuzz_target.hpp"
#include "sim/scenario.hpp"
#include "workloads/plan.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return a2a::fuzz::run_on_text(data, size, [](const std::string& text) {
    const a2a::sim::Scenario scenario = a2a::sim::parse_scenario(text, "fuzz.yaml", {});
    if (scenario.ranks > 64 || scenario.workload.rfind("matrix", 0) == 0) return;
    const auto workload = a2a::make_workload(scenario.workload, scenario.ranks);
    const int ranks_per_node = std::max(1, scenario.ranks_per_node);
    for (const auto& entry : scenario.algorithms)
      a2a::plan(a2a::Selection{{entry.name}, entry.params}, *workload, ranks_per_node);
  });
}
