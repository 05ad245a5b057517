// Sweep files (`a2a sweep`, docs/sweeps.md): a scenario whose grid keys — platform, engine, ranks,
// ranks_per_node, workload, block_bytes and vendor — may be lists (`vendor` may also map each
// platform to its own MPI). The grid is every combination of their
// values; each point is read by the scenario loader (sim/scenario.hpp), so a sweep accepts exactly
// what a scenario accepts, with the same FILE:LINE errors.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/scenario.hpp"

namespace a2a::sim {

struct GridPoint {
  Scenario scenario;        // one value per grid key; the workload with {S} filled in
  std::string block_bytes;  // S as text; empty when the sweep has no block_bytes
  // Grid key -> "FILE:LINE" of this point's value (or of the key when it has none), for errors.
  std::map<std::string, std::string> where;
};

// The grid keys, outermost first: the order in which points (and so output rows) vary.
const std::vector<std::string>& grid_keys();

// Reads a sweep file into its grid points. Throws InputError naming FILE:LINE and the key.
std::vector<GridPoint> load_sweep(const std::string& path);
// The same from YAML text; `origin` names it in errors.
std::vector<GridPoint> parse_sweep(const std::string& text, const std::string& origin);

}  // namespace a2a::sim
