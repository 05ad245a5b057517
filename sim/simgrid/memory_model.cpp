#include "sim/simgrid/memory_model.hpp"

#include <algorithm>

#include "algorithms/text_table.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::sim {

namespace {

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;

// Measured on this project's 2-core, 24 GiB machines (docs/reliability.md, "Memory guard").
constexpr std::int64_t kBase = 36 * MiB;      // SimGrid engine, a2a, libraries: P = 2
constexpr std::int64_t kPerRank = 16 * KiB;   // actor, its touched stack, records
constexpr std::int64_t kPerRankSquared = 4;   // bytes x P^2: per-rank state that grows with P
constexpr std::int64_t kPerMessage = 1741;    // a posted message in flight (both sides): 1.7 KiB
constexpr std::int64_t kPerMailbox = 320;     // a mailbox of a (sender, receiver, kind), kept
constexpr std::int64_t kPerLink = 1536;       // one SimGrid link or split-duplex cable
constexpr std::int64_t kPerRouter = 1 * KiB;  // a router netpoint (torus/fat-tree shapes)
constexpr std::int64_t kPerHost = 2 * KiB;    // a host of a node that runs ranks
constexpr int kPayloadCopies = 5;  // send, receive, expected, temporaries, messages in transit
constexpr int kSampledRows = 256;  // payload bytes: rows of the P x P matrix summed, scaled up

bool has(const Configuration& config, const char* name) {
  return config.params.values().count(name) > 0;
}

}  // namespace

// Links and routers SimGrid creates for the platform, and hosts for the nodes the run uses
// (platforms/simgrid/builder.cpp).
std::int64_t simgrid_platform_bytes(const PlatformSpec& spec, std::int64_t nodes_used) {
  std::int64_t links = 2 * nodes_used;  // NIC cable and loopback of each used node
  std::int64_t routers = 0;
  switch (spec.topology) {
    case Topology::single_node:
    case Topology::star:
      break;
    case Topology::torus:  // the whole shape: a router and a cable per dimension per node
      routers = spec.node_count();
      links += std::int64_t{spec.node_count()} * static_cast<std::int64_t>(spec.torus_dims.size());
      break;
    case Topology::fat_tree:  // the whole shape: about a switch and a cable per level per leaf
      routers = spec.node_count();
      links += std::int64_t{spec.node_count()} * spec.fat_tree_levels;
      break;
    case Topology::dragonfly: {  // only the groups the used nodes occupy
      const std::int64_t per_group =
          std::int64_t{spec.dragonfly_routers_per_group} * spec.dragonfly_nodes_per_router;
      const std::int64_t groups =
          std::min<std::int64_t>(spec.dragonfly_groups, (nodes_used + per_group - 1) / per_group);
      const std::int64_t routers_per_group = spec.dragonfly_routers_per_group;
      links += groups * routers_per_group * (routers_per_group - 1) / 2;
      links += groups * routers_per_group * spec.dragonfly_global_links_per_router / 2;
      break;
    }
  }
  return links * kPerLink + routers * kPerRouter + nodes_used * kPerHost;
}

std::string guarded_label(const Configuration& config, int ranks, int ranks_per_node,
                          const std::string& vendor) {
  if (config.algorithm->family != Family::vendor) return config.label();
  return vendor_label(vendor, ranks, ranks_per_node);
}

namespace {

// Bytes of every block, from a sample of the P x P matrix's rows (all of them up to 256).
std::int64_t payload_bytes(const Workload& workload) {
  const int P = workload.ranks();
  const int rows = std::min(P, kSampledRows);
  long double sum = 0;
  for (int i = 0; i < rows; ++i) {
    const int src = static_cast<int>(static_cast<std::int64_t>(i) * P / rows);
    for (int dst = 0; dst < P; ++dst)
      sum += static_cast<long double>(workload.count(src, dst));
  }
  return static_cast<std::int64_t>(sum * P / rows * workload.element_bytes());
}

}  // namespace

