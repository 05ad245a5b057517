// The intermediate router of the scale engine's Valiant detours (sim/scale/adaptive_routing.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <set>

#include "platforms/dragonfly.hpp"
#include "sim/scale/adaptive_routing.hpp"

namespace a2a::sim::scale {

TEST_CASE("Valiant detours: through a node of another router, every one reachable") {
  // 4 groups of 4 routers with 8 nodes each (32 nodes a group), all built.
  const DragonflyLayout layout(4, 4, 8, 2);
  const std::int64_t built = layout.nodes();

  SUBCASE("inside a group: every node of the group's other routers, never the ends' own") {
    const int src = 3, dst = 9;  // routers 0 and 1 of group 0
    std::set<int> vias;
    for (std::uint64_t salt = 0; salt < 400; ++salt) {
      const int via = valiant_intermediate(layout, built, src, dst, salt);
      if (via < 0) continue;
      CHECK(layout.group_of(via) == 0);
      CHECK(layout.router_of(via) != layout.router_of(src));
      CHECK(layout.router_of(via) != layout.router_of(dst));
      vias.insert(via);
    }
    CHECK(vias.size() == 16);  // every node of routers 2 and 3 (nodes 16-31)
  }

  SUBCASE("between groups: every node of the third groups") {
    const int src = 5, dst = 40;  // groups 0 and 1
    std::set<int> vias;
    for (std::uint64_t salt = 0; salt < 4000; ++salt) {
      const int via = valiant_intermediate(layout, built, src, dst, salt);
      if (via < 0) continue;
      CHECK(layout.group_of(via) >= 2);
      vias.insert(via);
    }
    CHECK(vias.size() == 64);  // every node of the 2 third groups
  }

  SUBCASE("fewer than three groups built: no detour between groups") {
    CHECK(valiant_intermediate(layout, 64, 5, 40, 1) == -1);
  }
}

}  // namespace a2a::sim::scale
