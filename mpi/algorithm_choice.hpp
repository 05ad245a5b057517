// What an application asked a2a to use for its all-to-alls: one catalog algorithm spec for every
// call ("parlogna:radix=4", "vendor"), or a tuning table that picks by collective, communicator
// size and block size (tuning_table.hpp). Shared by the C API's configuration handle and the
// interposer's A2A_ALLTOALLV / A2A_ALLTOALL / A2A_TUNING settings.
#pragma once

#include <memory>
#include <string>

#include "algorithms/registry.hpp"
#include "mpi/tuning_table.hpp"

namespace a2a::mpi {

class AlgorithmChoice {
 public:
  // Checks the spec's name, keys and values as far as no communicator is known (the ranges that
  // depend on P are checked per call). Throws InvalidParameter.
  static AlgorithmChoice fixed(const std::string& spec);
  // Reads and checks the table. Throws InputError naming FILE:LINE.
  static AlgorithmChoice tuned(const std::string& path);

  // Whether the choice for (collective, ranks) depends on the block size (needs one allreduce per
  // MPI_Alltoallv call to learn the mean block).
  bool depends_on_block(Collective collective, int ranks) const;
  // The algorithm spec for a call; "vendor" when a table has no matching row (`why` says so).
  std::string spec_for(Collective collective, int ranks, std::int64_t block_bytes,
                       std::string& why) const;
  // "parlogna:radix=4" or "tuning table FILE".
  std::string describe() const;

 private:
  std::string spec_;
  std::shared_ptr<const TuningTable> table_;
};

// configure(spec, ranks, ranks_per_node), remembered per arguments (calls repeat with the same
// communicators): the configuration, or the InvalidParameter text when the spec does not fit P.
struct Resolved {
  const Configuration* config = nullptr;
  std::string problem;
};
Resolved configured(const std::string& spec, int ranks, int ranks_per_node);

}  // namespace a2a::mpi
