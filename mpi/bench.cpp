// a2a-mpi bench: time every selected configuration on real MPI, in a table comparable with OSU's
// osu_alltoallv (one row per configuration and block size; latency in microseconds).
// Per iteration the time is the slowest rank's; receive buffers are reset outside the timer; the
// first `warmup` iterations are not recorded. The last iteration's result is checked byte for byte.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "mpi/commands.hpp"

namespace a2a::mpi {

namespace {

// Buffers of a rank's send or receive size bench keeps per layout (send, receive, expected), plus
// room for an algorithm's temporaries and the pool that keeps them between iterations.
constexpr int kBenchBuffers = 6;

bool first_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank == 0;
}

// The workload spec with its size option replaced: constant takes size=, the others max=.
std::string with_size(const std::string& spec, long long size) {
  const std::string family = spec.substr(0, spec.find(':'));
  if (family == "zero" || family == "fft_n1" || family == "fft_n2" || family == "matrix" ||
      family.rfind("zhuang", 0) == 0) {
    throw InvalidParameter("--sizes: workload " + family + " has no block-size option");
  }
  const std::string key = family == "constant" || family == "huge" ? "size" : "max";
  std::string options = spec.find(':') == std::string::npos ? "" : spec.substr(spec.find(':') + 1);
  std::string kept;
  size_t start = 0;
  while (start <= options.size() && !options.empty()) {
    size_t comma = options.find(',', start);
    std::string item = options.substr(start, comma - start);
    if (item.rfind(key + "=", 0) != 0) kept += (kept.empty() ? "" : ",") + item;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return family + ":" + key + "=" + std::to_string(size) + (kept.empty() ? "" : "," + kept);
}

std::string micros(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds * 1e6);
  return text;
}

struct Timing {
  double min = 0, median = 0, max = 0;
};

Timing summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  const double median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
  return {samples.front(), median, samples.back()};
}

// Minor page faults of this process so far: memory touched for the first time since it was mapped
// (fresh allocations). Cheap to read, so it brackets each timed call.
long long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

Bytes average_block_bytes(const Workload& workload) {
  // Exact mean over the P x P matrix; bench runs at MPI scale where P^2 is small.
  long double total = 0;
  for (int s = 0; s < workload.ranks(); ++s) {
    for (int d = 0; d < workload.ranks(); ++d)
      total += workload.count(s, d);
  }
  return static_cast<Bytes>(total * workload.element_bytes() /
                            (static_cast<long double>(workload.ranks()) * workload.ranks()));
}

}  // namespace

int run_bench(const BenchOptions& options) {
  Bytes pool_cap = 0;
  try {
    pool_cap = parse_pool_cap(options.pool_max);
  } catch (const Error& error) {
    if (first_rank()) std::fprintf(stderr, "a2a-mpi bench: error: --pool-max: %s\n", error.what());
    return 2;
  }
  // The library's pool, with the library's cap semantics: warm-up iterations fill it, so timed
  // iterations allocate only where the interposer and the C API would too.
  Context context(MPI_COMM_WORLD, options.common.node_size, pool_cap);
  const bool root = context.rank() == 0;
  if (options.iterations < 1 || options.warmup < 0) {
    if (root)
      std::fprintf(stderr, "a2a-mpi bench: error: --iterations must be >= 1 and --warmup >= 0\n");
    return 2;
  }
  if (output_unwritable(context, options.common.csv_path, "a2a-mpi bench")) return 2;
  std::vector<std::string> specs;
  try {
    for (const auto& spec : options.common.workloads) {
      if (options.sizes.empty()) specs.push_back(spec);
      for (long long size : options.sizes)
        specs.push_back(with_size(spec, size));
    }
  } catch (const Error& error) {
    if (root) std::fprintf(stderr, "a2a-mpi bench: error: %s\n", error.what());
    return 2;
  }
  // vendor first: it is the baseline of the ratio column.
  Selection selection = options.common.selection;
  selection.algorithms.insert(selection.algorithms.begin(), "vendor");
  // P and ranks_per_node make the CSV a measured-times file `a2a calibrate` reads as it is.
  TextTable table({"P", "ranks_per_node", "workload", "avg block", "algorithm", "min us",
                   "median us", "max us", "median/vendor", "faults/call", "check"});
  int failures = 0;
  for (const std::string& spec : specs) {
    std::unique_ptr<Workload> workload;
    std::vector<Planned> planned;
    std::string problem;
    try {
      run_hooks().check_setup();
      workload = make_workload(spec, context.size());
      planned = plan(selection, *workload, context.ranks_per_node());
    } catch (const Error& error) {
      problem = error.what();
    }
    if (setup_failed(context, problem, "a2a-mpi bench")) return 2;
    const std::string average = human_bytes(average_block_bytes(*workload));
    std::map<LayoutStyle, PreparedExchange> exchanges;
    double vendor_median = 0;
    std::vector<std::string> seen;
    for (const Planned& item : planned) {
      const std::string label = item.config.label();
      if (item.skip || std::find(seen.begin(), seen.end(), label) != seen.end()) continue;
      seen.push_back(label);
      if (!exchanges.count(item.layout)) {
        std::optional<PreparedExchange> exchange =
            prepare_checked(*workload, context, item.layout, kBenchBuffers, "a2a-mpi bench");
        if (!exchange) return 2;
        exchanges.emplace(item.layout, std::move(*exchange));
      }
      PreparedExchange& run = exchanges.at(item.layout);
      std::vector<double> samples;
      long long faults = 0;  // during the timed calls, this rank
      for (int i = 0; i < options.warmup + options.iterations; ++i) {
        reset_receive(run.buffers);
        MPI_Barrier(context.comm());
        double elapsed = 0;
        const long long faults_before = minor_faults();
        run_configuration(context, item.config, run, options.common.timeout, &elapsed);
        if (i >= options.warmup) faults += minor_faults() - faults_before;
        MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, context.comm());
        if (i >= options.warmup) samples.push_back(elapsed);
      }
      MPI_Allreduce(MPI_IN_PLACE, &faults, 1, MPI_LONG_LONG, MPI_MAX, context.comm());
      int wrong =
          describe_mismatch(run.layout, run.buffers.expected, run.buffers.recv).empty() ? 0 : 1;
      MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, context.comm());
      failures += wrong ? 1 : 0;
      const Timing timing = summarize(samples);
      if (item.config.algorithm->family == Family::vendor) vendor_median = timing.median;
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.2f", timing.median / vendor_median);
      char per_call[32];
      std::snprintf(per_call, sizeof per_call, "%.1f",
                    static_cast<double>(faults) / options.iterations);
      table.add({std::to_string(context.size()), std::to_string(context.ranks_per_node()),
                 workload->spec(), average, label, micros(timing.min), micros(timing.median),
                 micros(timing.max), ratio, per_call, wrong ? "FAIL" : "ok"});
    }
  }
  if (root) {
    std::cout << "# a2a-mpi bench: P=" << context.size() << ", iterations=" << options.iterations
              << " (after " << options.warmup
              << " warm-up), time = slowest rank per iteration, microseconds; faults/call = "
                 "minor page faults per timed call, busiest rank; pool cap "
              << options.pool_max << "\n";
    table.print(std::cout);
    if (!options.common.csv_path.empty()) table.write_csv(options.common.csv_path);
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace a2a::mpi
