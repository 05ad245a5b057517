// a2a-mpi: the catalog on real MPI. `list` prints the registry; `verify` proves every algorithm
// byte for byte against MPI_Alltoallv; `bench` times them (run the last two under mpirun).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "algorithms/errors.hpp"
#include "cli/output_option.hpp"
#include "cli/parse_error.hpp"
#include "mpi/argument_check.hpp"
#include "mpi/commands.hpp"
#include "mpi/sweep_launcher.hpp"
#include "workloads/listing.hpp"

namespace {

// Under mpirun every rank parses the same arguments; only the first prints usage errors.
bool first_rank_by_environment() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value) == 0;
  }
  return true;
}

void add_common(CLI::App& command, a2a::mpi::CommonOptions& options) {
  command
      .add_option("-a,--algorithm", options.selection.algorithms,
                  "algorithm names, or all (repeatable)")
      ->default_str("all");
  command
      .add_option("-w,--workload", options.workloads,
                  "workload specs, e.g. uniform:max=1024 (repeatable; `a2a-mpi list`)")
      ->default_str("uniform");
  for (const char* name : {"radix", "batch", "ranks_per_node", "chunk"}) {
    std::string flag = std::string("--") + name;
    for (char& c : flag)
      c = c == '_' ? '-' : c;
    command.add_option_function<std::string>(
        flag, [&options, name](const std::string& v) { options.selection.params[name] = v; },
        std::string("algorithm parameter ") + name + ": N, N,M,... or all");
  }
  command.add_option_function<std::vector<std::string>>(
      "-p,--param",
      [&options](const std::vector<std::string>& items) {
        for (const auto& item : items) {
          auto eq = item.find('=');
          if (eq == std::string::npos || eq == 0) {
            throw CLI::ValidationError("--param", "expected key=value, got '" + item + "'");
          }
          options.selection.params[item.substr(0, eq)] = item.substr(eq + 1);
        }
      },
      "any algorithm parameter as key=value (repeatable)");
  command
      .add_option("--node-size", options.node_size,
                  "ranks per node of the machine layout (default: detected)")
      ->check(a2a::cli::number_in(1));
  a2a::cli::add_output_option(command, "--csv", options.csv_path, "also write the table as CSV");
  command
      .add_option("--timeout", options.timeout,
                  "seconds one run of one configuration may take before it is reported as hung, "
                  "naming the algorithm and the ranks still waiting (default: no limit)")
      ->check(a2a::cli::number_in(0));
}

}  // namespace

int main(int argc, char** argv) {
  // Before MPI_Init, which may take its own arguments out of argv.
  const std::string arguments = a2a::mpi::joined_arguments(argc, argv);
  CLI::App app{"a2a-mpi: all-to-all algorithms on real MPI (run verify/bench under mpirun)"};
  app.require_subcommand(1);
  auto* list = app.add_subcommand("list", "print the algorithm and workload catalogs");
  a2a::mpi::CommonOptions verify_options;
  auto* verify =
      app.add_subcommand("verify", "check algorithms byte for byte against MPI_Alltoallv");
  add_common(*verify, verify_options);
  a2a::mpi::BenchOptions bench_options;
  auto* bench = app.add_subcommand("bench", "time algorithms (slowest rank, min/median/max)");
  add_common(*bench, bench_options.common);
  bench->add_option("-n,--iterations", bench_options.iterations, "timed iterations")
      ->check(a2a::cli::number_in(1));
  bench->add_option("--warmup", bench_options.warmup, "untimed iterations first")
      ->check(a2a::cli::number_in(0));
  bench
      ->add_option("--sizes", bench_options.sizes,
                   "block sizes in bytes replacing the workload's size option")
      ->delimiter(',');
  bench->add_option("--fftw", bench_options.fftw,
                    "time FFTW's distributed DFT of this shape (N0xN1 or N0xN1xN2; repeatable) "
                    "with each algorithm under its all-to-alls, instead of the workloads");
  bench
      ->add_option("--pool-max", bench_options.pool_max,
                   "cap of the temporary-memory pool kept between iterations, as A2A_POOL_MAX "
                   "(bytes, or with K/M/G; 0: allocate and free on every call)")
      ->capture_default_str();
  a2a::mpi::SweepLaunchOptions sweep_options;
  auto* sweep = a2a::mpi::add_sweep_command(app, sweep_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (first_rank_by_environment()) return a2a::cli::report_parse_error(app, error, "a2a-mpi");
    return error.get_exit_code() == 0 ? 0 : 2;
  }
  for (auto* options : {&verify_options, &bench_options.common}) {
    if (options->selection.algorithms.empty()) options->selection.algorithms = {"all"};
    if (options->workloads.empty()) options->workloads = {"uniform"};
  }
  try {
    if (list->parsed()) {
      a2a::print_algorithm_catalog(std::cout);
      std::cout << "\n";
      a2a::print_workload_catalog(std::cout);
      return 0;
    }
    MPI_Init(&argc, &argv);
    if (const std::string mismatch = a2a::mpi::argument_mismatch(arguments); !mismatch.empty()) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) a2a::cli::print_error("a2a-mpi", mismatch);
      MPI_Finalize();
      return 2;
    }
    int code = sweep->parsed()              ? a2a::mpi::run_sweep(sweep_options)
               : verify->parsed()           ? a2a::mpi::run_verify(verify_options)
               : bench_options.fftw.empty() ? a2a::mpi::run_bench(bench_options)
                                            : a2a::mpi::run_fftw_bench(bench_options);
    MPI_Finalize();
    return code;
  } catch (const a2a::Error& error) {
    a2a::cli::print_error("a2a-mpi", error.what());
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Finalize();
    return 2;
  }
}
