// What `a2a-mpi verify` and `a2a-mpi bench` share: choosing configurations for a workload,
// preparing a rank's buffers, running one configuration, and turning failures into one clear line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/stats.hpp"
#include "mpi/mpi_comm.hpp"
#include "workloads/layout.hpp"
#include "workloads/plan.hpp"
#include "workloads/workload.hpp"

namespace a2a::mpi {

// One rank's exchange for a workload and layout.
struct PreparedExchange {
  ExchangeLayout layout;
  ExchangeBuffers buffers;
};
PreparedExchange prepare(const Workload& workload, const Context& context, LayoutStyle style);

// Collective: prepare() on every rank once every rank's buffers are known to fit — `copies` times
// the rank's send plus receive buffer (as many as the tool keeps), its node's ranks together
// against the node's available memory — and the counts of every pair agree
// (count_disagreement). Otherwise returns nothing on every rank, after the lowest failing rank
// printed one line naming `tool`, the workload and the estimate (never a std::bad_alloc).
std::optional<PreparedExchange> prepare_checked(const Workload& workload, const Context& context,
                                                LayoutStyle style, int copies, const char* tool);

// Collective: whether what every rank sends each peer is what that peer expects (sendcounts[j] on
// rank i == recvcounts[i] on rank j, one extent everywhere). Returns this rank's first disagreement
// as one line naming the pair, empty if none. Run before an exchange: a mismatch would otherwise
// hang, truncate or overrun a receive.
std::string count_disagreement(const Context& context, const ExchangeLayout& layout);

// Run `config` once on this rank. An a2a error during the run cannot be recovered collectively
// (peers may be blocked in a receive), so it ends the job: one line naming the rank and the
// algorithm, then MPI_Abort with exit code 1.
// With `timeout` > 0 (seconds) no wait blocks past `timeout` seconds after the run started: a rank
// that gives up reports what it waited for, rank 0 gathers every rank's outcome, and if any rank is
// still waiting it prints one line naming the algorithm and those ranks and ends the job (exit code
// 1). `seconds`, if given, receives this rank's time in the algorithm (without that agreement).
RunStats run_configuration(const Context& context, const Configuration& config,
                           PreparedExchange& exchange, double timeout = 0,
                           double* seconds = nullptr);

// Stats reduced over ranks: element-wise maximum.
RunStats max_over_ranks(const Context& context, const RunStats& mine);

// Setup (workload, plan) may fail on some ranks only, e.g. a matrix file present on some nodes.
// Every rank calls this with its own problem (empty if none); it returns true on every rank if any
// rank failed, after the lowest failing rank printed its problem as one line.
bool setup_failed(const Context& context, const std::string& problem, const char* tool);

// Collective: rank 0 (the only one that writes) checks `csv_path` before any run, so a missing
// directory is found before the work rather than after it; true on every rank if it cannot be
// written, after rank 0 printed why as one line.
bool output_unwritable(const Context& context, const std::string& csv_path, const char* tool);

[[noreturn]] void abort_job(const Context& context, const std::string& message);

// A seam for test programs only: tests/mpi/fault_injection.cpp installs hooks that make
// `a2a-mpi-faults` (a2a-mpi plus the hooks, built only for ctest) produce the faults the guards
// exist for (docs/reliability.md). Nothing shipped installs any; the defaults change nothing.
class RunHooks {
 public:
  virtual ~RunHooks() = default;
  // Called by verify and bench before each workload's setup, where an Error is reported
  // collectively as one line.
  virtual void check_setup() {}
  // A rank's layout, after prepare() made it and before it is validated.
  virtual void adjust_layout(ExchangeLayout& /*layout*/, int /*rank*/) {}
  // Runs `config` on `comm` (the MPI backend); a test may run it on a decorator of `comm`.
  virtual void run(Comm& comm, const Configuration& config) {
    config.algorithm->run(comm, config.params);
  }
};

// The hooks in effect: the defaults unless a test program installed others (which must outlive
// every run).
RunHooks& run_hooks();
void install_run_hooks(RunHooks& hooks);

}  // namespace a2a::mpi
