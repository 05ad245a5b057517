// `a2a viz`: records one catalog configuration on the recording backend (sim/recorder/) and writes
// the self-contained step viewer page (docs/viewer.md).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace a2a::sim::viz {

// The viewer draws every rank's buffers and a P x P matrix: beyond 64 ranks neither is readable.
inline constexpr int kMaxViewerRanks = 64;

struct VizOptions {
  std::string algorithm;            // "parlogna" or "parlogna:radix=3"
  std::vector<std::string> params;  // key=value, added to the spec
  int ranks = 0;
  std::string workload = "constant:size=64";
  std::string output;
  std::string platform = "tiny";
  int ranks_per_node = 0;  // 0: the platform's
  std::string layout = "packed";
  std::string vendor = "openmpi";
};

CLI::App* add_viz_subcommand(CLI::App& app, VizOptions& options);

// Records and writes the page; throws a2a::Error types for bad input (one line each).
int run_viz(const VizOptions& options);

}  // namespace a2a::sim::viz
