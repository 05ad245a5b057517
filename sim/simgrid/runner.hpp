// Runs catalog configurations on a platform model with SimGrid: one actor per rank, the same
// algorithm code as on MPI, one engine and one built platform per process.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/stats.hpp"
#include "platforms/platform.hpp"
#include "sim/simgrid/world.hpp"
#include "sim/simulation.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

class SimGridSimulation final : public Simulation {
 public:
  // Creates the SimGrid engine (once per process) and builds the platform for up to `ranks` ranks.
  // Throws InvalidParameter if they do not fit the platform.
  SimGridSimulation(const PlatformSpec& platform, int ranks, SimOptions options);
  ~SimGridSimulation() override;

  // Runs one configuration on a workload of workload.ranks() <= ranks ranks to completion. A
  // deadlock, a message nobody receives or an algorithm breaking the comm contract throws
  // a2a::Error naming the configuration and the ranks; the simulator is unusable afterwards.
  SimResult run(const Configuration& config, const Workload& workload,
                LayoutStyle layout = LayoutStyle::gaps) override;

  const PlatformSpec& platform() const { return platform_; }

  // Wraps each rank's Comm before the algorithm sees it (called inside the rank's actor): the
  // recorder (sim/recorder/) observes runs this way. Empty: the algorithm sees the backend itself.
  using CommWrapper = std::function<std::unique_ptr<Comm>(Comm& backend, int rank)>;
  void set_comm_wrapper(CommWrapper wrapper) { wrapper_ = std::move(wrapper); }

 private:
  PlatformSpec platform_;
  int ranks_;
  SimOptions options_;
  const BuiltPlatform* built_ = nullptr;
  CommWrapper wrapper_;
};

}  // namespace a2a::sim
