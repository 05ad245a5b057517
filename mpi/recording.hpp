// A2A_RECORD=DIR: real applications' all-to-all patterns as workload files for `a2a run`.
//
// At every MPI_Alltoall(v) the interposer gathers the exchange's full count matrix in bytes (row =
// sender, column = receiver; each rank contributes its row) to rank 0 of the communicator. Rank 0
// keeps, per call site (the calling code's shared object and offset, the same on every rank and
// run, e.g. libfftw3_mpi.so.3+0x1c2a0) and communicator size, every *distinct* matrix, and writes
// each new one at once as a CSV file the `matrix` workload reads:
//
//   DIR/alltoallv-libfftw3_mpi.so.3+0x1c2a0-P4-1.csv        (-2, -3, ... for further patterns)
//
// with '#' header lines naming the collective, call site, P, and how many calls had exactly this
// matrix (rewritten at MPI_Finalize with the final count). Replay with
//   a2a run --set ranks=4 --set workload=matrix:file=FILE,elem=1
// Identical calls are counted, not repeated (an FFT's transposes repeat one pattern thousands of
// times); at most kMaxPatterns files per call site, calls with further new matrices are only
// counted (a warning says so).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mpi/alltoall_call.hpp"

namespace a2a::mpi {

class Recorder {
 public:
  static constexpr int kMaxPatterns = 64;

  // Creates DIR if needed; throws Error if it cannot be written.
  explicit Recorder(std::string dir);

  // Collective over call.comm (one MPI_Gather); `caller` is the return address of the
  // application's call. Inter-communicators are skipped (logged at info).
  void record(const AlltoallCall& call, const void* caller);
  // Rewrites every file this process wrote with its final call count.
  void finish();

 private:
  struct Pattern {
    std::vector<std::int64_t> matrix;  // P x P bytes, row-major
    long long calls = 0;
    std::string path;
  };
  struct Site {
    std::string collective, where;
    int ranks = 0;
    std::vector<Pattern> patterns;
    long long unrecorded = 0;  // calls whose matrix was new after kMaxPatterns
  };

  void add(Site& site, std::vector<std::int64_t> matrix);
  void write(const Site& site, const Pattern& pattern, int number) const;

  std::string dir_;
  std::mutex mutex_;
  std::map<std::string, Site> sites_;
};

}  // namespace a2a::mpi
