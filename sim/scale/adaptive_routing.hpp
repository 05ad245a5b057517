// Adaptive routing on a dragonfly for the scale engine (`routing: ugal` or `valiant` in a platform,
// docs/platforms.md). Real Aries and Slingshot switches route each packet minimally or through an
// intermediate router, by the load they see. At flow level: when a message starts, it takes either
// its minimal route or a Valiant route through one intermediate router (a random one of its own
// group for a message inside a group, of a third group otherwise), whichever has the lower UGAL
// cost, hops x the most loaded link's (flows + 1) / capacity (Kim et al., ISCA 2008; Jiang et al.,
// ISCA 2009, "UGAL-L"). `valiant` always takes the detour. The choice is made once per message, in
// the event loop's order, so results stay deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "platforms/dragonfly.hpp"
#include "platforms/platform.hpp"
#include "sim/scale/routes.hpp"

namespace a2a::sim::scale {

// The intermediate of a Valiant detour from machine node `src` to machine node `dst` (distinct),
// drawn from `salt`: a node on a router of their own group other than theirs when they share a
// group, on a router of a third group otherwise, among the first `built` machine nodes; -1 if none
// was found in a few draws. A node, not just its router: the detour's two halves take, among
// parallel cables, the one a hash of their end nodes picks (platforms/dragonfly.hpp), so drawing
// the node spreads detours through one router over its cables.
int valiant_intermediate(const DragonflyLayout& layout, std::int64_t built, int src, int dst,
                         std::uint64_t salt);

class AdaptiveRouting {
 public:
  AdaptiveRouting(const PlatformSpec& spec, RouteTable& routes);

  // False for minimal routing (then nothing here is used).
  bool enabled() const { return mode_ != Mode::minimal; }
  // The route of a message between two distinct nodes starting now; `salt` varies the
  // intermediate router between messages of one node pair.
  Route choose(int src, int dst, std::uint64_t salt);
  // A flow started or ended on `route`: the loads UGAL compares. The route is held meanwhile
  // (RouteTable::hold): a detour is forgotten when its last flow ends.
  void add(const Route& route) {
    count(route, +1);
    routes_.hold(route);
  }
  void remove(const Route& route) {
    count(route, -1);
    routes_.release(route);
  }

 private:
  enum class Mode { minimal, ugal, valiant };
  double cost(const Route& route) const;
  void count(const Route& route, int delta);

  Mode mode_ = Mode::minimal;
  RouteTable& routes_;
  DragonflyLayout layout_;
  std::vector<std::int32_t> flows_;  // per shared link
};

}  // namespace a2a::sim::scale
