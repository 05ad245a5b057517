// The subcommands of a2a-mpi. Each returns the process exit code.
#pragma once

#include <string>
#include <vector>

#include "mpi/harness.hpp"

namespace a2a::mpi {

struct CommonOptions {
  Selection selection;
  std::vector<std::string> workloads;
  int node_size = 0;     // ranks per node of the machine layout; 0 = detect
  std::string csv_path;  // also write the table as CSV
  double timeout = 0;    // seconds one run may take before it is reported as hung; 0: no limit
};

struct BenchOptions {
  CommonOptions common;
  int iterations = 20;
  int warmup = 3;
  std::vector<long long> sizes;  // substitutes the workload's size option, one table row group each
  std::vector<std::string> fftw;  // FFTW DFT shapes N0xN1[xN2]: time FFTW instead (fftw_bench)
  // Cap of the temporary-memory pool (parse_pool_cap's syntax; "0": allocate on every call).
  std::string pool_max = "256M";
};

int run_verify(const CommonOptions& options);
int run_bench(const BenchOptions& options);
int run_fftw_bench(const BenchOptions& options);

}  // namespace a2a::mpi
