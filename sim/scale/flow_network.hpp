// The scale engine's network model: flow-level, congestion-aware, and cheap at 10^5-10^6
// concurrent flows (docs/simulation.md, "The scale engine").
//
// It follows SimGrid's CM02 model, which the SimGrid engine uses, so the two engines agree:
//  * a transfer first pays its route's latency without using bandwidth, then shares the links of
//    its route with the other transfers in flight;
//  * the sharing is weighted max-min fairness: on a saturated link every flow gets a rate
//    proportional to 1 / (its route latency), and no flow exceeds its route's bound (slowest link,
//    TCP window); fatpipe links (a node's loopback) bound a flow without being shared.
// SimGrid re-solves the max-min problem over every flow each time one starts or ends — quadratic
// when all ranks exchange at once. Here two things keep it cheap:
//  * Rates are re-solved in batches: only once the flows that started or ended since the last
//    solve reach `tolerance` × the flows in flight at that solve (tolerance 0 re-solves at every
//    change, like SimGrid), and with tolerance > 0 at most once per nanosecond of simulated time,
//    SimGrid's own time precision. In between, a route that a saturated link limited keeps the
//    bandwidth the last solve gave it, shared by the flows it carries now: a flow that joins it
//    slows its route-mates and one that ends speeds them up, so no link carries more or less than
//    the solve gave it. A flow that starts on any other route gets the rate the last solve gave its
//    route (or, on a route nobody used then, the saturation level of its saturated links and the
//    spare capacity of the others); a flow that ends there leaves its bandwidth unused.
//  * A solve re-levels only what changed: max-min fairness splits into independent problems, one
//    per connected set of routes in use (two routes are connected when they share a link), so a
//    solve takes the sets that hold a route whose flows started or ended, or a link such a route
//    left, and keeps the rates of the others, which a solve of everything would give again up to
//    rounding (it would add their weights in the order routes now stand in use). A
//    pairwise exchange at P = 2,048 on fugaku re-solved at nearly every change (its few flows in
//    their bandwidth phase are below any batch) over all of them, 35 links and 7 routes on
//    average: 63 % of its run (docs/performance.md, stop 59).
//  * Flows on the same route (the same node pair) cross the same links with the same weight and
//    bound, so max-min fairness gives them the same rate: the solver works on routes in use, each
//    with its number of flows, not on flows. All flows of a route progress at its one rate, so a
//    route keeps a single clock of bytes moved per flow and its flows in the order they will end;
//    a new rate reschedules the route, not each of its flows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <limits>
#include <utility>
#include <vector>

#include "sim/scale/dary_heap.hpp"
#include "sim/scale/link_queue.hpp"
#include "sim/scale/route_queue.hpp"
#include "sim/scale/routes.hpp"

namespace a2a::sim::scale {

class FlowNetwork {
 public:
  // `routes`: the routes by Route::id (RouteTable::interned()); every route started must be there.
  // `incremental` false re-solves every route in use at every solve (the tests compare the two).
  FlowNetwork(const std::vector<double>& capacities, const std::vector<std::uint32_t>& hops,
              const std::vector<Route>& routes, double tolerance, bool incremental = true);

  // A transfer of `bytes` over `route` whose two sides are both posted at `start`. `token` is
  // handed back by step() when it completes. `start` must not be before the last step's time.
  void start(double start, const Route& route, double bytes, std::uint64_t token);

  // Time of the next event, +infinity when nothing is in flight.
  double next_time();
  // Processes every event at next_time(); appends the tokens of the transfers that completed.
  // Returns that time.
  double step(std::vector<std::uint64_t>& completed);

  bool idle() const { return in_flight_ == 0; }
  std::int64_t solves() const { return solves_; }
  // Solves that re-levelled only the routes connected to a change.
  std::int64_t partial_solves() const { return partial_solves_; }
  // Whether each link's list of routes in use holds exactly one entry per crossing of a route in
  // use, where that route's place for the crossing says (for tests: O(routes × hops)).
  bool route_lists_consistent() const;
  std::size_t in_flight() const { return in_flight_; }

