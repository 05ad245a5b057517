// The scale engine (docs/simulation.md, "The scale engine"): the catalog's algorithm code on one
// fiber per rank, driven by a discrete-event loop over FlowNetwork, on the routes of the same
// platform the SimGrid engine builds. Made for 10^5 ranks on one small machine: size-only
// messages, lazy block sizes, a few hundred bytes of state per rank plus its touched stack.
#pragma once

#include <memory>

#include "platforms/simgrid/builder.hpp"
#include "sim/simulation.hpp"

namespace a2a::sim::scale {
class RouteTable;
}  // namespace a2a::sim::scale

namespace a2a::sim {

class ScaleSimulation final : public Simulation {
 public:
  // Builds the platform (through SimGrid, for its routes). Throws InvalidParameter if the ranks do
  // not fit or an option does not apply to this engine.
  ScaleSimulation(const PlatformSpec& platform, int ranks, SimOptions options);
  ~ScaleSimulation() override;

  SimResult run(const Configuration& config, const Workload& workload,
                LayoutStyle layout = LayoutStyle::gaps) override;

 private:
  PlatformSpec platform_;
  int ranks_;
  SimOptions options_;
  std::unique_ptr<scale::RouteTable> routes_;
};

}  // namespace a2a::sim
