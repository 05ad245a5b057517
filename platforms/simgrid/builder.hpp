// Builds a PlatformSpec into the running SimGrid engine through its C++ API.
#pragma once

#include <simgrid/s4u.hpp>

#include <optional>
#include <vector>

#include "platforms/placement.hpp"
#include "platforms/platform.hpp"

namespace a2a {

// Where a torus node's injection link (its NIC, a split-duplex link) is built. `in_platform`:
// each node is a zone of its own holding its host and NIC, as the SimGrid engine needs to charge
// it. `by_caller`: the host is the torus leaf itself and routes between nodes cross no injection
// link; the caller (the scale engine's route table) adds the NIC's sending half at the source and
// its receiving half at the destination. SimGrid 3.32 checks each new link's name against every
// zone of the platform, so a zone per node made the build grow as nodes x links (about 128 s of a
// P = 1,048,576 run on fugaku_full). Other topologies build their nodes one way only.
enum class NodeLinks { in_platform, by_caller };

struct BuiltPlatform {
  // hosts[n] is the host of job node n; rank r runs on hosts[r / ranks_per_node]. A message
  // between two ranks of one node is routed over that host's loopback link (intra-node
  // latency/bandwidth).
  std::vector<simgrid::s4u::Host*> hosts;
  // Every host built, by machine node number, and the machine node of each job node (placement).
  std::vector<simgrid::s4u::Host*> machine_hosts;
  std::vector<int> machine_node;
  // Set when the torus was built with NodeLinks::by_caller: the injection link every route
  // between two nodes must add at both ends.
  std::optional<LinkSpec> injection_by_caller;
};

// Must be called once, after the engine is created and configured (network/model:CM02 and
// network/crosstraffic:0 give the semantics docs/platforms.md describes) and before actors start.
// Hosts are named "node-N" and compute 1 Gflop/s (backends charge CPU time with sleeps). Builds
// only the nodes the run needs (ceil(ranks / ranks_per_node)) when the topology allows it and the
// placement is contiguous; otherwise the whole shape. `placement` (platforms/placement.hpp)
// chooses the machine nodes the job's nodes run on.
BuiltPlatform build_platform(simgrid::s4u::Engine& engine, const PlatformSpec& spec,
                             std::int64_t ranks, Placement placement = Placement::contiguous,
                             NodeLinks node_links = NodeLinks::in_platform);

}  // namespace a2a
