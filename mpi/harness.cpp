#include "mpi/harness.hpp"

#include <cstdio>
#include <iostream>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

ExchangeShape shape_of(const Workload& workload, const Context& context, LayoutStyle layout) {
  ExchangeShape shape;
  shape.ranks = context.size();
  shape.ranks_per_node = context.ranks_per_node();
  shape.uniform = workload.uniform();
  shape.balanced = workload.balanced();
  shape.contiguous_in_order = layout == LayoutStyle::packed;
  return shape;
}

std::vector<Planned> plan(const Selection& selection, const Workload& workload,
                          const Context& context) {
  std::vector<const AlgorithmInfo*> algorithms;
  for (const auto& name : selection.algorithms) {
    if (name == "all") {
      for (const auto& info : catalog()) algorithms.push_back(&info);
    } else {
      algorithms.push_back(&find_algorithm(name));
    }
  }
  // A parameter no selected algorithm has is a mistake, not something to ignore silently.
  for (const auto& [name, value] : selection.params) {
    bool used = false;
    for (const AlgorithmInfo* algorithm : algorithms) {
      for (const auto& spec : algorithm->params) used = used || spec.name == name;
    }
    if (!used) {
      throw InvalidParameter("no selected algorithm has parameter '" + name + "'");
    }
  }
  const ExchangeShape with_gaps = shape_of(workload, context, LayoutStyle::gaps);
  const ExchangeShape packed = shape_of(workload, context, LayoutStyle::packed);
  std::vector<Planned> out;
  for (const AlgorithmInfo* algorithm : algorithms) {
    for (Configuration& config :
         expand(*algorithm, selection.params, context.size(), context.ranks_per_node())) {
      Planned planned{config, LayoutStyle::gaps, not_applicable_reason(config, with_gaps)};
      if (planned.skip && !not_applicable_reason(config, packed)) {
        planned.layout = LayoutStyle::packed;
        planned.skip.reset();
      }
      out.push_back(std::move(planned));
    }
  }
  return out;
}

PreparedExchange prepare(const Workload& workload, const Context& context, LayoutStyle style) {
  PreparedExchange prepared;
  prepared.layout = make_layout(workload, context.rank(), style);
  validate_layout(prepared.layout, context.rank());
  prepared.buffers = make_buffers(prepared.layout, context.rank());
  return prepared;
}

void abort_job(const Context& context, const std::string& message) {
  std::fprintf(stderr, "a2a-mpi: error: rank %d: %s\n", context.rank(), message.c_str());
  std::fflush(stderr);
  MPI_Abort(context.comm(), 1);
  std::abort();  // MPI_Abort does not return; keeps [[noreturn]] honest
}

RunStats run_configuration(const Context& context, const Configuration& config,
                           PreparedExchange& exchange) {
  try {
    MpiComm comm(context, exchange.layout, exchange.buffers.send.data(),
                 exchange.buffers.recv.data());
    config.algorithm->run(comm, config.params);
    if (comm.outstanding() != 0) {
      throw ContractViolation(std::to_string(comm.outstanding()) +
                              " requests were never waited for");
    }
    return comm.stats();
  } catch (const Error& error) {
    abort_job(context, config.label() + ": " + error.what());
  }
}

RunStats max_over_ranks(const Context& context, const RunStats& mine) {
  std::int64_t values[] = {mine.rounds,        mine.messages,   mine.bytes_sent,
                           mine.meta_messages, mine.meta_bytes, mine.copy_bytes,
                           mine.temp_peak,     mine.staging_peak};
  MPI_Allreduce(MPI_IN_PLACE, values, 8, MPI_INT64_T, MPI_MAX, context.comm());
  return {values[0], values[1], values[2], values[3],
          values[4], values[5], values[6], values[7]};
}

}  // namespace a2a::mpi
