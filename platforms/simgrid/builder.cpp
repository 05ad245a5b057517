// Builds a PlatformSpec into SimGrid through its C++ API (platforms/simgrid/builder.hpp).
//
// Assumed engine configuration (the caller's, set before this runs): network/model:CM02 (latency
// and bandwidth factors 1, so a lone transfer of S bytes takes the sum of the route's latencies
// plus S / the smallest bandwidth on the route) and network/crosstraffic:0 (no 5 % reverse flow
// on the back route). Under CM02, flows sharing a link get shares inversely proportional to their
// route latency (SimGrid's RTT-unfairness); network/TCP-gamma (default 4 MiB) caps a flow at
// gamma / (2 x route latency), over 10^11 B/s at these latencies, so it never binds.
//
// Every node is one host. A message between two ranks of one host crosses only that host's
// loopback link (intra_node bandwidth and latency, fatpipe: each message gets the full bandwidth,
// memory-bandwidth contention between the ranks of a node is not modelled).
//
//   single_node  one host in a star zone, loopback only.
//   star         a star zone: one split-duplex private link per node, no backbone, so contention
//                happens only on a node's own link (up for sending, down for receiving).
//   torus        create_torus_zone (dimension-order routing, shortest way round each ring) whose
//                leaves are star sub-zones "host + router": the node-to-router link is the
//                `injection` link, the torus links join the routers (with NodeLinks::by_caller the
//                leaves are bare hosts and the caller adds the injection link to each route). Only
//                the leading dimensions that hold the nodes are built (torus_block_dims), with
//                every node of their rings.
//   fat_tree     create_fatTree_zone (SimGrid's k-ary n-tree, d-mod-k routing); leaves are hosts
//                with a loopback link.
//   dragonfly    DragonflyZone (platforms/simgrid/dragonfly_zone.hpp).
// Only the nodes the run needs get a host: unneeded torus and fat-tree leaves are plain routers
// (they still forward traffic), unneeded star and dragonfly nodes are not created.
#include "platforms/simgrid/builder.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>

#include "algorithms/errors.hpp"
#include "platforms/simgrid/dragonfly_zone.hpp"

