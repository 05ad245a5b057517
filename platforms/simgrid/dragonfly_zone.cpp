// SimGrid netzone of a faithful minimal-routing dragonfly (platforms/simgrid/dragonfly_zone.hpp).
#include "platforms/simgrid/dragonfly_zone.hpp"

#include <simgrid/kernel/routing/NetPoint.hpp>

#include <algorithm>
#include <stdexcept>

namespace a2a {

namespace sg4 = simgrid::s4u;
using simgrid::kernel::routing::NetPoint;

DragonflyZone::DragonflyZone(const std::string& name, const PlatformSpec& spec)
    : NetZoneImpl(name),
      layout_(spec),
      node_latency_(spec.injection.latency),
      local_latency_(spec.link.latency),
      global_latency_(spec.global_link.latency),
      loopback_latency_(spec.intra_node.latency) {}

DragonflyZone* DragonflyZone::create(const std::string& name, sg4::NetZone* parent,
                                     const PlatformSpec& spec, int nodes_built, double host_speed) {
  // The first zone constructed becomes the engine's root, so `parent` was read before this.
  auto* zone = new DragonflyZone(name, spec);
  if (parent) zone->set_parent(parent->get_impl());
  zone->build(spec, nodes_built, host_speed);
  zone->get_iface()->seal();
  return zone;
}

DragonflyZone::Duplex DragonflyZone::make_duplex(const std::string& name, const LinkSpec& link) {
  sg4::SplitDuplexLink* duplex = get_iface()->create_split_duplex_link(name, link.bandwidth);
  duplex->set_latency(link.latency);
  return {duplex->get_link_up()->get_impl(), duplex->get_link_down()->get_impl()};
}

void DragonflyZone::build(const PlatformSpec& spec, int nodes_built, double host_speed) {
  const std::string prefix = get_name() + "-";
  for (int n = 0; n < nodes_built; ++n) {
    const std::string id = std::to_string(n);
    sg4::Host* host = get_iface()->create_host("node-" + id, host_speed);
    const unsigned long netpoint = host->get_netpoint()->id();
    if (node_of_netpoint_.size() <= netpoint) node_of_netpoint_.resize(netpoint + 1, -1);
    node_of_netpoint_[netpoint] = n;
    hosts_.push_back(host);
    node_links_.push_back(make_duplex(prefix + "nic-" + id, spec.injection));
    // Shared memory: each message gets the full intra-node bandwidth (fatpipe, not shared).
    sg4::Link* loopback = get_iface()->create_link(prefix + "shm-" + id, spec.intra_node.bandwidth);
    loopback->set_latency(spec.intra_node.latency);
    loopback->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    loopbacks_.push_back(loopback->get_impl());
  }

  // Links inside and between the groups that hold the built nodes; routes never leave them.
  const int groups_used = nodes_built == 0 ? 0 : layout_.group_of(nodes_built - 1) + 1;
  const int routers = layout_.routers();
  local_links_.resize(static_cast<size_t>(layout_.local_link_count()));
  for (int g = 0; g < groups_used; ++g)
    for (int i = 0; i < routers; ++i)
      for (int j = i + 1; j < routers; ++j)
        for (int c = 0; c < layout_.local_copies(); ++c)
          local_links_[layout_.local_link(g, i, j, c)] =
              make_duplex(prefix + "l-" + std::to_string(g) + "-" + std::to_string(i) + "-" +
                              std::to_string(j) + "-" + std::to_string(c),
                          spec.link);
  global_links_.resize(static_cast<size_t>(layout_.global_link_count()));
  for (int a = 0; a < groups_used; ++a)
    for (int b = a + 1; b < groups_used; ++b)
      for (int c = 0; c < layout_.links_at_offset(b - a); ++c)
        global_links_[layout_.global_link(a, b, c)] = make_duplex(
            prefix + "g-" + std::to_string(a) + "-" + std::to_string(b) + "-" + std::to_string(c),
            spec.global_link);
}

void DragonflyZone::get_local_route(const NetPoint* src, const NetPoint* dst,
                                    simgrid::kernel::routing::Route* into, double* latency) {
  const auto node_of = [this](const NetPoint* point) {
    const unsigned long id = point->id();
    if (id >= node_of_netpoint_.size() || node_of_netpoint_[id] < 0)
      throw std::logic_error("dragonfly zone " + get_name() + ": no route to " + point->get_name() +
                             " (not a node of this zone)");
    return node_of_netpoint_[id];
  };
  const long s = node_of(src), t = node_of(dst);
  double total = 0;
  if (s == t) {
    into->link_list_.push_back(loopbacks_[s]);
    total = loopback_latency_;
  } else {
    DragonflyLayout::Hop hops[5];
    const int count = layout_.route(s, t, hops);
    for (int h = 0; h < count; ++h) {
      const DragonflyLayout::Hop& hop = hops[h];
      const Duplex* link = nullptr;
      switch (hop.kind) {
        case DragonflyLayout::Hop::Kind::node:
          link = &node_links_[hop.link];
          total += node_latency_;
          break;
        case DragonflyLayout::Hop::Kind::local:
          link = &local_links_[hop.link];
          total += local_latency_;
          break;
        case DragonflyLayout::Hop::Kind::global:
          link = &global_links_[hop.link];
          total += global_latency_;
          break;
      }
      into->link_list_.push_back(hop.forward ? link->forward : link->backward);
    }
  }
  if (latency) *latency += total;
}

}  // namespace a2a
