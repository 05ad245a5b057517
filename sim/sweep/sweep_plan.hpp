// The rows of a sweep: every grid point's algorithm configurations (plan() of workloads/plan.hpp),
// each with the identity that names it in the outputs (docs/sweeps.md), grouped by what one
// simulation process can run — SimGrid builds one platform per process, so a group is one
// (platform, engine, P, ranks per node).
#pragma once

#include <string>
#include <vector>

#include "platforms/platform.hpp"
#include "sim/resource_guard.hpp"
#include "sim/simulation.hpp"
#include "sim/sweep/sweep_grid.hpp"
#include "sim/sweep/sweep_rows.hpp"
#include "workloads/plan.hpp"

namespace a2a::sim {

// What one worker process builds: a platform for P ranks on one engine.
struct SimGroup {
  std::string platform_name;  // as the sweep gives it (a preset or a file path)
  PlatformSpec platform;      // ranks_per_node: the effective one
  std::string engine;
  int ranks = 0;
  SimOptions options;

  std::string describe() const;  // "polaris scale P=1024 (32 per node, vendor mpich)"
};

struct SweepRow {
  size_t group = 0;
  size_t point = 0;      // index into SweepPlan::points
  std::string workload;  // the resolved workload spec
  Planned planned;       // the configuration and its layout
  RowCells identity;     // the output's identity columns (identity_columns())

  std::string describe() const;  // the identity as one line, for messages
};

struct SweepPlan {
  std::string origin;  // the sweep file
  std::vector<GridPoint> points;
  std::vector<SimGroup> groups;
  std::vector<SweepRow> rows;  // grid order, one per distinct identity
};

// Plans every point. Configurations that do not apply (plan() skips, parameter values out of range
// for a point's P, P that does not fit a platform) are reported once each on stderr when `report`
// is set, and left out. Throws InputError naming FILE:LINE for what applies nowhere or is wrong.
SweepPlan plan_sweep(const std::string& origin, std::vector<GridPoint> points, bool report);

// The memory guard's estimate for `workers` processes running at once, each simulating at most
// the largest of the groups of `rows` (indices into plan.rows).
MemoryEstimate estimate_sweep_memory(const SweepPlan& plan, const std::vector<size_t>& rows,
                                     int workers, std::string& engine);

}  // namespace a2a::sim