std::int64_t messages_in_flight(const Configuration& config, int ranks, int ranks_per_node,
                                const std::string& vendor) {
  const AlgorithmInfo& info = *config.algorithm;
  if (info.family == Family::vendor) {
    return messages_in_flight(vendor_choice(vendor, ranks, ranks_per_node), ranks, ranks_per_node,
                              vendor);
  }
  std::int64_t most = 1;
  // Only the Bruck rounds (bruck_rounds.hpp) post every digit value of a round at once; the
  // two-phase radix exchange (parlogna, ParLinNa's intra-node phase) sends one message per round.
  const bool two_phase_rounds = info.name == "parlogna" || info.family == Family::hierarchical;
  if (has(config, "radix") && !two_phase_rounds) {
    most = std::max(most, config.params.get("radix") - 1);
  }
  if (has(config, "batch")) most = std::max(most, config.params.get("batch"));
  const bool pairwise = info.name.find("pairwise") != std::string::npos;
  if (info.family == Family::linear && !has(config, "batch") && !pairwise) most = ranks - 1;
  if (info.name == "padded_alltoall") most = 32;  // linear_vendor_alltoall's throttle
  return std::clamp<std::int64_t>(most, 1, std::max(1, ranks - 1));
}

std::int64_t distinct_peers(const Configuration& config, int ranks, int ranks_per_node,
                            const std::string& vendor) {
  const AlgorithmInfo& info = *config.algorithm;
  if (info.family == Family::vendor) {
    return distinct_peers(vendor_choice(vendor, ranks, ranks_per_node), ranks, ranks_per_node,
                          vendor);
  }
  const auto rounds = [](std::int64_t radix, std::int64_t n) {  // ceil(log_radix n)
    std::int64_t count = 0;
    for (std::int64_t reach = 1; reach < n; reach *= radix)
      ++count;
    return count;
  };
  const std::int64_t radix = has(config, "radix") ? config.params.get("radix") : 2;
  std::int64_t peers = (radix - 1) * rounds(radix, ranks);
  if (has(config, "ranks_per_node")) {  // hierarchical: radix rounds in a node, then every node
    const std::int64_t q = std::max<std::int64_t>(1, config.params.get("ranks_per_node"));
    peers = (radix - 1) * rounds(radix, q) + ranks / q - 1;
  }
  if (info.family == Family::linear || info.name == "padded_alltoall") peers = ranks - 1;
  return std::clamp<std::int64_t>(peers, 0, std::max(0, ranks - 1));
}

MemoryEstimate estimate_simgrid_memory(const RunShape& run) {
  // In double: P^2 and P x (P − 1) messages overflow 64 bits near P = 2^31.
  const double P = run.ranks;
  const int rpn = run.platform.ranks_per_node;
  const std::int64_t nodes = (std::int64_t{run.ranks} + rpn - 1) / rpn;
  // Messages in flight: the largest configuration's. Mailboxes, one per (sender, receiver, kind),
  // are kept for the whole process: configurations that talk to other peers add theirs, up to
  // P − 1 per kind (data, and metadata for the two-phase families).
  std::int64_t in_flight = 1;
  std::string busiest;  // the configuration with the most messages in flight
  double data_peers = 0, meta_peers = 0;
  for (const Planned& item : run.planned) {
    const std::string& vendor = run.options.vendor;
    const std::int64_t posted = messages_in_flight(item.config, run.ranks, rpn, vendor);
    if (busiest.empty() || posted > in_flight) {
      in_flight = std::max(in_flight, posted);
      busiest = guarded_label(item.config, run.ranks, rpn, vendor);
    }
    const double peers = static_cast<double>(distinct_peers(item.config, run.ranks, rpn, vendor));
    const Family family = item.config.algorithm->family;
    data_peers += peers;
    if (family == Family::logarithmic || family == Family::hierarchical) meta_peers += peers;
  }
  const double mailboxes = std::min(data_peers, P - 1) + std::min(meta_peers, P - 1);
  const double ranks = P * kPerRank + P * P * kPerRankSquared;
  const double messages =
      P * (static_cast<double>(in_flight) * kPerMessage + std::max(0.0, mailboxes) * kPerMailbox);
  const double platform = static_cast<double>(simgrid_platform_bytes(run.platform, nodes));
  const double payload =
      run.options.payload ? kPayloadCopies * static_cast<double>(payload_bytes(run.workload)) : 0;
  const double total = kBase + ranks + messages + platform + payload;
  auto bytes = [](double value) {
    return value >= 9e18 ? std::int64_t{9'000'000'000'000'000'000}
                         : static_cast<std::int64_t>(value);
  };
  MemoryEstimate estimate;
  estimate.bytes = bytes(total);
  estimate.what = std::to_string(run.ranks) + " ranks " + human_bytes(bytes(ranks)) +
                  ", messages (" + std::to_string(in_flight) + " in flight per rank, " + busiest +
                  ") " + human_bytes(bytes(messages)) + ", platform " +
                  human_bytes(bytes(platform)) +
                  (run.options.payload ? ", payload " + human_bytes(bytes(payload)) : "");
  return estimate;
}

}  // namespace a2a::sim