namespace a2a {

namespace {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

constexpr double kHostSpeed = 1e9;  // flop/s; the backends charge CPU time with sleeps, not flops

sg4::Link* make_loopback(sg4::NetZone* zone, const std::string& name, const LinkSpec& intra) {
  sg4::Link* link = zone->create_link(name, intra.bandwidth);
  link->set_latency(intra.latency);
  link->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
  return link->seal();
}

// A host in a star zone with its loopback and, when `link` is given, a private split-duplex link
// towards the rest of the zone.
sg4::Host* add_star_host(sg4::NetZone* zone, const std::string& name, const LinkSpec* link,
                         const LinkSpec& intra) {
  sg4::Host* host = zone->create_host(name, kHostSpeed);
  NetPoint* point = host->get_netpoint();
  sg4::Link* loopback = make_loopback(zone, name + "-shm", intra);
  zone->add_route(point, point, nullptr, nullptr, {sg4::LinkInRoute(loopback)}, false);
  if (link) {
    sg4::SplitDuplexLink* nic = zone->create_split_duplex_link(name + "-nic", link->bandwidth);
    nic->set_latency(link->latency);
    // Symmetrical: the UP half carries what the host sends, the DOWN half what it receives.
    zone->add_route(point, nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(nic, sg4::LinkInRoute::Direction::UP)}, true);
  }
  return host;
}

std::vector<sg4::Host*> build_star(sg4::NetZone* parent, const PlatformSpec& spec, int nodes) {
  sg4::NetZone* zone = sg4::create_star_zone("a2a-" + spec.name);
  if (parent) zone->set_parent(parent);
  std::vector<sg4::Host*> hosts;
  const bool networked = spec.topology == Topology::star;
  for (int n = 0; n < nodes; ++n)
    hosts.push_back(add_star_host(zone, "node-" + std::to_string(n),
                                  networked ? &spec.link : nullptr, spec.intra_node));
  zone->seal();
  return hosts;
}

std::vector<sg4::Host*> build_torus(sg4::NetZone* parent, const PlatformSpec& spec, int nodes,
                                    NodeLinks node_links) {
  std::vector<sg4::Host*> hosts(nodes, nullptr);
  const bool nic_in_platform = node_links == NodeLinks::in_platform;
  // Leaf `id` of the torus: node `id` (a star zone with host, router and injection link, or with
  // NodeLinks::by_caller the bare host) when the run needs it, otherwise a bare router that only
  // forwards.
  auto leaf = [&](sg4::NetZone* torus, const std::vector<unsigned long>&,
                  unsigned long id) -> std::pair<NetPoint*, NetPoint*> {
    const std::string name = "node-" + std::to_string(id);
    if (id >= static_cast<unsigned long>(nodes)) return {torus->create_router(name), nullptr};
    if (!nic_in_platform) {
      hosts[id] = torus->create_host(name, kHostSpeed);
      return {hosts[id]->get_netpoint(), nullptr};
    }
    sg4::NetZone* node = sg4::create_star_zone(name + "-zone");
    node->set_parent(torus);
    NetPoint* router = node->create_router(name + "-router");
    hosts[id] = add_star_host(node, name, &spec.injection, spec.intra_node);
    node->seal();
    return {node->get_netpoint(), router};
  };
  // Only the block of the torus the nodes occupy: on fugaku_full (954,000 link pairs) SimGrid
  // checks each new link's name against every node zone created so far, so building the whole
  // machine around a job of N nodes cost time in proportion to N x the machine's links (375 s at
  // P = 262,144; docs/performance.md). The routes between the nodes are the same.
  const std::vector<int> block = torus_block_dims(spec.torus_dims, nodes);
  std::vector<unsigned long> dims(block.begin(), block.end());
  // A bare host needs its loopback from the torus; SimGrid then requires one for every leaf
  // (routers never use theirs).
  auto loopback = [&](sg4::NetZone* torus, const std::vector<unsigned long>&,
                      unsigned long id) -> sg4::Link* {
    return make_loopback(torus, "node-" + std::to_string(id) + "-shm", spec.intra_node);
  };
  const sg4::ClusterCallbacks callbacks =
      nic_in_platform ? sg4::ClusterCallbacks(leaf) : sg4::ClusterCallbacks(leaf, loopback, {});
  sg4::NetZone* torus =
      sg4::create_torus_zone("a2a-" + spec.name, parent, dims, callbacks, spec.link.bandwidth,
                             spec.link.latency, sg4::Link::SharingPolicy::SPLITDUPLEX);
  torus->seal();
  return hosts;
}

std::vector<sg4::Host*> build_fat_tree(sg4::NetZone* parent, const PlatformSpec& spec, int nodes) {
  std::vector<sg4::Host*> hosts(nodes, nullptr);
  auto leaf = [&](sg4::NetZone* tree, const std::vector<unsigned long>&,
                  unsigned long id) -> std::pair<NetPoint*, NetPoint*> {
    const std::string name = "node-" + std::to_string(id);
    if (id >= static_cast<unsigned long>(nodes)) return {tree->create_router(name), nullptr};
    hosts[id] = tree->create_host(name, kHostSpeed);
    return {hosts[id]->get_netpoint(), nullptr};
  };
  // SimGrid requires a loopback for every leaf once one has it; routers never use theirs.
  auto loopback = [&](sg4::NetZone* tree, const std::vector<unsigned long>&,
                      unsigned long id) -> sg4::Link* {
    return make_loopback(tree, "node-" + std::to_string(id) + "-shm", spec.intra_node);
  };
  auto as_unsigned = [](const std::vector<int>& v) {
    return std::vector<unsigned int>(v.begin(), v.end());
  };
  const sg4::FatTreeParams params(static_cast<unsigned int>(spec.fat_tree_levels),
                                  as_unsigned(spec.fat_tree_down), as_unsigned(spec.fat_tree_up),
                                  as_unsigned(spec.fat_tree_parallel));
  sg4::NetZone* tree = sg4::create_fatTree_zone(
      "a2a-" + spec.name, parent, params, sg4::ClusterCallbacks(leaf, loopback, {}),
      spec.link.bandwidth, spec.link.latency, sg4::Link::SharingPolicy::SPLITDUPLEX);
  tree->seal();
  return hosts;
}

}  // namespace

BuiltPlatform build_platform(sg4::Engine& engine, const PlatformSpec& spec, std::int64_t ranks,
                             Placement placement, NodeLinks node_links) {
  check_fits(spec, ranks);
  const int job_nodes = static_cast<int>((ranks + spec.ranks_per_node - 1) / spec.ranks_per_node);
  const int nodes = placement == Placement::contiguous ? job_nodes : spec.node_count();
  // Read before creating anything: the first zone created becomes the root.
  sg4::NetZone* parent = engine.get_netzone_root();
  BuiltPlatform built;
  switch (spec.topology) {
    case Topology::single_node:
    case Topology::star:
      built.hosts = build_star(parent, spec, nodes);
      break;
    case Topology::torus:
      built.hosts = build_torus(parent, spec, nodes, node_links);
      if (node_links == NodeLinks::by_caller) built.injection_by_caller = spec.injection;
      break;
    case Topology::fat_tree:
      built.hosts = build_fat_tree(parent, spec, nodes);
      break;
    case Topology::dragonfly:
      built.hosts =
          DragonflyZone::create("a2a-" + spec.name, parent, spec, nodes, kHostSpeed)->hosts();
      break;
  }
  built.machine_hosts = built.hosts;
  built.machine_node = place_nodes(placement, job_nodes, static_cast<int>(built.hosts.size()));
  built.hosts.resize(static_cast<size_t>(job_nodes));
  for (int n = 0; n < job_nodes; ++n)
    built.hosts[static_cast<size_t>(n)] =
        built.machine_hosts[static_cast<size_t>(built.machine_node[static_cast<size_t>(n)])];
  return built;
}

}  // namespace a2a
