// `a2a tune`: from `a2a sweep` results, the best configuration per (P, S) cell as a map on the
// terminal and in SVG, and the files that put it to use: a2a's tuning table, Open MPI coll/tuned
// dynamic rules and an MPICH collective-selection JSON subtree (docs/tuning.md).
#pragma once

#include <string>
#include <vector>

#include "sim/tune/tuning_map.hpp"

namespace a2a::tune {

struct TuneOptions {
  std::vector<std::string> sweeps;  // CSV or JSON files of `a2a sweep`
  GroupFilter filter;
  std::string svg, area_svg, table, ompi, mpich;  // outputs; empty: not written
};

// Prints the maps and writes the requested files, each through a temporary name. Every file's
// contents are made before the first is written, so bad input writes nothing. Returns the exit
// code; throws a2a::Error for bad input and files that cannot be written.
int run_tune(const TuneOptions& options);

}  // namespace a2a::tune
