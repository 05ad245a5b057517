#include "mpi/harness.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "algorithms/errors.hpp"
#include "algorithms/machine_memory.hpp"
#include "algorithms/output_file.hpp"
#include "algorithms/text_table.hpp"
#include "mpi/deadline.hpp"

namespace a2a::mpi {

namespace {

// Tags of the outcome agreement after a timed run, apart from the backend's (1-3).
constexpr int kOutcomeTag = 90;
constexpr int kVerdictTag = 91;
constexpr int kOutcomeChars = 160;  // what one rank still waited for, truncated
constexpr int kListedRanks = 8;     // ranks named in the error line; the rest are counted

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g s", seconds);
  return text;
}

// Rank 0: every rank's outcome ("" = finished), "no answer" for ranks silent until the deadline.
std::vector<std::string> gather_outcomes(const Context& context, const std::string& mine,
                                         const Deadline& deadline) {
  const int P = context.size();
  std::vector<std::array<char, kOutcomeChars>> texts(static_cast<size_t>(P));
  std::vector<MPI_Request> requests(static_cast<size_t>(P), MPI_REQUEST_NULL);
  for (int r = 1; r < P; ++r) {
    MPI_Irecv(texts[r].data(), kOutcomeChars, MPI_CHAR, r, kOutcomeTag, context.comm(),
              &requests[r]);
  }
  wait_all_until(requests, deadline);
  std::vector<std::string> outcomes(static_cast<size_t>(P));
  outcomes[0] = mine;
  for (int r = 1; r < P; ++r) {
    int done = 0;
    MPI_Test(&requests[r], &done, MPI_STATUS_IGNORE);
    if (!done) {
      outcomes[r] = "no answer";
      MPI_Cancel(&requests[r]);
      continue;
    }
    outcomes[r].assign(texts[r].data(), strnlen(texts[r].data(), kOutcomeChars));
  }
  return outcomes;
}

// After a run with a deadline: every rank tells rank 0 what it still waited for (nothing if it
// finished). If any rank is still waiting, rank 0 prints one line naming the algorithm and those
// ranks and ends the job; otherwise it releases the others.
void agree_on_outcome(const Context& context, const std::string& label, const std::string& mine,
                      double timeout) {
  const Deadline deadline = Deadline::after(timeout);
  if (context.rank() != 0) {
    std::array<char, kOutcomeChars> text{};
    std::memcpy(text.data(), mine.data(), std::min<size_t>(mine.size(), kOutcomeChars - 1));
    int verdict = 1;
    MPI_Request requests[2];
    MPI_Isend(text.data(), kOutcomeChars, MPI_CHAR, 0, kOutcomeTag, context.comm(), &requests[0]);
    MPI_Irecv(&verdict, 1, MPI_INT, 0, kVerdictTag, context.comm(), &requests[1]);
    // Rank 0 may itself wait out its deadline first, then ours: allow for both.
    if (!wait_all_until(requests, Deadline::after(3 * timeout + 10))) {
      abort_job(context, label + ": no verdict from rank 0 " + seconds_text(3 * timeout + 10) +
                             " after the run (rank 0 hung)");
    }
    return;
  }
  const std::vector<std::string> outcomes = gather_outcomes(context, mine, deadline);
  std::string listed;
  int waiting = 0;
  for (int r = 0; r < context.size(); ++r) {
    if (outcomes[r].empty()) continue;
    if (++waiting <= kListedRanks) {
      listed += (listed.empty() ? "" : ", ") + std::string("rank ") + std::to_string(r) + " (" +
                outcomes[r] + ")";
    }
  }
  if (waiting == 0) {
    std::vector<int> verdicts(static_cast<size_t>(context.size()), 0);
    std::vector<MPI_Request> requests(static_cast<size_t>(context.size()), MPI_REQUEST_NULL);
    for (int r = 1; r < context.size(); ++r) {
      MPI_Isend(&verdicts[r], 1, MPI_INT, r, kVerdictTag, context.comm(), &requests[r]);
    }
    wait_all_until(requests, Deadline());
    return;
  }
  if (waiting > kListedRanks) listed += ", ...";
  std::fprintf(stderr, "a2a-mpi: error: %s: hung: %d of %d ranks still waiting after %s: %s\n",
               label.c_str(), waiting, context.size(), seconds_text(timeout).c_str(),
               listed.c_str());
  std::fflush(stderr);
  MPI_Abort(context.comm(), 1);
}

}  // namespace

PreparedExchange prepare(const Workload& workload, const Context& context, LayoutStyle style) {
  PreparedExchange prepared;
  prepared.layout = make_layout(workload, context.rank(), style);
  run_hooks().adjust_layout(prepared.layout, context.rank());
  validate_layout(prepared.layout, context.rank());
  prepared.buffers = make_buffers(prepared.layout, context.rank());
  return prepared;
}

