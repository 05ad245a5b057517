#include "mpi/harness.hpp"

#include <cstdio>
#include <iostream>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

PreparedExchange prepare(const Workload& workload, const Context& context, LayoutStyle style) {
  PreparedExchange prepared;
  prepared.layout = make_layout(workload, context.rank(), style);
  validate_layout(prepared.layout, context.rank());
  prepared.buffers = make_buffers(prepared.layout, context.rank());
  return prepared;
}

bool setup_failed(const Context& context, const std::string& problem, const char* tool) {
  int mine = problem.empty() ? context.size() : context.rank(), first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, context.comm());
  if (first == context.size()) return false;
  if (context.rank() == first) std::fprintf(stderr, "%s: error: %s\n", tool, problem.c_str());
  return true;
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
  std::int64_t values[] = {mine.rounds,     mine.messages,   mine.bytes_sent, mine.meta_messages,
                           mine.meta_bytes, mine.copy_bytes, mine.temp_peak,  mine.staging_peak};
  MPI_Allreduce(MPI_IN_PLACE, values, 8, MPI_INT64_T, MPI_MAX, context.comm());
  return {values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]};
}

}  // namespace a2a::mpi
