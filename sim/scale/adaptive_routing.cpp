// Adaptive dragonfly routing; see adaptive_routing.hpp.
#include "sim/scale/adaptive_routing.hpp"

#include <algorithm>

#include "workloads/counter_rng.hpp"

namespace a2a::sim::scale {

namespace {

DragonflyLayout layout_for(const PlatformSpec& spec) {
  if (spec.topology == Topology::dragonfly) return DragonflyLayout(spec);
  return DragonflyLayout(1, 1, 1, 0);  // unused: routing other than minimal is dragonfly-only
}

// Draws to find an intermediate router before giving up (and routing minimally).
constexpr int kDraws = 4;

}  // namespace

AdaptiveRouting::AdaptiveRouting(const PlatformSpec& spec, RouteTable& routes)
    : routes_(routes), layout_(layout_for(spec)) {
  if (spec.topology == Topology::dragonfly && spec.routing == "ugal") mode_ = Mode::ugal;
  if (spec.topology == Topology::dragonfly && spec.routing == "valiant") mode_ = Mode::valiant;
}

int valiant_intermediate(const DragonflyLayout& layout, std::int64_t built, int src, int dst,
                         std::uint64_t salt) {
  const std::int64_t per_group = std::int64_t{layout.routers()} * layout.nodes_per_router();
  const int src_group = layout.group_of(src), dst_group = layout.group_of(dst);
  const int built_groups = static_cast<int>((built + per_group - 1) / per_group);
  std::uint64_t draw = workload_rng::mix64((static_cast<std::uint64_t>(src) << 40) ^
                                           (static_cast<std::uint64_t>(dst) << 16) ^ salt);
  for (int attempt = 0; attempt < kDraws; ++attempt, draw = workload_rng::mix64(draw)) {
    std::int64_t node;
    if (src_group == dst_group) {  // another router of the same group
      const std::int64_t first = std::int64_t{src_group} * per_group;
      const std::int64_t count = std::min(per_group, built - first);
      node = first + static_cast<std::int64_t>(draw % static_cast<std::uint64_t>(count));
      if (layout.router_of(node) == layout.router_of(src) ||
          layout.router_of(node) == layout.router_of(dst))
        continue;
    } else {  // a router of a third group
      if (built_groups < 3) return -1;
      node = static_cast<std::int64_t>(draw % static_cast<std::uint64_t>(built));
      const int group = layout.group_of(node);
      if (group == src_group || group == dst_group) continue;
    }
    return static_cast<int>(node);
  }
  return -1;
}

Route AdaptiveRouting::choose(int src, int dst, std::uint64_t salt) {
  const Route minimal = routes_.between(src, dst);
  // Groups and routers are the machine's: a job node stands for the machine node it runs on.
  const int via = valiant_intermediate(layout_, routes_.machine_nodes(), routes_.machine_node(src),
                                       routes_.machine_node(dst), salt);
  if (via < 0) return minimal;
  const Route detour = routes_.through(src, dst, via);
  if (mode_ == Mode::valiant || cost(detour) < cost(minimal)) return detour;
  routes_.let_go_if_unheld(detour);
  return minimal;
}

double AdaptiveRouting::cost(const Route& route) const {
  const auto& capacity = routes_.capacities();
  const auto& hops = routes_.hops();
  double worst = 0;
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    const std::uint32_t link = hops[route.first + h];
    const double flows = link < flows_.size() ? flows_[link] : 0;
    worst = std::max(worst, (flows + 1) / capacity[link]);
  }
  return worst * route.hops;
}

void AdaptiveRouting::count(const Route& route, int delta) {
  const auto& hops = routes_.hops();
  if (flows_.size() < routes_.capacities().size()) flows_.resize(routes_.capacities().size(), 0);
  for (std::uint32_t h = 0; h < route.hops; ++h)
    flows_[hops[route.first + h]] += delta;
}

}  // namespace a2a::sim::scale
