// `a2a-mpi sweep` (docs/sweeps.md, "On a cluster"): a sweep spread over an MPI job. Rank r runs
// `a2a sweep SWEEP --out FILE --shard r/N` as a child process (the simulator cannot live in an MPI
// program: libsimgrid exports MPI_* symbols), then the shards' rows are gathered to rank 0, which
// merges them into FILE with `a2a sweep --merge`. Shard files stay until that merge, so an
// interrupted job's rows are reused by the rerun.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace a2a::mpi {

struct SweepLaunchOptions {
  std::string sweep;       // the sweep file
  std::string out;         // FILE.csv or FILE.json
  std::string jobs;        // worker processes per rank; empty: the rank's share of its node's cores
  std::string max_memory;  // passed to `a2a sweep --max-memory`
  std::string a2a;         // the a2a program; empty: the one next to a2a-mpi
};

// Registers the `sweep` subcommand on `app`, filling `options`.
CLI::App* add_sweep_command(CLI::App& app, SweepLaunchOptions& options);

// Runs under MPI (initialized). Returns the exit code, the same on every rank.
int run_sweep(const SweepLaunchOptions& options);

}  // namespace a2a::mpi
