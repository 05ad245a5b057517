// Scenario loading, planning and simulation shared by the `a2a` commands; see scenario_setup.hpp.
#include "sim/scenario_setup.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress_lines.hpp"
#include "sim/resource_guard.hpp"

namespace a2a::sim {

namespace {

// Progress on stderr: on a terminal one line rewritten per configuration; otherwise plain lines,
// at most one every few seconds (ProgressLines).
class Progress {
 public:
  explicit Progress(size_t total) : total_(total), terminal_(isatty(STDERR_FILENO) != 0) {}

  void starting(size_t index, const std::string& label) {
    if (terminal_) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] simulating %s ...", index + 1, total_, label.c_str());
      std::fflush(stderr);
      return;
    }
    lines_.report("[" + std::to_string(index + 1) + "/" + std::to_string(total_) + "] simulating " +
                  label);
  }

  void done() {
    if (terminal_) std::fprintf(stderr, "\r\033[K");
  }

 private:
  size_t total_;
  bool terminal_;
  ProgressLines lines_;
};

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

MemoryEstimate estimate_for(const PreparedScenario& prepared, const std::vector<Planned>& planned) {
  const Scenario& scenario = prepared.scenario;
  return estimate_memory(scenario.engine, {prepared.platform, scenario.ranks, scenario.simulation,
                                           *prepared.workload, planned});
}

// Leaves out of prepared.planned each configuration whose own estimate exceeds the limit, with a
// line on stderr; refuses (InputError) when that would leave nothing.
void skip_configurations_too_large(PreparedScenario& prepared, const MemoryLimit& limit) {
  if (limit.bytes <= 0) return;
  std::vector<Planned> fitting;
  std::vector<std::string> notes;
  for (Planned& item : prepared.planned) {
    const MemoryEstimate alone = estimate_for(prepared, {item});
    if (alone.bytes <= limit.bytes) {
      fitting.push_back(std::move(item));
      continue;
    }
    notes.push_back(prepared.command + ": skipped " + item.config.label() + ": needs about " +
                    human_bytes(alone.bytes) + " (" + alone.what + ") but the limit is " +
                    human_bytes(limit.bytes) + " (" + limit.source + ")");
  }
  if (fitting.empty()) {  // none fits: refuse the whole run as one line (planned is intact)
    check_memory(estimate_for(prepared, prepared.planned), limit, prepared.scenario.engine);
  }
  for (const std::string& note : notes)
    std::fprintf(stderr, "%s\n", note.c_str());
  prepared.planned = std::move(fitting);
}

}  // namespace

ScenarioSummary PreparedScenario::summary() const {
  // "embedded default scenario" alone would hide that --set replaced what it says.
  std::string source = scenario.origin;
  for (size_t i = 0; i < set_keys.size(); ++i)
    source += (i == 0 ? " with --set " : ", ") + set_keys[i];
  return {source,
          platform.name,
          workload->spec(),
          scenario.ranks,
          platform.ranks_per_node,
          scenario.engine,
          scenario.simulation.vendor,
          scenario.simulation.tolerance};
}

RowIdentity PreparedScenario::row_identity() const {
  // The platform and workload as the scenario gives them, as a sweep's rows name them.
  return {scenario.platform,
          scenario.engine,
          scenario.ranks,
          platform.ranks_per_node,
          scenario.workload,
          "",
          scenario.simulation.vendor,
          scenario.simulation.tolerance};
}

std::vector<RowCells> result_rows(const PreparedScenario& prepared, const Simulated& simulated) {
  const RowIdentity identity = prepared.row_identity();
  std::vector<RowCells> rows;
  for (size_t i = 0; i < simulated.results.size(); ++i)
    rows.push_back(result_cells(identity, prepared.planned[i].config, simulated.results[i]));
  return rows;
}

PreparedScenario prepare_scenario(const std::string& path, const std::vector<std::string>& sets,
                                  const std::string& command) {
  PreparedScenario prepared;
  prepared.command = command;
  for (const std::string& set : sets)
    prepared.set_keys.push_back(set.substr(0, set.find('=')));
  prepared.scenario = load_scenario(path, sets);
  const Scenario& scenario = prepared.scenario;
  prepared.platform = load_platform(scenario.platform);
  // More ranks per node than ranks: one partial node, which no run means (sweeps may cross both
  // axes, so only a run's own scenario is held to it).
  if (scenario.ranks_per_node > scenario.ranks) {
    throw InputError(scenario.ranks_per_node_where + ": key 'ranks_per_node': " +
                     std::to_string(scenario.ranks_per_node) + " ranks per node but only " +
                     std::to_string(scenario.ranks) + " ranks (must be <= ranks)");
  }
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

Simulated simulate_all(PreparedScenario& prepared, const std::string& max_memory) {
  const Scenario& scenario = prepared.scenario;
  const MemoryLimit limit = memory_limit(max_memory);
  skip_configurations_too_large(prepared, limit);
  const std::vector<Planned>& planned = prepared.planned;
  // Configurations run one after another, but some of the SimGrid engine's state (mailboxes) is
  // kept from one to the next: the whole run is checked too.
  check_memory(estimate_for(prepared, planned), limit, scenario.engine);
  spdlog::info("building platform {} for P={}", prepared.platform.name, scenario.ranks);
  const std::unique_ptr<Simulation> simulation =
      make_simulation(scenario.engine, prepared.platform, scenario.ranks, scenario.simulation);
  // After the engine exists: SimGrid installs its own SIGINT handler, which exits at once.
  const InterruptCatcher interrupt;
  Progress progress(planned.size());
  Simulated simulated;
  std::vector<SimResult>& results = simulated.results;
  for (size_t i = 0; i < planned.size(); ++i) {
    if (interrupt_requested()) {
      simulated.interrupted = true;
      break;
    }
    progress.starting(i, planned[i].config.label());
    try {
      results.push_back(simulation->run(planned[i].config, *prepared.workload, planned[i].layout));
    } catch (const Interrupted&) {  // the scale engine abandoned it
      simulated.interrupted = true;
      break;
    }
    const SimResult& last = results.back();
    spdlog::info("{}: predicted {} (simulated in {}, {} rate solves, {} of them partial)",
                 last.label, format_seconds(last.predicted), format_seconds(last.wall_seconds),
                 last.solves, last.partial_solves);
  }
  progress.done();
  return simulated;
}

}  // namespace a2a::sim