 private:
  // One per message in flight (10^8 for a linear exchange at P = 10^4): its route by id, not a
  // copy of it.
  struct Flow {
    double bytes = 0;
    std::uint64_t token = 0;
    std::uint32_t route = 0;  // Route::id
  };
  static constexpr std::uint32_t kNoSlot = 0xFFFFFFFF;

  // A flow in its bandwidth phase, on its route's heap: ordered by when it ends, then by flow.
  // It carries the flow's token, so a flow that ends is handed back without reading its Flow
  // (by then a cache miss per completed message).
  struct Ending {
    double moved;  // the route's `moved` at which the flow ends
    std::uint32_t flow;
    std::uint64_t token;
    bool operator>(const Ending& o) const {
      return moved != o.moved ? moved > o.moved : flow > o.flow;
    }
  };
  // A route in use and the flows on it in their bandwidth phase. What the solve reads and writes of
  // every route in use comes first, in one cache line: a solve visits all of them, in no particular
  // order of memory.
  struct alignas(64) RouteFlows {
    std::uint32_t first_hop = 0;
    std::uint32_t hops = 0;
    std::int32_t flows = 0;
    bool bound_binds = true;
    bool rated = false;   // `rate` is valid (from a solve, or provisional)
    bool fixed = false;   // solve scratch
    bool shares = false;  // a saturated link fixed its rate at the last solve: see `solved`
    double weight = 1;    // 1 / route latency
    double bound = 0;
    double rate = 0;     // bytes/s of each of its flows
    double moved = 0;    // bytes each flow of this route has moved since the route came into use
    double updated = 0;  // time `moved` was computed at
    // While a solve runs, the route's new rate per flow; after it, the route's total rate (per
    // flow × flows), which a route that `shares` divides among the flows it carries until the
    // next solve.
    double solved = 0;
    // When its next flow ends (+inf: none): its key in route_queue_.
    double due = std::numeric_limits<double>::infinity();
    std::uint32_t id = 0;         // Route::id
    std::int32_t active_at = -1;  // position in active_, or -1
    std::uint32_t seen = 0;       // the solve (epoch_) that last met it looking for changes
    bool changed = false;         // in changed_routes_
    bool crosses_twice = false;   // some link twice (solve_alone does not handle it)
    // Its flows by the `moved` at which each ends, a min-heap.
    std::vector<Ending> ending;
  };
  static_assert(sizeof(RouteFlows) == 128);
  static_assert(offsetof(RouteFlows, due) == 64, "the solve's fields fill the first cache line");
  // A flow's events; a route's next flow ending is its entry in route_queue_, taken after the
  // flows' events of the same time.
  enum class EventKind : std::uint8_t { activate, end_alone };
  struct Event {
    double time;
    std::uint32_t id;  // the flow
    EventKind kind;
    // Events at one time are taken in a fixed order (kind, then id), not in whatever order the
    // heap holds them: which of two simultaneous completions wakes its rank first decides, e.g.,
    // the loads an adaptive route is chosen by.
    bool operator<(const Event& o) const {
      if (time != o.time) return time < o.time;
      if (kind != o.kind) return kind < o.kind;
      return id < o.id;
    }
  };

  std::uint32_t new_flow();
  std::uint32_t route_of(const Route& route);
  void release_route(std::uint32_t r);
  void push(Event event);
  void activate(std::uint32_t f);
  void end_flow(std::uint32_t f, std::uint64_t token, std::vector<std::uint64_t>& completed);
  void route_next(std::uint32_t r, std::vector<std::uint64_t>& completed);
  void catch_up(RouteFlows& route) const;
  void schedule(std::uint32_t r);
  double earliest() const;
  double provisional_rate(const RouteFlows& route) const;
  bool reshare(RouteFlows& route) const;
  void take_spare(const RouteFlows& route, double rate);
  void maybe_solve();
  void solve();
  // Progressive filling over `routes` (in the order of active_), which no route outside them
  // shares a link with.
  void solve_routes(const std::vector<std::uint32_t>& routes);
  // The same for one route that shares none of its links (with none other in use).
  void solve_alone(std::uint32_t r);
  // Whether this solve may take only the routes connected to a change (then in component_).
  bool partial_found();
  // The routes connected to a change since the last solve, in the order of active_, into
  // component_; false (and component_ unusable) once they would be more than a quarter of those in
  // use (and more than 256).
  bool collect_changed();
  void note_change(std::uint32_t r);
  void link_route(std::uint32_t r);
  void unlink_route(std::uint32_t r);
  void prefetch_links(const RouteFlows& route) const;
  double level_of_full_link(std::uint32_t l) const;

