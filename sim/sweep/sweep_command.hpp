// `a2a sweep` (docs/sweeps.md): simulates a grid of configurations in parallel worker processes,
// appending each finished row to the output at once so that a rerun computes only what is missing;
// --shard K/N computes one share of the grid (job arrays, `a2a-mpi sweep`) and --merge gathers the
// shards' rows into the output.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace a2a::sim {

struct SweepOptions {
  std::string sweep;       // the sweep file
  std::string out;         // FILE.csv or FILE.json
  std::string jobs;        // worker processes; empty: one per core
  std::string shard;       // "K/N": compute share K of N; empty: everything
  std::string max_memory;  // the memory guard's bound (as `a2a run --max-memory`)
  bool merge = false;      // only gather shard files into the output
  bool dry_run = false;    // list the rows that would be computed
  bool verbose = false;
};

// Registers the `sweep` subcommand on `app`, filling `options`.
CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options);

// Runs it. Exit code: 0; 1 when a configuration failed (its row is not written, so a rerun
// retries it) or a payload check failed; 128 + signal when interrupted. Bad input throws
// InputError.
int run_sweep(const SweepOptions& options);

}  // namespace a2a::sim
