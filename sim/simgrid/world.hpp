// State shared by all simulated ranks of one SimGrid run: the platform, the workload, the
// mailboxes, and every rank's record of what it did and when.
#pragma once

#include <simgrid/s4u.hpp>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "algorithms/registry.hpp"
#include "algorithms/stats.hpp"
#include "platforms/platform.hpp"
#include "platforms/simgrid/builder.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

// A span of simulated time on one rank, for traces.
struct Span {
  const char* label;
  double start;
  double end;
};

// What one rank did during one run.
struct RankRecord {
  RunStats stats;
  double start = 0;  // simulated seconds
  double end = 0;
  bool finished = false;
  std::map<std::string, double> phase_seconds;  // by Comm::set_phase label
  double wait_seconds = 0;                      // blocked in wait / wait_all
  double copy_seconds = 0;                      // local copies at memory bandwidth
  std::int64_t intra_node_bytes = 0;            // data bytes sent to ranks on the same node
  std::int64_t inter_node_bytes = 0;
  std::string waiting_for;  // what the rank is blocked on right now (deadlock reports)
  std::vector<Span> spans;  // phase spans, when tracing this rank
};

// Payload mode: real buffers per rank, checked byte for byte afterwards like `a2a-mpi verify`.
struct RankPayload {
  ExchangeLayout layout;
  ExchangeBuffers buffers;
};

struct World {
  const PlatformSpec* platform = nullptr;
  const BuiltPlatform* built = nullptr;
  const Workload* workload = nullptr;
  int ranks = 1;
  bool payload = false;
  int trace_ranks = 0;  // record spans for ranks below this
  // What `vendor` runs in simulation (a named MPI's default choice); never "vendor" itself.
  std::optional<Configuration> vendor_alltoallv;
  std::vector<RankRecord> records;
  std::vector<RankPayload> payloads;  // payload mode only
  std::string first_error;            // first rank's error message, if any

  simgrid::s4u::Host* host_of(int rank) const {
    return built->hosts[static_cast<size_t>(rank / platform->ranks_per_node)];
  }
  bool same_node(int a, int b) const {
    return a / platform->ranks_per_node == b / platform->ranks_per_node;
  }
  // The mailbox carrying messages of one kind from src to dst (created on first use and cached,
  // so a message costs a hash lookup, not a string).
  simgrid::s4u::Mailbox* mailbox(int src, int dst, int kind);

 private:
  std::unordered_map<std::uint64_t, simgrid::s4u::Mailbox*> mailboxes_;
};

}  // namespace a2a::sim
