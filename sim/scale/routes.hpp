// Routes between nodes for the scale engine, asked once per node pair from the same SimGrid
// platform the SimGrid engine runs on (platforms/simgrid/), so both engines see the same links,
// latencies and bandwidths. On a torus built with NodeLinks::by_caller the table adds each node's
// injection link itself, where SimGrid's node zone would have put it: first the source's sending
// half, last the destination's receiving half, and its latency after the torus links' (the order
// SimGrid sums them in), so the routes are the same to the last bit. A route keeps only what the
// flow model needs: the shared links it crosses (as dense indices), its latency and its rate bound.
#pragma once

#include <tsl/robin_map.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "platforms/simgrid/builder.hpp"

namespace a2a::sim::scale {

struct Route {
  std::uint32_t id = 0;     // dense: 0, 1, 2, ... in the order routes are first asked for
  std::uint32_t first = 0;  // into RouteTable::hops()
  std::uint32_t hops = 0;   // shared links crossed
  double latency = 0;       // seconds, sum over the route's links
  double bound = 0;         // bytes/s no flow on it can exceed (slowest link, TCP window)
  // False when a shared link of the route is no faster than the bound: then that link limits the
  // flow first and the solver can ignore the bound.
  bool bound_binds = true;
  bool detour = false;  // built by RouteTable::through (kept only while held)
  // A detour's bookkeeping, kept by RouteTable in its own copy (meaningless in others), in the
  // padding of this record: a message starting or ending reads its route here anyway, so counting
  // it costs no other cache miss (separate arrays made a linear exchange 1.12x slower, 0.97x here).
  bool queued = false;        // in RouteTable's list of detours let go
  std::uint32_t holders = 0;  // messages on it
};
static_assert(sizeof(Route) == 40);

class RouteTable {
 public:
  // `node_memory_bandwidth` > 0 gives each node one more shared link of that capacity, crossed by
  // every message between two of its ranks: they share the node's memory bandwidth (each still
  // bounded by the loopback's per-message bandwidth).
  explicit RouteTable(const BuiltPlatform& platform, double node_memory_bandwidth = 0);

  // The route from node `src` to node `dst` (the loopback when equal); computed on first use.
  Route between(int src, int dst);
  // A Valiant route between two distinct nodes through the router of machine node `via` (a third
  // node, possibly outside the job): the routes src -> via and via -> dst joined, without via's
  // own node links.
  //
  // Detours are about one per message, so the table does not keep them all: a message starting on
  // one holds it (hold) and lets go when it ends (release); one that through() built but the
  // message did not take is let go at once (let_go_if_unheld). The detours let go stay findable by
  // through(), up to 65,536 of them or as many as are held: beyond that, a new detour takes the id
  // and hop list of the one let go last, which is forgotten (still in cache, and as likely to be
  // drawn again as any other: intermediates are drawn at random). Kept for the whole run,
  // detours took 1 GiB where the memory estimate said 300 MiB at P = 16,384 (parlogna r = 128
  // under UGAL; docs/performance.md, stop 37). Minimal routes are kept for the run.
  Route through(int src, int dst, int via);
  void hold(const Route& route);
  void release(const Route& route);
  void let_go_if_unheld(const Route& route);
  int nodes() const { return static_cast<int>(platform_.hosts.size()); }
  // Nodes of the machine built (the job's and, under non-contiguous placement, all the others),
  // and the machine node a job node runs on.
  int machine_nodes() const { return static_cast<int>(platform_.machine_hosts.size()); }
  int machine_node(int node) const { return platform_.machine_node[static_cast<size_t>(node)]; }

  const std::vector<std::uint32_t>& hops() const { return hops_; }
  // Capacity in bytes/s of each shared link, by dense index.
  const std::vector<double>& capacities() const { return capacity_; }
  // Smallest latency of any link: no message completes sooner than this after it starts.
  double min_latency() const { return min_latency_; }
  std::size_t routes() const { return routes_.size(); }
  // Every route asked for so far, by Route::id (grows as routes are discovered).
  const std::vector<Route>& interned() const { return routes_; }

 private:
  // What a route needs of a SimGrid link, read from SimGrid once per link: adaptive routing builds
  // a route per message (hundreds of thousands), and SimGrid's getters were 3 % of such a run.
  struct LinkInfo {
    double latency = 0;
    double bandwidth = 0;
    bool fatpipe = false;
    std::uint32_t index = 0;  // dense, for shared links
  };
  LinkInfo link_info(const simgrid::s4u::Link* link);
  std::uint32_t memory_link(int node);
  std::uint32_t injection_link(int node, bool sending);
  // A route over `links` (fatpipes bound it, the others are its shared hops), not yet interned;
  // finish() adds its bound and interns it. `sender` and `receiver` >= 0: the nodes whose
  // injection links (added by the table) begin and end it. Without `latency`, the links'
  // latencies summed in route order (where the caller has none from SimGrid).
  Route make_route(const std::vector<simgrid::s4u::Link*>& links, std::optional<double> latency,
                   int sender = -1, int receiver = -1);
  void finish(Route& route);
  // A new detour's hops (the last route.hops of hops_) moved into the id and hop list of the detour
  // let go last, which is forgotten, or padded to kDetourHops so that a later one can reuse
  // them.
  void place_detour(Route& route);
  void let_go(Route& detour);  // the table's own copy

  const BuiltPlatform& platform_;
  double node_memory_bandwidth_ = 0;
  double tcp_gamma_ = 0;
  double min_latency_ = 0;
  std::vector<std::uint32_t> hops_;
  std::vector<Route> routes_;
  // Open addressing with mixed keys: under adaptive routing every message looks up its minimal
  // route and its detour (one per (src, dst, via), so nearly one new route per message) and every
  // link of the detour, where std::unordered_map's nodes and prime modulus cost a miss and a
  // division each.
  struct MixedHash {
    std::size_t operator()(std::uint64_t key) const;
    std::size_t operator()(const void* key) const;
  };
  tsl::robin_map<std::uint64_t, std::uint32_t, MixedHash> by_pair_;
  tsl::robin_map<std::uint64_t, std::uint32_t, MixedHash> by_detour_;  // (src, dst, via)
  // A detour's key in by_detour_, by route id (a minimal route's entry, if any, is unused).
  std::vector<std::uint64_t> detour_key_;
  std::size_t held_ = 0;  // detours held by at least one message
  // Detours let go (each with room for kDetourHops hops at its `first`), the last let go last; one
  // held again since it was queued is skipped when it comes up, and queued again when let go.
  std::vector<std::uint32_t> unheld_;
  tsl::robin_map<const void*, LinkInfo, MixedHash> links_;
  std::vector<simgrid::s4u::Link*> to_via_, from_via_;                // scratch of through()
  std::unordered_map<int, std::uint32_t> memory_links_;               // by node
  std::unordered_map<std::uint64_t, std::uint32_t> injection_links_;  // by (node, direction)
  std::vector<double> capacity_;
};

}  // namespace a2a::sim::scale
