// Tuning tables: which algorithm to use for an all-to-all, by collective, communicator size and
// block size. Read by the C API (a2a_config_create_tuned) and the interposer (A2A_TUNING=FILE);
// written by hand today and by `a2a tune` later. The format (docs/application.md):
//
//   # a2a tuning table        (lines starting with '#' and blank lines are ignored)
//   # collective  ranks  block-bytes  algorithm
//   alltoallv     1-8    0-4096       parlogna:radix=2
//   alltoallv     9-*    *            spread_out
//   alltoall      *      *            bruck_radix:radix=4
//
// collective: alltoall, alltoallv or *; ranks and block-bytes: * (any), N, N-M or N-* (inclusive);
// algorithm: a catalog spec, name[:key=value,...] (algorithms/registry.hpp configure()). Block
// size = bytes per block for MPI_Alltoall, the exchange's mean block (total bytes / P^2) for
// MPI_Alltoallv. The first matching row wins; no match means vendor. Every problem is an
// InputError "FILE:LINE: what".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace a2a::mpi {

enum class Collective { alltoall, alltoallv };
const char* collective_name(Collective collective);  // "MPI_Alltoall", "MPI_Alltoallv"

struct Range {
  std::int64_t low = 0;
  std::int64_t high = INT64_MAX;  // inclusive
  bool any() const { return low == 0 && high == INT64_MAX; }
  bool contains(std::int64_t v) const { return low <= v && v <= high; }
};

struct TuningRow {
  std::optional<Collective> collective;  // empty: both
  Range ranks, block;
  std::string algorithm;  // a spec for configure()
  int line = 0;
};

class TuningTable {
 public:
  static TuningTable read(const std::string& path);  // throws InputError
  // The spec of the first row that matches, or empty (vendor).
  const TuningRow* find(Collective collective, int ranks, std::int64_t block_bytes) const;
  // Whether the rows that apply to (collective, ranks) depend on the block size at all.
  bool depends_on_block(Collective collective, int ranks) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::vector<TuningRow> rows_;
};

}  // namespace a2a::mpi
