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
#include "sim/rank_record.hpp"
#include "workloads/layout.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

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
