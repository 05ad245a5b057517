// What `a2a-mpi verify` and `a2a-mpi bench` share: choosing configurations for a workload, preparing
// a rank's buffers, running one configuration, and turning failures into one clear line.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/stats.hpp"
#include "mpi/mpi_comm.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::mpi {

struct Selection {
  std::vector<std::string> algorithms;  // names, or {"all"}
  ParamChoices params;                  // e.g. radix -> "all"
};

// One configuration to run on a workload, or the reason it is skipped.
struct Planned {
  Configuration config;
  LayoutStyle layout = LayoutStyle::gaps;
  std::optional<std::string> skip;
};

ExchangeShape shape_of(const Workload& workload, const Context& context, LayoutStyle layout);

// Every configuration the selection names, in catalog order. Algorithms that only apply to a packed
// layout (in-place ones) are planned on it; the rest on the gaps layout.
std::vector<Planned> plan(const Selection& selection, const Workload& workload,
                          const Context& context);

// One rank's exchange for a workload and layout.
struct PreparedExchange {
  ExchangeLayout layout;
  ExchangeBuffers buffers;
};
PreparedExchange prepare(const Workload& workload, const Context& context, LayoutStyle style);

// Run `config` once on this rank. An a2a error during the run cannot be recovered collectively
// (peers may be blocked in a receive), so it ends the job: one line naming the rank and the
// algorithm, then MPI_Abort with exit code 1.
RunStats run_configuration(const Context& context, const Configuration& config,
                           PreparedExchange& exchange);

// Stats reduced over ranks: element-wise maximum.
RunStats max_over_ranks(const Context& context, const RunStats& mine);

[[noreturn]] void abort_job(const Context& context, const std::string& message);

}  // namespace a2a::mpi
