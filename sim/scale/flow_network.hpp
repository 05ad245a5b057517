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
// when all ranks exchange at once. Here the rates are re-solved in batches: only once the flows
// that started or ended since the last solve reach `tolerance` × the flows in flight at that solve
// (tolerance 0 re-solves at every change, like SimGrid). In between, a flow that ends leaves its
// bandwidth unused and a flow that starts gets the rate the last solve gave its links (the
// saturation level of a saturated link, the spare capacity of the others).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "sim/scale/routes.hpp"

namespace a2a::sim::scale {

class FlowNetwork {
 public:
  FlowNetwork(const std::vector<double>& capacities, const std::vector<std::uint32_t>& hops,
              double tolerance);

  // A transfer of `bytes` over `route` whose two sides are both posted at `start`. `token` is
  // handed back by step() when it completes. `start` must not be before the last step's time.
  void start(double start, const Route& route, double bytes, std::uint64_t token);

  // Time of the next event, +infinity when nothing is in flight.
  double next_time();
  // Processes every event at next_time(); appends the tokens of the transfers that completed.
  // Returns that time.
  double step(std::vector<std::uint64_t>& completed);

  bool idle() const { return in_flight() == 0; }
  std::int64_t solves() const { return solves_; }
  std::size_t in_flight() const { return flows_.size() - free_.size(); }

 private:
  struct Flow {
    double remaining = 0;  // bytes
    double rate = 0;       // bytes/s
    double updated = 0;    // time `remaining` was computed at
    double weight = 1;     // 1 / route latency
    double bound = 0;
    std::uint64_t token = 0;
    std::uint32_t first_hop = 0;
    std::uint32_t hops = 0;
    std::uint32_t version = 0;    // bumped whenever its completion time changes
    std::int32_t active_at = -1;  // position in active_, or -1
    bool fixed = false;           // solve scratch
    bool bound_binds = true;
  };
  enum class EventKind : std::uint8_t { activate, complete };
  struct Event {
    double time;
    std::uint32_t flow;
    std::uint32_t version;
    EventKind kind;
    bool operator>(const Event& o) const { return time > o.time; }
  };

  std::uint32_t new_flow();
  void push(Event event);
  void activate(std::uint32_t f);
  void finish(std::uint32_t f, std::vector<std::uint64_t>& completed);
  void schedule_completion(std::uint32_t f);
  double provisional_rate(const Flow& flow);
  void maybe_solve();
  void solve();
  void compact_events();

  void ensure_links();

  const std::vector<double>& capacity_;  // grows as routes are discovered
  const std::vector<std::uint32_t>& hops_;
  double tolerance_;
  double now_ = 0;

  std::vector<Flow> flows_;
  std::vector<std::uint32_t> free_;
  std::vector<std::uint32_t> active_;  // flows in their bandwidth phase on shared links
  std::vector<Event> events_;          // a min-heap, with stale completions left in
  std::size_t changes_ = 0;            // flows started or ended since the last solve
  std::size_t active_at_solve_ = 0;
  std::int64_t solves_ = 0;

  // Per link, from the last solve.
  std::vector<double> level_;  // saturation level (rate × latency), +inf if not saturated
  std::vector<double> spare_;  // capacity not given to any flow
  std::vector<double> weight_at_solve_;
  // Solve scratch, per link.
  std::vector<double> remaining_capacity_, weight_sum_;
  std::vector<std::uint32_t> link_version_, link_unfixed_, link_flow_start_, link_flow_end_;
  std::vector<std::uint32_t> link_flows_;  // flows by link (CSR)
  std::vector<std::uint32_t> touched_links_;
};

}  // namespace a2a::sim::scale
