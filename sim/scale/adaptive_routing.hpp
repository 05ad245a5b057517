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

class AdaptiveRouting {
 public:
  AdaptiveRouting(const PlatformSpec& spec, RouteTable& routes);

  // False for minimal routing (then nothing here is used).
  bool enabled() const { return mode_ != Mode::minimal; }
  // The route of a message between two distinct nodes starting now; `salt` varies the
  // intermediate router between messages of one node pair.
  Route choose(int src, int dst, std::uint64_t salt);
  // A flow started or ended on `route`: the loads UGAL compares.
  void add(const Route& route) { count(route, +1); }
  void remove(const Route& route) { count(route, -1); }

 private:
  enum class Mode { minimal, ugal, valiant };
  double cost(const Route& route) const;
  void count(const Route& route, int delta);
  // A node whose router a detour from src to dst may cross, or -1 if there is none.
  int intermediate(int src, int dst, std::uint64_t salt) const;

  Mode mode_ = Mode::minimal;
  RouteTable& routes_;
  DragonflyLayout layout_;
  std::vector<std::int32_t> flows_;  // per shared link
};

}  // namespace a2a::sim::scale
