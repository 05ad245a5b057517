// What every command that simulates a scenario (`a2a run`, `a2a model`, ...) does before and while
// simulating, written once: load the scenario with its --set overrides, load the platform, check
// that P fits, build the workload, plan the configurations (skipped ones reported on stderr), and
// run them one after another under the memory guard with a progress line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platforms/platform.hpp"
#include "sim/report.hpp"
#include "sim/result_schema.hpp"
#include "sim/scenario.hpp"
#include "sim/simulation.hpp"
#include "workloads/plan.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

struct PreparedScenario {
  Scenario scenario;
  PlatformSpec platform;  // ranks_per_node overridden by the scenario's when it sets one
  std::unique_ptr<Workload> workload;
  std::vector<Planned> planned;       // the configurations that apply, in scenario order
  std::string command;                // "a2a run": prefixes the lines about skipped configurations
  std::vector<std::string> set_keys;  // the keys --set overrode, in order

  ScenarioSummary summary() const;
  // What names this scenario's result rows (sim/result_schema.hpp): a run has no block_bytes.
  RowIdentity row_identity() const;
};

// Loads and checks everything; `command` ("a2a run") prefixes the lines about skipped
// configurations. Throws InputError naming the file:line or --set key at fault.
PreparedScenario prepare_scenario(const std::string& path, const std::vector<std::string>& sets,
                                  const std::string& command);

// What simulate_all simulated: every planned configuration, or those finished before a SIGINT.
struct Simulated {
  std::vector<SimResult> results;  // in plan order
  bool interrupted = false;        // SIGINT: no later configuration ran (sim/interrupt.hpp)
};

// The result rows of `simulated` (results[i] is prepared.planned[i]'s).
std::vector<RowCells> result_rows(const PreparedScenario& prepared, const Simulated& simulated);

// Simulates every planned configuration on the scenario's engine under the memory guard (limit:
// `max_memory`, empty: the machine's available memory). A configuration that alone needs more
// than the limit (the vendor's linear exchange at 16,384 ranks: about 160 GiB) is left out of
// `prepared.planned` with a line on stderr naming it and its estimate, so that the others run; a
// run where none fits, or whose remaining configurations together do not, is refused
// (InputError naming the configuration that needs the most).
// Progress goes to stderr: a line rewritten in place on a terminal, else a line every few seconds.
// A SIGINT stops the run (sim/interrupt.hpp: the scale engine abandons the configuration in
// flight, the SimGrid engine finishes it; a second SIGINT ends the process at once), so the
// caller can keep what finished.
Simulated simulate_all(PreparedScenario& prepared, const std::string& max_memory);

}  // namespace a2a::sim
