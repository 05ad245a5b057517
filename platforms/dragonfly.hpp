// Wiring and minimal routing of a dragonfly (Kim et al., ISCA 2008; the Aries and Slingshot
// networks), shared by the SimGrid builder and anything else that needs the same routes.
//
// Shape: `groups` groups of `routers` routers; the routers of a group are connected all-to-all by
// local links (`local_copies` parallel cables per pair of routers); each router serves
// `nodes_per_router` nodes and owns `global_per_router` global ports. Node n sits on router (n /
// nodes_per_router) % routers of group n / (routers · nodes_per_router): nodes fill a router, then
// a group, then the next group.
//
// Global wiring. Each group has P = routers · global_per_router global ports and must reach the
// G − 1 other groups directly (G − 1 ≤ P, checked by the loader). Every pair of groups gets
// m0 = floor(P / (G − 1)) parallel links; the e = P − m0 (G − 1) spare ports of each group are
// paired by a circulant graph (ring offsets ±1, ±2, ..., plus G/2 when e is odd and G even; when
// both are odd one port per group stays dark), so the wiring is identical seen from every group.
// A group numbers its ports by "copy, then ring offset": port k = c (G − 1) + (d − 1) for copy c
// to the group at offset d, spares after; port k sits on router k mod routers. So the first links
// to the G − 1 other groups land on G − 1 different routers (round-robin), and no router holds
// more than global_per_router ports.
//
// Minimal routing (static): node → its router → (local hop to the router holding the chosen
// global link) → global link → (local hop to the destination's router) → node. Among the parallel
// global links of a group pair, a flow takes copy hash(src, dst) mod m, a symmetric hash of the
// two node numbers, so different node pairs spread over the parallel links (like per-flow ECMP)
// and both directions of a node pair use the same cable. Parallel local cables are chosen the
// same way.
#pragma once

#include <cstdint>
#include <vector>

namespace a2a {

struct PlatformSpec;

class DragonflyLayout {
 public:
  DragonflyLayout(int groups, int routers, int nodes_per_router, int global_per_router,
                  int local_copies = 1);
  explicit DragonflyLayout(const PlatformSpec& spec);

  int groups() const { return groups_; }
  int routers() const { return routers_; }
  int nodes_per_router() const { return nodes_per_router_; }
  int global_per_router() const { return global_per_router_; }
  int local_copies() const { return local_copies_; }
  std::int64_t nodes() const { return std::int64_t{groups_} * routers_ * nodes_per_router_; }

  int group_of(std::int64_t node) const {
    return static_cast<int>(node / (std::int64_t{routers_} * nodes_per_router_));
  }
  int router_of(std::int64_t node) const {
    return static_cast<int>((node / nodes_per_router_) % routers_);
  }

  // Parallel global links between two groups at ring offset d = (b − a) mod G, 1 ≤ d < G.
  int links_at_offset(int d) const { return multiplicity_[d]; }
  // The router (0 ≤ r < routers) of a group that holds copy c of its links to the group at ring
  // offset d. The other end of that cable is router_holding(G − d, c) of the other group.
  int router_holding(int d, int c) const;

  // Link numbering. Global links: copy c between groups a < b. Local links: copy c between
  // routers i < j of a group. Both numberings are dense, starting at 0.
  std::int64_t global_link_count() const { return global_base_.back(); }
  std::int64_t global_link(int a, int b, int c) const {
    return global_base_[a] + offset_prefix_[b - a] + c;
  }
  std::int64_t local_link_count() const { return std::int64_t{groups_} * local_per_group(); }
  std::int64_t local_link(int group, int i, int j, int c) const {
    const std::int64_t pair = std::int64_t{i} * (2 * routers_ - i - 1) / 2 + (j - i - 1);
    return std::int64_t{group} * local_per_group() + pair * local_copies_ + c;
  }

  // One hop of a route. `forward` is the direction of the link: node → router for node links,
  // lower → higher router for local links, lower → higher group for global links.
  struct Hop {
    enum class Kind { node, local, global };
    Kind kind;
    std::int64_t link;  // node number for node links; local_link / global_link otherwise
    bool forward;
  };
  // Minimal route between two distinct nodes: 2 to 5 hops (node, ≤ 1 local, ≤ 1 global, ≤ 1 local,
  // node). Returns the number of hops written to `out`.
  int route(std::int64_t src, std::int64_t dst, Hop out[5]) const;

  // Which of the parallel links between two groups a flow between these nodes takes.
  static std::uint64_t flow_hash(std::int64_t a, std::int64_t b);

 private:
  std::int64_t local_per_group() const {
    return std::int64_t{routers_} * (routers_ - 1) / 2 * local_copies_;
  }
  void add_local_hop(int group, int from, int to, std::uint64_t flow, Hop out[5], int& n) const;

  int groups_, routers_, nodes_per_router_, global_per_router_, local_copies_;
  int base_copies_ = 0;                      // m0
  std::vector<int> multiplicity_;            // [d], d in 1..G−1
  std::vector<int> spare_rank_;              // [d]: index among the offsets that get a spare link
  std::vector<std::int64_t> offset_prefix_;  // [d]: links at offsets 1..d−1
  std::vector<std::int64_t> global_base_;    // [a]: global links of pairs (a', b) with a' < a
};

}  // namespace a2a
