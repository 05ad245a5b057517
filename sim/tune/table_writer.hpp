// Writes a tuning map as the table a2a loads at run time (mpi/tuning_table.hpp: the interposer's
// A2A_TUNING, the C API's a2a_config_create_tuned, A2A_ALLTOALLV=auto). Between measured points
// the ranges split at the geometric midpoint; the first range starts at 1 rank / 0 bytes, the last
// is open (*). Block sizes are the run-time ones: the workload's mean block, total bytes / P^2.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/tune/tuning_map.hpp"

namespace a2a::tune {

// For sorted, distinct values v: the inclusive upper bound of each value's range but the last,
// floor(sqrt(v[i] * v[i+1])), which lies in [v[i], v[i+1]).
std::vector<std::int64_t> geometric_bounds(const std::vector<std::int64_t>& values);

// What a workload looks like at run time for P ranks: the mean block in bytes (total bytes / P^2,
// rounded down as the interposer does; from an evenly spaced 512 x 512 sample above P = 512) and
// whether every block has the same size (an MPI_Alltoall). Throws InputError naming the spec.
struct BlockShape {
  std::int64_t mean_bytes = 0;
  bool uniform = false;
};
BlockShape block_shape(const std::string& workload_spec, int ranks);

// The table's text; `sources` names the sweep files in its header. Throws InputError when the
// workload's mean block does not grow with S (the table could not tell the cells apart).
std::string tuning_table_text(const TuningMap& map, const std::string& sources);

}  // namespace a2a::tune
