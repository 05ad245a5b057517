// The worker processes of `a2a sweep`. SimGrid allows one engine and one platform per process, so
// a sweep runs in parallel as processes: the parent forks up to --jobs workers, each bound to one
// group (platform, engine, P, ranks per node) and fed rows of it one at a time over a pipe; each
// finished row comes back as one line at once, so the parent can write it before the next one
// finishes. A worker that fails (a simulation error, a crash) costs only its row: the parent
// reports it and starts another worker for the rest.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_plan.hpp"

namespace a2a::sim {

struct WorkerEvents {
  // A row finished: its measure cells (measure_columns()).
  std::function<void(size_t row, const std::vector<std::string>& result)> finished;
  // Rows that failed with one error (several when a worker could not build its platform).
  std::function<void(const std::vector<size_t>& rows, const std::string& error)> failed;
  // Called about once a second and after every row (progress).
  std::function<void()> tick;
};

// Simulates `rows` (indices into plan.rows) on up to `jobs` worker processes. Returns the signal
// number when SIGINT, SIGTERM or SIGHUP interrupted it (the workers are stopped, rows in flight
// are lost), else 0.
int run_workers(const SweepPlan& plan, const std::vector<size_t>& rows, int jobs,
                const WorkerEvents& events);

}  // namespace a2a::sim
