// Scenario loading, planning and simulation shared by the `a2a` commands; see scenario_setup.hpp.
#include "sim/scenario_setup.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "algorithms/errors.hpp"
#include "sim/resource_guard.hpp"

namespace a2a::sim {

namespace {

// The configurations of every scenario entry; skipped ones are reported on stderr.
std::vector<Planned> configurations(const Scenario& scenario, const Workload& workload,
                                    int ranks_per_node, const std::string& command) {
  std::vector<Planned> out;
  for (const AlgorithmEntry& entry : scenario.algorithms) {
    std::vector<Planned> planned;
    try {
      planned = plan(Selection{{entry.name}, entry.params}, workload, ranks_per_node);
    } catch (const InvalidParameter& error) {
      throw InputError(entry.where + ": algorithm " + entry.name + ": " + error.what());
    }
    for (Planned& item : planned) {
      if (item.skip) {
        std::fprintf(stderr, "%s: skipped %s: %s\n", command.c_str(), item.config.label().c_str(),
                     item.skip->c_str());
        continue;
      }
      out.push_back(std::move(item));
    }
  }
  if (out.empty()) throw InputError(scenario.origin + ": no algorithm configuration applies");
  return out;
}

}  // namespace

ScenarioSummary PreparedScenario::summary() const {
  return {scenario.origin,         platform.name,   workload->spec(),          scenario.ranks,
          platform.ranks_per_node, scenario.engine, scenario.simulation.vendor};
}

PreparedScenario prepare_scenario(const std::string& path, const std::vector<std::string>& sets,
                                  const std::string& command) {
  PreparedScenario prepared;
  prepared.scenario = load_scenario(path, sets);
  const Scenario& scenario = prepared.scenario;
  prepared.platform = load_platform(scenario.platform);
  if (scenario.ranks_per_node > 0) prepared.platform.ranks_per_node = scenario.ranks_per_node;
  try {
    check_fits(prepared.platform, scenario.ranks);
  } catch (const InvalidParameter& error) {
    throw InputError(scenario.ranks_where + ": key 'ranks': " + error.what());
  }
  try {
    prepared.workload = make_workload(scenario.workload, scenario.ranks);
  } catch (const InvalidParameter& error) {
    throw InputError(scenario.origin + ": key 'workload': " + error.what());
  }
  prepared.planned =
      configurations(scenario, *prepared.workload, prepared.platform.ranks_per_node, command);
  return prepared;
}

std::vector<SimResult> simulate_all(const PreparedScenario& prepared,
                                    const std::string& max_memory) {
  const Scenario& scenario = prepared.scenario;
  const std::vector<Planned>& planned = prepared.planned;
  check_memory(estimate_memory(scenario.engine, {prepared.platform, scenario.ranks,
                                                 scenario.simulation, *prepared.workload, planned}),
               memory_limit(max_memory), scenario.engine);
  spdlog::info("building platform {} for P={}", prepared.platform.name, scenario.ranks);
  const std::unique_ptr<Simulation> simulation =
      make_simulation(scenario.engine, prepared.platform, scenario.ranks, scenario.simulation);
  const bool progress = isatty(STDERR_FILENO) != 0;
  std::vector<SimResult> results;
  for (size_t i = 0; i < planned.size(); ++i) {
    if (progress) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] simulating %s ...", i + 1, planned.size(),
                   planned[i].config.label().c_str());
      std::fflush(stderr);
    }
    results.push_back(simulation->run(planned[i].config, *prepared.workload, planned[i].layout));
    spdlog::info("{}: predicted {} (simulated in {}, {} rate solves)", results.back().label,
                 format_seconds(results.back().predicted),
                 format_seconds(results.back().wall_seconds), results.back().solves);
  }
  if (progress) std::fprintf(stderr, "\r\033[K");
  return results;
}

}  // namespace a2a::sim
