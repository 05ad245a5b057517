// What both simulation engines share: their options, the outcome of one configuration, and the
// interface `a2a run` drives. The SimGrid engine (sim/simgrid/) runs every rank as a SimGrid actor
// on SimGrid's max-min network model; the scale engine (sim/scale/) runs the same algorithm code
// as light fibers on its own batched flow model, for 10^5 ranks (docs/simulation.md).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/stats.hpp"
#include "platforms/platform.hpp"
#include "sim/rank_record.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

struct SimOptions {
  bool payload = false;            // carry real bytes and check them (small P; SimGrid engine)
  int trace_ranks = 0;             // record phase spans of the first N ranks
  std::string vendor = "openmpi";  // what `vendor` models
  std::string network_model = "CM02";
  bool crosstraffic = false;
  // Scale engine only (docs/simulation.md, "The scale engine").
  double tolerance = 0.05;   // re-solve rates once this fraction of the flows changed (0: exact)
  int threads = 0;           // threads running rank code (0: one per core)
  int stack_kib = 64;        // stack of each rank's fiber
  bool check_sizes = false;  // also enumerate receives and check they match the sends
  // The platform's MPI and node costs (nic_message_time, match_time, eager_threshold,
  // node_memory_bandwidth): false leaves them out, giving the model both engines share.
  bool full_model = true;
  // Which machine nodes the job runs on (platforms/placement.hpp): contiguous, spread, random.
  std::string placement = "contiguous";
};

// The outcome of one configuration.
struct SimResult {
  std::string label;
  double predicted = 0;                      // completion time of the slowest rank, seconds
  double fastest = 0;                        // completion time of the fastest rank
  double median = 0;                         // median rank completion time
  std::map<std::string, double> phase_mean;  // seconds per phase label, mean over ranks
  double wait_mean = 0;                      // seconds blocked in waits, mean over ranks
  double copy_mean = 0;                      // seconds of local copies, mean over ranks
  RunStats max_per_rank;                     // element-wise maximum over ranks
  // The most memory one rank works in: the caller's send and receive blocks (counted once, the
  // larger, for an in-place algorithm) plus its temporaries at their peak; the maximum over ranks.
  // Empty when the blocks' bytes are not summed (buffer_bytes).
  std::optional<std::int64_t> working_bytes;
  RunStats total;  // sums over ranks
  std::int64_t intra_node_bytes = 0;
  std::int64_t inter_node_bytes = 0;
  double wall_seconds = 0;               // the simulator's own time
  std::string check = "-";               // payload mode: "pass" or what was wrong
  std::vector<std::vector<Span>> spans;  // per traced rank
  std::int64_t solves = 0;               // scale engine: rate computations
  std::int64_t partial_solves = 0;       // of them, those of only the routes a change reached
};

class Simulation {
 public:
  virtual ~Simulation() = default;
  // Runs one configuration on a workload of workload.ranks() <= the built ranks to completion. A
  // deadlock, a message nobody receives or an algorithm breaking the comm contract throws
  // a2a::Error naming the configuration and the ranks.
  virtual SimResult run(const Configuration& config, const Workload& workload,
                        LayoutStyle layout = LayoutStyle::gaps) = 0;
};

// The engines `a2a run` knows, for errors and docs.
const std::vector<std::string>& engine_names();

// Builds the platform for up to `ranks` ranks for `engine` ("simgrid" or "scale"). Throws
// InvalidParameter for an unknown engine or ranks that do not fit.
std::unique_ptr<Simulation> make_simulation(const std::string& engine, const PlatformSpec& platform,
                                            int ranks, const SimOptions& options);

// Turns every rank's record into a result (ranks' end times are relative to `t0`); `config` ran
// on `workload` (for the working memory).
SimResult summarize(const std::string& label, const std::vector<RankRecord>& records, double t0,
                    int trace_ranks, const Configuration& config, const Workload& workload);

// Every rank's bytes of send blocks and of receive blocks (not a layout's gaps between them), for
// working memory.
struct BufferBytes {
  std::vector<std::int64_t> send, receive;  // per rank; both empty when not summed
  // Of `rank`: the sum, or the larger for an in-place algorithm, which holds both in one array.
  std::int64_t of(int rank, bool in_place) const;
};
// The workload's BufferBytes: O(P) for a balanced workload (every rank sends and receives rank 0's
// row total), else P² block sizes summed as one run per row and per column, once per workload spec
// and P in a process (the last one is kept: a run, or a sweep worker's point, simulates every
// configuration on one workload) — and not at all above kMaxSummedRanks: the cost grows as P² (at
// 16,384 ranks of uniform:max=1024, a scale-engine run took 2.85 s with run sums, 3.5 s without).
constexpr int kMaxSummedRanks = 16384;
BufferBytes buffer_bytes(const Workload& workload);

// "4 of 256 ranks never finished: rank 3 in receive from 2; ..."
std::string unfinished_ranks(const std::vector<RankRecord>& records);

}  // namespace a2a::sim