  void ensure_links();

  const std::vector<double>& capacity_;  // grows as routes are discovered
  const std::vector<std::uint32_t>& hops_;
  const std::vector<Route>& interned_;
  double tolerance_;
  bool incremental_;
  double now_ = 0;

  std::deque<Flow> flows_;  // a deque: growing never copies them all (twice the memory at once)
  std::vector<std::uint32_t> free_flows_;
  std::vector<RouteFlows> routes_;
  std::vector<std::uint32_t> free_routes_;
  std::vector<std::uint32_t> slot_of_route_;  // by Route::id: index into routes_, or kNoSlot
  std::vector<std::uint32_t> active_;         // routes with flows in their bandwidth phase
  DaryHeap<Event> events_;                    // the flows' events
  RouteQueue route_queue_;                    // routes in use with a flow to end, by when
  std::size_t in_flight_ = 0;
  std::size_t sharing_ = 0;  // flows in their bandwidth phase on shared links
  std::size_t changes_ = 0;  // flows started or ended since the last solve
  std::size_t sharing_at_solve_ = 0;
  std::int64_t solves_ = 0;
  std::int64_t partial_solves_ = 0;
  // Routes whose flows started or ended since the last solve (some since released), and links
  // that routes released since then crossed.
  std::vector<std::uint32_t> changed_routes_;
  std::vector<std::uint32_t> left_links_;
  std::vector<std::uint32_t> component_, link_stack_;  // collect_changed's scratch
  std::uint32_t epoch_ = 0;
  // After a change reached more than a quarter of the routes (one big connected set, as in a Bruck
  // round on a dragonfly), the next skip_partial_ solves take every route without looking (doubling
  // up to 64 while it repeats): looking would cost them up to half a solve for nothing.
  std::uint32_t skip_partial_ = 0, partial_backoff_ = 0;
  double solved_at_ = -std::numeric_limits<double>::infinity();  // time of the last solve

  // Per link, in one cache line: what the last solve left (read by flows joining between solves)
  // and the solve's scratch. A solve touches every link in use several times; as separate arrays
  // each touch was a cache miss per field.
  struct alignas(64) Link {
    double capacity = 0;
    double level = 0;  // saturation level (rate × latency) at the last solve, +inf if not saturated
    double spare = 0;  // capacity the last solve gave to no flow
    double weight_at_solve = 0;
    // Solve scratch.
    double remaining_capacity = 0;
    double weight_sum = 0;
    std::uint32_t unfixed = 0;                     // routes crossing it not yet fixed
    std::uint32_t route_start = 0, route_end = 0;  // its routes in link_routes_
    std::uint32_t seen = 0;                        // as RouteFlows::seen
  };
  static_assert(sizeof(Link) == 64);
  std::vector<Link> links_;
  // By link, the routes in use crossing it, kept as routes come into and go out of use; by route
  // slot, its place in those lists, hop by hop (beside routes_, which it would take past 128 B).
  std::vector<std::vector<std::uint32_t>> routes_on_link_;
  std::vector<std::vector<std::uint32_t>> place_on_hop_;
  std::vector<std::uint32_t> link_routes_;  // routes by link (CSR)
  LinkQueue link_queue_;
  std::vector<std::pair<double, std::uint32_t>> bound_order_;  // (bound / weight, route), sorted
  std::vector<std::uint32_t> touched_links_;
};

}  // namespace a2a::sim::scale