namespace {

// Empty if `copies` buffers of this rank's send and receive size fit in the node's available
// memory shared by the node's ranks, else why not.
std::string buffers_too_large(const Workload& workload, const ExchangeLayout& layout,
                              const Context& context, int copies) {
  const std::int64_t available = available_memory();
  if (available <= 0) return {};  // unknown: no check
  // In double: a 2^40-byte block times P copies overflows 64 bits.
  const double per_rank =
      copies * (static_cast<double>(layout.send_buffer_bytes()) + layout.recv_buffer_bytes());
  const double per_node = per_rank * context.ranks_per_node();
  if (per_node <= static_cast<double>(available)) return {};
  const auto shown = [](double bytes) {
    return human_bytes(bytes >= 9e18 ? std::int64_t{9'000'000'000'000'000'000}
                                     : static_cast<std::int64_t>(bytes));
  };
  return "workload " + workload.spec() + " needs about " + shown(per_node) + " per node (" +
         std::to_string(copies) + " buffers of send " + human_bytes(layout.send_buffer_bytes()) +
         " + receive " + human_bytes(layout.recv_buffer_bytes()) + " on rank " +
         std::to_string(context.rank()) + ", " + std::to_string(context.ranks_per_node()) +
         " ranks per node) but the node has " + human_bytes(available) + " available";
}

}  // namespace

std::optional<PreparedExchange> prepare_checked(const Workload& workload, const Context& context,
                                                LayoutStyle style, int copies, const char* tool) {
  ExchangeLayout layout = make_layout(workload, context.rank(), style);
  if (setup_failed(context, buffers_too_large(workload, layout, context, copies), tool)) return {};
  PreparedExchange exchange = prepare(workload, context, style);
  if (setup_failed(context, count_disagreement(context, exchange.layout), tool)) return {};
  return exchange;
}

bool setup_failed(const Context& context, const std::string& problem, const char* tool) {
  int mine = problem.empty() ? context.size() : context.rank(), first = 0;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, context.comm());
  if (first == context.size()) return false;
  if (context.rank() == first) std::fprintf(stderr, "%s: error: %s\n", tool, problem.c_str());
  return true;
}

bool output_unwritable(const Context& context, const std::string& csv_path, const char* tool) {
  std::string problem;
  if (context.rank() == 0) {
    try {
      check_outputs({{"--csv", csv_path}});
    } catch (const Error& error) {
      problem = error.what();
    }
  }
  return setup_failed(context, problem, tool);
}

void abort_job(const Context& context, const std::string& message) {
  std::fprintf(stderr, "a2a-mpi: error: rank %d: %s\n", context.rank(), message.c_str());
  std::fflush(stderr);
  MPI_Abort(context.comm(), 1);
  std::abort();  // MPI_Abort does not return; keeps [[noreturn]] honest
}

std::string count_disagreement(const Context& context, const ExchangeLayout& layout) {
  const int P = context.size();
  std::vector<std::int64_t> incoming(static_cast<size_t>(P));  // what each rank will send me
  MPI_Alltoall(layout.sendcounts.data(), 1, MPI_INT64_T, incoming.data(), 1, MPI_INT64_T,
               context.comm());
  std::int64_t extents[2] = {layout.extent, -layout.extent};
  MPI_Allreduce(MPI_IN_PLACE, extents, 2, MPI_INT64_T, MPI_MAX, context.comm());
  if (extents[0] != -extents[1]) {
    return "element sizes differ between ranks (" + std::to_string(-extents[1]) + " to " +
           std::to_string(extents[0]) + " bytes; this rank: " + std::to_string(layout.extent) + ")";
  }
  for (int src = 0; src < P; ++src) {
    if (incoming[src] == layout.recvcounts[src]) continue;
    return "counts disagree: rank " + std::to_string(src) + " sends " +
           std::to_string(incoming[src]) + " elements to rank " + std::to_string(context.rank()) +
           ", which expects " + std::to_string(layout.recvcounts[src]) +
           " (sendcounts/recvcounts of the pair differ)";
  }
  return {};
}

RunStats run_configuration(const Context& context, const Configuration& config,
                           PreparedExchange& exchange, double timeout, double* seconds) {
  const double start = MPI_Wtime();
  std::string waiting;  // what this rank still waited for when its deadline passed
  try {
    MpiComm comm(context, exchange.layout, exchange.buffers.send.data(),
                 exchange.buffers.recv.data());
    comm.set_deadline(Deadline::after(timeout));
    try {
      run_hooks().run(comm, config);
      if (comm.outstanding() != 0) {
        throw ContractViolation(std::to_string(comm.outstanding()) +
                                " requests were never waited for");
      }
    } catch (const TimedOut& error) {
      waiting = error.what();
    }
    if (seconds) *seconds = MPI_Wtime() - start;
    // The agreement runs while `comm` still holds the pending requests of a rank that gave up.
    if (timeout > 0) agree_on_outcome(context, config.label(), waiting, timeout);
    return comm.stats();
  } catch (const Error& error) {
    abort_job(context, config.label() + ": " + error.what());
  }
}

namespace {

RunHooks*& installed_hooks() {
  static RunHooks defaults;
  static RunHooks* hooks = &defaults;
  return hooks;
}

}  // namespace

RunHooks& run_hooks() {
  return *installed_hooks();
}

void install_run_hooks(RunHooks& hooks) {
  installed_hooks() = &hooks;
}

RunStats max_over_ranks(const Context& context, const RunStats& mine) {
  std::int64_t values[] = {mine.rounds,     mine.messages,   mine.bytes_sent, mine.meta_messages,
                           mine.meta_bytes, mine.copy_bytes, mine.temp_peak,  mine.staging_peak};
  MPI_Allreduce(MPI_IN_PLACE, values, 8, MPI_INT64_T, MPI_MAX, context.comm());
  return {values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7]};
}

}  // namespace a2a::mpi
