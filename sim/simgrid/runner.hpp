// Runs catalog configurations on a platform model with SimGrid: one actor per rank, the same
// algorithm code as on MPI, one engine and one built platform per process.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/stats.hpp"
#include "platforms/platform.hpp"
#include "sim/simgrid/world.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

struct SimOptions {
  bool payload = false;            // carry real bytes and check them (small P)
  int trace_ranks = 0;             // record phase spans of the first N ranks
  std::string vendor = "openmpi";  // what `vendor` models
  std::string network_model = "CM02";
  bool crosstraffic = false;
};

// The outcome of one configuration.
struct SimResult {
  std::string label;
  double predicted = 0;                      // completion time of the slowest rank, seconds
  double fastest = 0;                        // completion time of the fastest rank
  double median = 0;                         // median rank completion time
  std::map<std::string, double> phase_mean;  // seconds per phase label, mean over ranks
  double wait_mean = 0;                      // seconds blocked in waits, mean over ranks
  double copy_mean = 0;                      // seconds of local copies, mean over ranks
  RunStats max_per_rank;                     // element-wise maximum over ranks
  RunStats total;                            // sums over ranks
  std::int64_t intra_node_bytes = 0;
  std::int64_t inter_node_bytes = 0;
  double wall_seconds = 0;               // the simulator's own time
  std::string check = "-";               // payload mode: "pass" or what was wrong
  std::vector<std::vector<Span>> spans;  // per traced rank
};

class SimGridSimulation {
 public:
  // Creates the SimGrid engine (once per process) and builds the platform for up to `ranks` ranks.
  // Throws InvalidParameter if they do not fit the platform.
  SimGridSimulation(const PlatformSpec& platform, int ranks, SimOptions options);
  ~SimGridSimulation();

  // Runs one configuration on a workload of workload.ranks() <= ranks ranks to completion. A
  // deadlock, a message nobody receives or an algorithm breaking the comm contract throws
  // a2a::Error naming the configuration and the ranks; the simulator is unusable afterwards.
  SimResult run(const Configuration& config, const Workload& workload,
                LayoutStyle layout = LayoutStyle::gaps);

  const PlatformSpec& platform() const { return platform_; }

 private:
  PlatformSpec platform_;
  int ranks_;
  SimOptions options_;
  BuiltPlatform built_;
};

}  // namespace a2a::sim
