// a2a-mpi verify: every selected configuration, byte for byte, on real MPI.
// Per run it checks: every byte of every receive block, that no gap byte between receive blocks
// changed, that the send buffer and count/displacement arrays are unchanged, that the result equals
// the vendor MPI_Alltoallv's on the same layout, and that no request was left outstanding.
#include <cstdio>
#include <iostream>
#include <map>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "mpi/commands.hpp"

namespace a2a::mpi {

namespace {

struct Verdict {
  int failed_ranks = 0;
  std::string first_problem;  // from the lowest failing rank
};

// Agree on a verdict: how many ranks failed and the lowest failing rank's description.
Verdict agree(const Context& context, const std::string& mine) {
  Verdict verdict;
  int failed = mine.empty() ? 0 : 1;
  MPI_Allreduce(&failed, &verdict.failed_ranks, 1, MPI_INT, MPI_SUM, context.comm());
  if (verdict.failed_ranks == 0) return verdict;
  int candidate = mine.empty() ? context.size() : context.rank(), first = 0;
  MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, context.comm());
  if (first == 0) {
    if (context.rank() == 0) verdict.first_problem = "rank 0: " + mine;
    return verdict;
  }
  if (context.rank() == first) {
    const std::string text = "rank " + std::to_string(first) + ": " + mine;
    MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, 0, context.comm());
  } else if (context.rank() == 0) {
    MPI_Status status;
    MPI_Probe(first, 0, context.comm(), &status);
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    verdict.first_problem.resize(static_cast<size_t>(length));
    MPI_Recv(verdict.first_problem.data(), length, MPI_CHAR, first, 0, context.comm(),
             MPI_STATUS_IGNORE);
  }
  return verdict;
}

bool same_layout(const ExchangeLayout& a, const ExchangeLayout& b) {
  return a.sendcounts == b.sendcounts && a.sdispls == b.sdispls && a.recvcounts == b.recvcounts &&
         a.rdispls == b.rdispls && a.extent == b.extent;
}

// Everything that can be wrong after one run on this rank; empty if nothing.
std::string check_run(const PreparedExchange& run, const ExchangeLayout& layout_before,
                      const std::vector<std::byte>& send_before,
                      const std::vector<std::byte>& vendor_result) {
  if (run.buffers.send != send_before) return "the send buffer was modified";
  if (!same_layout(run.layout, layout_before)) return "the count/displacement arrays changed";
  std::string problem = describe_mismatch(run.layout, run.buffers.expected, run.buffers.recv);
  if (!problem.empty()) return problem;
  if (run.buffers.recv != vendor_result) return "result differs from vendor MPI_Alltoallv";
  return {};
}

// Each layout's exchange and the vendor's result on it, prepared once per workload.
struct Reference {
  PreparedExchange exchange;
  std::vector<std::byte> vendor_result;
};

Reference make_reference(const Context& context, PreparedExchange exchange, double timeout) {
  Reference reference{std::move(exchange), {}};
  static const Configuration vendor = configure("vendor", 1, 1);
  run_configuration(context, vendor, reference.exchange, timeout);
  reference.vendor_result = reference.exchange.buffers.recv;
  reset_receive(reference.exchange.buffers);
  return reference;
}

// Buffers of a rank's send or receive size verify keeps: the reference (send, receive, expected),
// the vendor's result, the run's fresh copy (send, receive, expected) and the send buffer's copy,
// plus room for an algorithm's temporaries.
constexpr int kVerifyBuffers = 10;

std::string count_text(std::int64_t v) {
  return std::to_string(v);
}

}  // namespace

int run_verify(const CommonOptions& options) {
  Context context(MPI_COMM_WORLD, options.node_size);
  const bool root = context.rank() == 0;
  TextTable table({"workload", "algorithm", "layout", "result", "rounds", "msgs/rank", "bytes/rank",
                   "meta msgs", "peak temp", "note"});
  int passed = 0, failed = 0, skipped = 0;
  if (output_unwritable(context, options.csv_path, "a2a-mpi verify")) return 2;
  std::string first_skip;
  for (const std::string& spec : options.workloads) {
    std::unique_ptr<Workload> workload;
    std::vector<Planned> planned;
    std::string problem;
    try {
      run_hooks().check_setup();
      workload = make_workload(spec, context.size());
      planned = plan(options.selection, *workload, context.ranks_per_node());
    } catch (const Error& error) {
      problem = error.what();
    }
    if (setup_failed(context, problem, "a2a-mpi verify")) return 2;
    std::map<LayoutStyle, Reference> references;
    for (const Planned& item : planned) {
      std::vector<std::string> row = {workload->spec(), item.config.label(),
                                      layout_name(item.layout)};
      if (item.skip) {
        ++skipped;
        if (first_skip.empty()) first_skip = item.config.label() + ": " + *item.skip;
        row.insert(row.end(), {"skipped", "", "", "", "", "", *item.skip});
        table.add(row);
        continue;
      }
      if (!references.count(item.layout)) {
        std::optional<PreparedExchange> exchange =
            prepare_checked(*workload, context, item.layout, kVerifyBuffers, "a2a-mpi verify");
        if (!exchange) return 2;
        references.emplace(item.layout,
                           make_reference(context, std::move(*exchange), options.timeout));
      }
      Reference& reference = references.at(item.layout);
      PreparedExchange run = reference.exchange;  // fresh copy: sentinel receive buffer
      const ExchangeLayout layout_before = run.layout;
      const std::vector<std::byte> send_before = run.buffers.send;
      const RunStats stats =
          max_over_ranks(context, run_configuration(context, item.config, run, options.timeout));
      const Verdict verdict =
          agree(context, check_run(run, layout_before, send_before, reference.vendor_result));
      const bool ok = verdict.failed_ranks == 0;
      ok ? ++passed : ++failed;
      row.insert(
          row.end(),
          {ok ? "pass" : "FAIL", count_text(stats.rounds), count_text(stats.messages),
           human_bytes(stats.bytes_sent), count_text(stats.meta_messages),
           human_bytes(stats.temp_peak),
           ok ? "" : std::to_string(verdict.failed_ranks) + " ranks; " + verdict.first_problem});
      table.add(row);
    }
  }
  if (root) {
    std::cout << "# a2a-mpi verify: P=" << context.size()
              << ", ranks per node=" << context.ranks_per_node() << "\n";
    table.print(std::cout);
    std::cout << "verify: " << passed << " passed, " << failed << " failed, " << skipped
              << " skipped\n";
    if (!options.csv_path.empty()) table.write_csv(options.csv_path);
  }
  if (passed + failed == 0) {
    if (root) {
      std::fprintf(stderr, "a2a-mpi verify: error: nothing ran: %s\n", first_skip.c_str());
    }
    return 1;
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace a2a::mpi
