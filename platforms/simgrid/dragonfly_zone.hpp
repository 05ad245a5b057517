// A SimGrid netzone for the dragonfly of platforms/dragonfly.hpp. SimGrid's own DragonflyZone
// cannot be used: it hangs all global links of a group pair on one router, merges parallel links,
// and crashes when there are more groups than routers per chassis (docs/references.md,
// "SimGrid 3.32").
//
// The zone subclasses NetZoneImpl directly and answers get_local_route() arithmetically from
// DragonflyLayout::route(), so memory is O(links), not O(nodes²) as a Full zone would need.
// Routers are not netpoints: a route is just the list of links it crosses. Only the hosts of the
// nodes a run needs are created; links are created for the groups those nodes occupy.
#pragma once

#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>

#include <vector>

#include "platforms/dragonfly.hpp"
#include "platforms/platform.hpp"

namespace a2a {

class DragonflyZone final : public simgrid::kernel::routing::NetZoneImpl {
 public:
  // Creates the zone under `parent` (nullptr: the zone becomes the engine's root) with hosts
  // "node-N" of `host_speed` flop/s for nodes 0 .. nodes_built − 1, and seals it.
  static DragonflyZone* create(const std::string& name, simgrid::s4u::NetZone* parent,
                               const PlatformSpec& spec, int nodes_built, double host_speed);

  const std::vector<simgrid::s4u::Host*>& hosts() const { return hosts_; }

  void get_local_route(const simgrid::kernel::routing::NetPoint* src,
                       const simgrid::kernel::routing::NetPoint* dst,
                       simgrid::kernel::routing::Route* into, double* latency) override;

 private:
  struct Duplex {
    simgrid::kernel::resource::StandardLinkImpl* forward = nullptr;
    simgrid::kernel::resource::StandardLinkImpl* backward = nullptr;
  };

  DragonflyZone(const std::string& name, const PlatformSpec& spec);
  void build(const PlatformSpec& spec, int nodes_built, double host_speed);
  Duplex make_duplex(const std::string& name, const LinkSpec& link);

  DragonflyLayout layout_;
  double node_latency_, local_latency_, global_latency_, loopback_latency_;
  std::vector<simgrid::s4u::Host*> hosts_;                               // by node
  std::vector<long> node_of_netpoint_;                                   // by netpoint id
  std::vector<Duplex> node_links_;                                       // by node
  std::vector<simgrid::kernel::resource::StandardLinkImpl*> loopbacks_;  // by node
  std::vector<Duplex> local_links_;                                      // by local link number
  std::vector<Duplex> global_links_;                                     // by global link number
};

}  // namespace a2a
