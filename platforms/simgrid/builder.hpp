// Builds a PlatformSpec into the running SimGrid engine through its C++ API.
#pragma once

#include <simgrid/s4u.hpp>

#include <vector>

#include "platforms/placement.hpp"
#include "platforms/platform.hpp"

namespace a2a {

struct BuiltPlatform {
  // hosts[n] is the host of job node n; rank r runs on hosts[r / ranks_per_node]. A message
  // between two ranks of one node is routed over that host's loopback link (intra-node
  // latency/bandwidth).
  std::vector<simgrid::s4u::Host*> hosts;
  // Every host built, by machine node number, and the machine node of each job node (placement).
  std::vector<simgrid::s4u::Host*> machine_hosts;
  std::vector<int> machine_node;
};

// Must be called once, after the engine is created and configured (network/model:CM02 and
// network/crosstraffic:0 give the semantics docs/platforms.md describes) and before actors start.
// Hosts are named "node-N" and compute 1 Gflop/s (backends charge CPU time with sleeps). Builds
// only the nodes the run needs (ceil(ranks / ranks_per_node)) when the topology allows it and the
// placement is contiguous; otherwise the whole shape. `placement` (platforms/placement.hpp)
// chooses the machine nodes the job's nodes run on.
BuiltPlatform build_platform(simgrid::s4u::Engine& engine, const PlatformSpec& spec,
                             std::int64_t ranks, Placement placement = Placement::contiguous);

}  // namespace a2a
