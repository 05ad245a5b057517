// Records catalog configurations step by step (recording.hpp): runs the real catalog code on the
// SimGrid backend in payload mode, every rank's Comm wrapped in a RecordingComm, then groups every
// rank's logged events into steps. For the step viewer (`a2a viz`) and tests; small P only.
#pragma once

#include <string>

#include "algorithms/registry.hpp"
#include "platforms/platform.hpp"
#include "sim/recorder/recording.hpp"
#include "sim/resource_guard.hpp"
#include "sim/simgrid/runner.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim::recorder {

// What recording `config` on `workload` needs: it runs on the SimGrid engine in payload mode
// (every byte carried and checked), estimated by that engine's model (sim/resource_guard.hpp).
MemoryEstimate recording_memory(const PlatformSpec& platform, const Configuration& config,
                                const Workload& workload, LayoutStyle layout,
                                const std::string& vendor);

class Recorder {
 public:
  // Builds the SimGrid platform for up to `max_ranks` ranks (SimGrid: one platform per process).
  // `vendor` names what the `vendor` algorithm runs (vendor_model.hpp).
  Recorder(const PlatformSpec& platform, int max_ranks, std::string vendor = "openmpi");

  // Runs `config` on `workload` (at most max_ranks ranks) and returns its recording. A run that
  // fails (deadlock, contract violation, payload mismatch) throws a2a::Error naming it.
  Recording record(const Configuration& config, const Workload& workload, LayoutStyle layout);

 private:
  PlatformSpec platform_;
  std::string vendor_;
  SimGridSimulation simulation_;
};

}  // namespace a2a::sim::recorder
