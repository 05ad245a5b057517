// Dragonfly wiring and minimal routing (platforms/dragonfly.hpp).
#include "platforms/dragonfly.hpp"

#include <algorithm>

#include "platforms/platform.hpp"
#include "workloads/counter_rng.hpp"

namespace a2a {

DragonflyLayout::DragonflyLayout(const PlatformSpec& spec)
    : DragonflyLayout(spec.dragonfly_groups, spec.dragonfly_routers_per_group,
                      spec.dragonfly_nodes_per_router, spec.dragonfly_global_links_per_router,
                      spec.dragonfly_local_links_per_router_pair) {}

DragonflyLayout::DragonflyLayout(int groups, int routers, int nodes_per_router,
                                 int global_per_router, int local_copies)
    : groups_(groups),
      routers_(routers),
      nodes_per_router_(nodes_per_router),
      global_per_router_(global_per_router),
      local_copies_(local_copies),
      multiplicity_(groups, 0),
      spare_rank_(groups, -1),
      offset_prefix_(groups + 1, 0),
      global_base_(groups + 1, 0) {
  const int others = groups - 1;
  if (others > 0) {
    const std::int64_t ports = std::int64_t{routers} * global_per_router;
    base_copies_ = static_cast<int>(ports / others);
    const int spare = static_cast<int>(ports - std::int64_t{base_copies_} * others);
    // Spare ports form a circulant graph: offsets ±1..±half, plus the diameter G/2 when the
    // count is odd and G even. With both odd, the last spare port of each group stays unused.
    const int half = spare / 2;
    for (int d = 1; d <= others; ++d) {
      const bool gets_spare =
          d <= half || d >= groups - half || (spare % 2 == 1 && groups % 2 == 0 && 2 * d == groups);
      multiplicity_[d] = base_copies_ + (gets_spare ? 1 : 0);
    }
    int rank = 0;
    for (int d = 1; d <= others; ++d)
      if (multiplicity_[d] > base_copies_) spare_rank_[d] = rank++;
  }
  for (int d = 1; d <= groups; ++d)
    offset_prefix_[d] = offset_prefix_[d - 1] + (d - 1 >= 1 ? multiplicity_[d - 1] : 0);
  for (int a = 0; a < groups; ++a)
    global_base_[a + 1] = global_base_[a] + offset_prefix_[groups - a];
}

int DragonflyLayout::router_holding(int d, int c) const {
  const std::int64_t others = groups_ - 1;
  const std::int64_t port =
      c < base_copies_ ? c * others + (d - 1) : base_copies_ * others + spare_rank_[d];
  return static_cast<int>(port % routers_);
}

std::uint64_t DragonflyLayout::flow_hash(std::int64_t a, std::int64_t b) {
  // splitmix64 over the unordered pair: symmetric, and consecutive node numbers land
  // on unrelated copies (a plain (a + b) mod m would use only half the links when m is even and
  // the pattern is a shift, as in Bruck rounds).
  return workload_rng::mix64((static_cast<std::uint64_t>(std::min(a, b)) << 32) ^
                             static_cast<std::uint64_t>(std::max(a, b)));
}

void DragonflyLayout::add_local_hop(int group, int from, int to, std::uint64_t flow, Hop out[5],
                                    int& n) const {
  if (from == to) return;
  const int copy = static_cast<int>(flow % static_cast<std::uint64_t>(local_copies_));
  out[n++] = {Hop::Kind::local, local_link(group, std::min(from, to), std::max(from, to), copy),
              from < to};
}

int DragonflyLayout::route(std::int64_t src, std::int64_t dst, Hop out[5]) const {
  if (src == dst) return 0;
  int n = 0;
  const int gs = group_of(src), rs = router_of(src);
  const int gt = group_of(dst), rt = router_of(dst);
  const std::uint64_t flow = flow_hash(src, dst);
  out[n++] = {Hop::Kind::node, src, true};
  if (gs == gt) {
    add_local_hop(gs, rs, rt, flow, out, n);
  } else {
    const int d = (gt - gs + groups_) % groups_;
    const int copy = static_cast<int>(flow % static_cast<std::uint64_t>(multiplicity_[d]));
    // The local cable is picked from other bits of the hash than the global one, so the two
    // choices are independent.
    const std::uint64_t local_flow = flow >> 32;
    add_local_hop(gs, rs, router_holding(d, copy), local_flow, out, n);
    out[n++] = {Hop::Kind::global, global_link(std::min(gs, gt), std::max(gs, gt), copy), gs < gt};
    add_local_hop(gt, router_holding(groups_ - d, copy), rt, local_flow, out, n);
  }
  out[n++] = {Hop::Kind::node, dst, false};
  return n;
}

}  // namespace a2a
