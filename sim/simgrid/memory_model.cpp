#include "sim/simgrid/memory_model.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

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
    case Topology::torus: {  // the block the nodes occupy: a router, a cable per dimension each
      const std::vector<int> block = torus_block_dims(spec.torus_dims, nodes_used);
      routers = std::accumulate(block.begin(), block.end(), std::int64_t{1}, std::multiplies<>());
      links += routers * static_cast<std::int64_t>(block.size());
      break;
    }
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
      links += groups * routers_per_group * (routers_per_group - 1) / 2 *
               spec.dragonfly_local_links_per_router_pair;
      links += groups * routers_per_group * spec.dragonfly_global_links_per_router / 2;
      break;
    }
  }
  return links * kPerLink + routers * kPerRouter + nodes_used * kPerHost;
}

std::int64_t nodes_built(const PlatformSpec& spec, std::int64_t ranks,
                         const std::string& placement) {
  if (placement != "contiguous") return spec.node_count();
  return (ranks + spec.ranks_per_node - 1) / spec.ranks_per_node;
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

MessageFootprint message_footprint(const Configuration& config, int ranks, int ranks_per_node,
                                   const std::string& vendor) {
  const AlgorithmInfo& info = *config.algorithm;
  if (info.family == Family::vendor) {
    return message_footprint(vendor_choice(vendor, ranks, ranks_per_node), ranks, ranks_per_node,
                             vendor);
  }
  const std::int64_t others = std::max(0, ranks - 1);
  MessageFootprint out{.in_flight = others, .data_peers = others, .metadata_peers = others};
  if (info.footprint) {
    const ExchangeShape shape{.ranks = ranks, .ranks_per_node = ranks_per_node};
    out = info.footprint(shape, config.params);
  }
  if (out.vendor_alltoall) {  // the engine's own exchange (linear_vendor_alltoall)
    out.in_flight = std::max<std::int64_t>(out.in_flight, kVendorAlltoallThrottle);
    out.data_peers = others;
  }
  out.in_flight = std::clamp<std::int64_t>(out.in_flight, 1, std::max<std::int64_t>(1, others));
  out.data_peers = std::clamp<std::int64_t>(out.data_peers, 0, others);
  out.metadata_peers = std::clamp<std::int64_t>(out.metadata_peers, 0, others);
  return out;
}

std::int64_t messages_in_flight(const Configuration& config, int ranks, int ranks_per_node,
                                const std::string& vendor) {
  return message_footprint(config, ranks, ranks_per_node, vendor).in_flight;
}

std::int64_t distinct_peers(const Configuration& config, int ranks, int ranks_per_node,
                            const std::string& vendor) {
  return message_footprint(config, ranks, ranks_per_node, vendor).data_peers;
}

RankHeap rank_heap(const std::vector<Planned>& planned, int ranks, int ranks_per_node,
                   const std::string& vendor) {
  RankHeap heap;
  std::string label;
  for (const Planned& item : planned) {
    const std::int64_t bytes =
        message_footprint(item.config, ranks, ranks_per_node, vendor).rank_heap_bytes;
    if (bytes > heap.bytes) {
      heap.bytes = bytes;
      label = guarded_label(item.config, ranks, ranks_per_node, vendor);
    }
  }
  if (heap.bytes > 0) {
    heap.what = " + " + std::to_string(ranks) + " ranks x " + human_bytes(heap.bytes) +
                " of bookkeeping (" + label + ")";
  }
  return heap;
}

std::string undeclared_footprints(const std::vector<Planned>& planned) {
  std::string names;
  for (const Planned& item : planned) {
    const AlgorithmInfo& info = *item.config.algorithm;
    if (info.family == Family::vendor || info.footprint) continue;
    if (names.find(info.name) != std::string::npos) continue;
    names += (names.empty() ? "" : ", ") + info.name;
  }
  if (names.empty()) return "";
  return "; no message footprint declared by " + names + ": P - 1 messages and peers assumed";
}

MemoryEstimate estimate_simgrid_memory(const RunShape& run) {
  // In double: P^2 and P x (P − 1) messages overflow 64 bits near P = 2^31.
  const double P = run.ranks;
  const int rpn = run.platform.ranks_per_node;
  // Placement other than contiguous builds the whole machine (platforms/simgrid/builder.hpp).
  const std::int64_t nodes = nodes_built(run.platform, run.ranks, run.options.placement);
  // Messages in flight: the largest configuration's. Mailboxes, one per (sender, receiver, kind),
  // are kept for the whole process: configurations that talk to other peers add theirs, up to
  // P − 1 per kind (data, and metadata: sizes and values).
  std::int64_t in_flight = 1;
  std::string busiest;  // the configuration with the most messages in flight
  double data_peers = 0, meta_peers = 0;
  for (const Planned& item : run.planned) {
    const std::string& vendor = run.options.vendor;
    const MessageFootprint footprint = message_footprint(item.config, run.ranks, rpn, vendor);
    if (busiest.empty() || footprint.in_flight > in_flight) {
      in_flight = std::max(in_flight, footprint.in_flight);
      busiest = guarded_label(item.config, run.ranks, rpn, vendor);
    }
    data_peers += static_cast<double>(footprint.data_peers);
    meta_peers += static_cast<double>(footprint.metadata_peers);
  }
  const double mailboxes = std::min(data_peers, P - 1) + std::min(meta_peers, P - 1);
  const RankHeap heap = rank_heap(run.planned, run.ranks, rpn, run.options.vendor);
  const double ranks = P * kPerRank + P * P * kPerRankSquared;
  const double bookkeeping = P * static_cast<double>(heap.bytes);
  const double messages =
      P * (static_cast<double>(in_flight) * kPerMessage + std::max(0.0, mailboxes) * kPerMailbox);
  const double platform = static_cast<double>(simgrid_platform_bytes(run.platform, nodes));
  const double payload =
      run.options.payload ? kPayloadCopies * static_cast<double>(payload_bytes(run.workload)) : 0;
  const double total = kBase + ranks + bookkeeping + messages + platform + payload;
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
                  (run.options.payload ? ", payload " + human_bytes(bytes(payload)) : "") +
                  heap.what + undeclared_footprints(run.planned);
  return estimate;
}

}  // namespace a2a::sim
