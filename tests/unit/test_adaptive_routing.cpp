// The intermediate router of the scale engine's Valiant detours (sim/scale/adaptive_routing.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <set>

#include "platforms/dragonfly.hpp"
#include "sim/scale/adaptive_routing.hpp"

namespace a2a::sim::scale {

TEST_CASE("Valiant detours: through another router, named by the router's first node") {
  // 4 groups of 4 routers with 8 nodes each (32 nodes a group), all built.
  const DragonflyLayout layout(4, 4, 8, 2);
  const std::int64_t built = layout.nodes();
  const int per_router = layout.nodes_per_router();

  SUBCASE("inside a group: every other router of the group, never the ends' own") {
    const int src = 3, dst = 9;  // routers 0 and 1 of group 0
    std::set<int> vias;
    for (std::uint64_t salt = 0; salt < 400; ++salt) {
      const int via = valiant_intermediate(layout, built, src, dst, salt);
      if (via < 0) continue;
      CHECK(via % per_router == 0);
      CHECK(layout.group_of(via) == 0);
      CHECK(layout.router_of(via) != layout.router_of(src));
      CHECK(layout.router_of(via) != layout.router_of(dst));
      vias.insert(via);
    }
    CHECK(vias == std::set<int>{16, 24});
  }

  SUBCASE("between groups: routers of a third group, every one of them") {
    const int src = 5, dst = 40;  // groups 0 and 1
    std::set<int> vias;
    for (std::uint64_t salt = 0; salt < 2000; ++salt) {
      const int via = valiant_intermediate(layout, built, src, dst, salt);
      if (via < 0) continue;
      CHECK(via % per_router == 0);
      CHECK(layout.group_of(via) >= 2);
      vias.insert(via);
    }
    CHECK(vias.size() == 8);  // 2 third groups x 4 routers
  }

  SUBCASE("fewer than three groups built: no detour between groups") {
    CHECK(valiant_intermediate(layout, 64, 5, 40, 1) == -1);
  }

  SUBCASE("the same salt, the same router: runs are reproducible") {
    for (std::uint64_t salt = 0; salt < 50; ++salt)
      CHECK(valiant_intermediate(layout, built, 5, 40, salt) ==
            valiant_intermediate(layout, built, 5, 40, salt));
  }
}

}  // namespace a2a::sim::scale
