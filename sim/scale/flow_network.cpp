#include "sim/scale/flow_network.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "sim/free_list.hpp"

namespace a2a::sim::scale {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// With batching on, rates are re-solved at most once per nanosecond of simulated time: events that
// close together (flows of one round ending a fraction of a nanosecond apart, from rounding of
// their latencies) share one solve. SimGrid 3.32 updates simulation times to the same precision
// (its surf/precision, 1e-9 s). At P = 65,536, 49,000 of 57,000 solves were within 1 ns of the
// one before.
constexpr double kSolveResolution = 1e-9;
}  // namespace

FlowNetwork::FlowNetwork(const std::vector<double>& capacities,
                         const std::vector<std::uint32_t>& hops, const std::vector<Route>& routes,
                         double tolerance, bool incremental)
    : capacity_(capacities),
      hops_(hops),
      interned_(routes),
      tolerance_(tolerance),
      incremental_(incremental) {}

void FlowNetwork::ensure_links() {
  for (std::size_t l = links_.size(); l < capacity_.size(); ++l) {
    Link link;
    link.capacity = capacity_[l];
    link.level = kInfinity;
    link.spare = capacity_[l];
    links_.push_back(link);
  }
  routes_on_link_.resize(links_.size());
}

std::uint32_t FlowNetwork::new_flow() {
  return reuse_or_append(flows_, free_flows_);
}

void FlowNetwork::push(Event event) {
  events_.push(event);
}

void FlowNetwork::start(double start, const Route& route, double bytes, std::uint64_t token) {
  ensure_links();
  const std::uint32_t f = new_flow();
  flows_[f] = Flow{bytes, token, route.id};
  ++in_flight_;
  push({std::max(start + route.latency, now_), f, EventKind::activate});
}

std::uint32_t FlowNetwork::route_of(const Route& spec) {
  if (spec.id >= slot_of_route_.size()) slot_of_route_.resize(spec.id + 1, kNoSlot);
  if (slot_of_route_[spec.id] != kNoSlot) return slot_of_route_[spec.id];
  const std::uint32_t r = reuse_or_append(routes_, free_routes_);
  RouteFlows& route = routes_[r];
  route.id = spec.id;
  route.first_hop = spec.first;
  route.hops = spec.hops;
  route.weight = 1.0 / std::max(spec.latency, 1e-12);
  route.bound = spec.bound;
  route.bound_binds = spec.bound_binds;
  route.flows = 0;
  route.rate = 0;
  route.moved = 0;
  route.updated = now_;
  route.rated = false;
  route.shares = false;
  route.due = kInfinity;
  route.active_at = static_cast<std::int32_t>(active_.size());
  active_.push_back(r);
  slot_of_route_[spec.id] = r;
  link_route(r);
  return r;
}

void FlowNetwork::link_route(std::uint32_t r) {
  RouteFlows& route = routes_[r];
  if (place_on_hop_.size() < routes_.size()) place_on_hop_.resize(routes_.size());
  std::vector<std::uint32_t>& places = place_on_hop_[r];
  places.resize(route.hops);
  route.crosses_twice = false;
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    std::vector<std::uint32_t>& on_link = routes_on_link_[hops_[route.first_hop + h]];
    if (!on_link.empty() && on_link.back() == r) route.crosses_twice = true;
    places[h] = static_cast<std::uint32_t>(on_link.size());
    on_link.push_back(r);
  }
}

// Takes the route out of its links' lists, each time moving the list's last route into its place,
// and notes the links as left (their other routes may speed up). When that last route is this one
// (it crosses the link again), the entry moved is one of its hops still to come: its hops before
// `h` are out of the lists already, and their places are stale.
void FlowNetwork::unlink_route(std::uint32_t r) {
  const RouteFlows& route = routes_[r];
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    const std::uint32_t l = hops_[route.first_hop + h];
    std::vector<std::uint32_t>& on_link = routes_on_link_[l];
    const std::uint32_t place = place_on_hop_[r][h];
    const auto last_place = static_cast<std::uint32_t>(on_link.size() - 1);
    const std::uint32_t last = on_link.back();
    on_link[place] = last;
    on_link.pop_back();
    if (last != r || place != last_place) {
      const RouteFlows& moved = routes_[last];
      std::vector<std::uint32_t>& places = place_on_hop_[last];
      for (std::uint32_t k = last == r ? h + 1 : 0; k < moved.hops; ++k) {
        if (places[k] == last_place && hops_[moved.first_hop + k] == l) {
          places[k] = place;
          break;
        }
      }
    }
    left_links_.push_back(l);
  }
}

bool FlowNetwork::route_lists_consistent() const {
  std::size_t crossings = 0, listed = 0;
  for (const std::uint32_t r : active_) {
    const RouteFlows& route = routes_[r];
    for (std::uint32_t h = 0; h < route.hops; ++h) {
      const std::vector<std::uint32_t>& on_link = routes_on_link_[hops_[route.first_hop + h]];
      const std::uint32_t place = place_on_hop_[r][h];
      if (place >= on_link.size() || on_link[place] != r) return false;
      for (std::uint32_t k = 0; k < h; ++k) {  // two crossings of one link, two places
        if (hops_[route.first_hop + k] == hops_[route.first_hop + h] &&
            place_on_hop_[r][k] == place) {
          return false;
        }
      }
      ++crossings;
    }
  }
  for (const std::vector<std::uint32_t>& on_link : routes_on_link_)
    listed += on_link.size();
  return listed == crossings;
}

void FlowNetwork::note_change(std::uint32_t r) {
  ++changes_;
  RouteFlows& route = routes_[r];
  if (route.changed) return;
  route.changed = true;
  changed_routes_.push_back(r);
}

// A route whose last flow ended: forgotten (its slot and heap are reused).
void FlowNetwork::release_route(std::uint32_t r) {
  RouteFlows& route = routes_[r];
  const std::uint32_t last = active_.back();
  active_[static_cast<std::size_t>(route.active_at)] = last;
  routes_[last].active_at = route.active_at;
  active_.pop_back();
  route.active_at = -1;
  route.ending.clear();
  route.due = kInfinity;
  route_queue_.erase(r);
  slot_of_route_[route.id] = kNoSlot;
  unlink_route(r);
  free_routes_.push_back(r);
}

double FlowNetwork::provisional_rate(const RouteFlows& route) const {
  double rate = route.bound;
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    const Link& link = links_[hops_[route.first_hop + h]];
    if (link.level < kInfinity) {
      rate = std::min(rate, link.level * route.weight);
    } else if (link.spare > 1e-3 * link.capacity) {
      rate = std::min(rate, link.spare);
    } else {
      rate = std::min(rate, link.capacity * route.weight / (link.weight_at_solve + route.weight));
    }
  }
  return rate;
}

// A flow joining between solves uses up spare capacity of the unsaturated links it crosses.
void FlowNetwork::take_spare(const RouteFlows& route, double rate) {
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    Link& link = links_[hops_[route.first_hop + h]];
    if (link.level == kInfinity) link.spare = std::max(0.0, link.spare - rate);
  }
}

// Between solves a route that a saturated link limited keeps the total rate the solve gave it,
// divided among the flows it carries now (up to its bound): the links it crosses carry what the
// solve gave them, whether flows joined or left. Giving a joining flow the solve's rate per flow
// instead overloaded the saturated links by up to `tolerance` and made predictions several per
// cent too fast (docs/performance.md, stop 39). True if the rate changed; `route` caught up.
bool FlowNetwork::reshare(RouteFlows& route) const {
  if (!route.shares || route.flows <= 0) return false;
  const double rate = std::min(route.bound, route.solved / static_cast<double>(route.flows));
  if (rate == route.rate) return false;
  route.rate = rate;
  return true;
}

void FlowNetwork::catch_up(RouteFlows& route) const {
  route.moved += route.rate * (now_ - route.updated);
  route.updated = now_;
}

void FlowNetwork::schedule(std::uint32_t r) {
  RouteFlows& route = routes_[r];
  route.due = kInfinity;
  if (!route.ending.empty() && route.rate > 0) {
    const double time = route.updated + (route.ending.front().moved - route.moved) / route.rate;
    route.due = std::max(time, now_);
  }
  if (route.due < kInfinity) {
    route_queue_.set(r, route.due);
  } else {
    route_queue_.erase(r);
  }
}

// The time of the next flow event or route due, +infinity if none.
double FlowNetwork::earliest() const {
  const double flows = events_.empty() ? kInfinity : events_.top().time;
  const double routes = route_queue_.empty() ? kInfinity : route_queue_.top().time;
  return std::min(flows, routes);
}

void FlowNetwork::activate(std::uint32_t f) {
  const Flow& flow = flows_[f];
  const Route& spec = interned_[flow.route];
  if (flow.bytes <= 0 || spec.hops == 0) {
    // Nothing to share: the loopback, or an empty message.
    const double seconds = flow.bytes <= 0 ? 0 : flow.bytes / spec.bound;
    push({now_ + seconds, f, EventKind::end_alone});
    return;
  }
  const std::uint32_t r = route_of(spec);
  RouteFlows& route = routes_[r];
  catch_up(route);
  if (!route.rated) {
    route.rate = provisional_rate(route);
    route.rated = true;
  }
  if (!route.shares) take_spare(route, route.rate);
  ++route.flows;
  ++sharing_;
  note_change(r);
  const bool slowed = reshare(route);
  route.ending.push_back({route.moved + flow.bytes, f, flow.token});
  std::push_heap(route.ending.begin(), route.ending.end(), std::greater<>{});
  if (slowed || route.ending.front().flow == f) schedule(r);
}

void FlowNetwork::end_flow(std::uint32_t f, std::uint64_t token,
                           std::vector<std::uint64_t>& completed) {
  completed.push_back(token);
  free_flows_.push_back(f);
  --in_flight_;
}

// The route's first flow ends now (the event was computed for it), with every other one whose
// end is within rounding of the route's clock.
void FlowNetwork::route_next(std::uint32_t r, std::vector<std::uint64_t>& completed) {
  RouteFlows& route = routes_[r];
  catch_up(route);
  const double reached = route.moved * (1 + 1e-12) + 1e-6;
  do {
    const Ending ends = route.ending.front();
    std::pop_heap(route.ending.begin(), route.ending.end(), std::greater<>{});
    route.ending.pop_back();
    end_flow(ends.flow, ends.token, completed);
    --route.flows;
    --sharing_;
    note_change(r);
  } while (!route.ending.empty() && route.ending.front().moved <= reached);
  if (route.flows == 0) {
    release_route(r);
  } else {
    reshare(route);
    schedule(r);
  }
}

void FlowNetwork::maybe_solve() {
  if (changes_ == 0) return;
  const double threshold = std::max(1.0, tolerance_ * static_cast<double>(sharing_at_solve_));
  if (static_cast<double>(changes_) >= threshold) solve();
}

double FlowNetwork::next_time() {
  for (;;) {
    const double next = earliest();
    if (next == kInfinity) return kInfinity;
    // Rates only matter for the future: solve once every event at the current time is in, and
    // (when batching) not again within kSolveResolution of the last solve.
    if (next > now_ && changes_ > 0 && (tolerance_ == 0 || next >= solved_at_ + kSolveResolution)) {
      const std::int64_t before = solves_;
      maybe_solve();
      if (solves_ != before) continue;  // completion times moved
    }
    return next;
  }
}

double FlowNetwork::step(std::vector<std::uint64_t>& completed) {
  const double time = next_time();
  if (time == kInfinity) return time;
  now_ = time;
  // Events of one time in a fixed order: the flows' (by kind, then flow), then the routes' (by
  // slot). Handling one may add others at the same time, which are taken in that order too.
  for (;;) {
    const bool flow_next =
        !events_.empty() && (route_queue_.empty() || events_.top().time <= route_queue_.top().time);
    if (flow_next) {
      const Event event = events_.top();
      if (event.time > time) break;
      events_.pop();
      if (event.kind == EventKind::activate) {
        activate(event.id);
      } else {
        end_flow(event.id, flows_[event.id].token, completed);
      }
      continue;
    }
    if (route_queue_.empty() || route_queue_.top().time > time) break;
    const std::uint32_t r = route_queue_.top().route;
    route_queue_.pop();
    route_next(r, completed);
  }
  return time;
}

void FlowNetwork::prefetch_links(const RouteFlows& route) const {
  for (std::uint32_t h = 0; h < route.hops; ++h)
    __builtin_prefetch(&links_[hops_[route.first_hop + h]]);
}

// A link that the solve filled without saturating it first: its routes were all fixed by other
// links at the level it would have reached (a tie, common on symmetric networks) or by their
// bounds. It is as saturated as those links; which of the tied links the queue happened to take
// first must not decide how flows joining before the next solve are rated (provisional_rate).
double FlowNetwork::level_of_full_link(std::uint32_t l) const {
  double level = 0;
  for (std::uint32_t i = links_[l].route_start; i < links_[l].route_end; ++i) {
    const RouteFlows& route = routes_[link_routes_[i]];
    level = std::max(level, route.solved / route.weight);
  }
  return level;
}

void FlowNetwork::solve() {
  ++solves_;
  solved_at_ = now_;
  ensure_links();
  if (!partial_found()) {
    solve_routes(active_);
  } else if (component_.size() == 1 && !routes_[component_[0]].crosses_twice) {
    solve_alone(component_[0]);
  } else if (!component_.empty()) {
    // (Empty when the changes were routes that went out of use alone on their links: a third of
    // the solves of a pairwise exchange.)
    solve_routes(component_);
  }
  for (const std::uint32_t r : changed_routes_)
    routes_[r].changed = false;
  changed_routes_.clear();
  left_links_.clear();
  changes_ = 0;
  sharing_at_solve_ = sharing_;
}

bool FlowNetwork::partial_found() {
  if (!incremental_) return false;
  if (skip_partial_ > 0) {
    --skip_partial_;
    return false;
  }
  if (!collect_changed()) {
    partial_backoff_ =
        std::min<std::uint32_t>(64, std::max<std::uint32_t>(1, 2 * partial_backoff_));
    skip_partial_ = partial_backoff_;
    return false;
  }
  partial_backoff_ = 0;
  ++partial_solves_;
  return true;
}

// A search through links and the routes crossing them, from the changed routes still in use and
// the links that released routes left. Max-min fairness of the routes it does not reach is that of
// the last solve that reached them: since then none of them, and no route sharing a link with one,
// started or ended a flow.
bool FlowNetwork::collect_changed() {
  if (++epoch_ == 0) {  // wrapped: forget every mark
    for (RouteFlows& route : routes_)
      route.seen = 0;
    for (Link& link : links_)
      link.seen = 0;
    epoch_ = 1;
  }
  // Below a few hundred routes a solve of them all costs little more than the search: no giving up.
  constexpr std::size_t kAlwaysPartial = 256;
  const std::size_t limit = std::max(kAlwaysPartial, active_.size() / 4);
  component_.clear();
  link_stack_.clear();
  auto reach_link = [&](std::uint32_t l) {
    if (links_[l].seen == epoch_) return;
    links_[l].seen = epoch_;
    link_stack_.push_back(l);
  };
  auto reach_route = [&](std::uint32_t r) {
    RouteFlows& route = routes_[r];
    if (route.seen == epoch_ || route.active_at < 0) return;
    route.seen = epoch_;
    component_.push_back(r);
    for (std::uint32_t h = 0; h < route.hops; ++h)
      reach_link(hops_[route.first_hop + h]);
  };
  for (const std::uint32_t r : changed_routes_)
    reach_route(r);
  for (const std::uint32_t l : left_links_)
    reach_link(l);
  while (!link_stack_.empty()) {
    if (component_.size() > limit) return false;
    const std::uint32_t l = link_stack_.back();
    link_stack_.pop_back();
    for (const std::uint32_t r : routes_on_link_[l])
      reach_route(r);
  }
  if (component_.size() > limit) return false;
  // The order of active_, which a solve of every route would meet them in: ties between links
  // of equal level go the same way, and so do the sums. Many routes are taken from active_ in a
  // pass, which costs less than sorting them.
  if (component_.size() * 16 > active_.size()) {
    component_.clear();
    for (const std::uint32_t r : active_)
      if (routes_[r].seen == epoch_) component_.push_back(r);
  } else {
    std::sort(component_.begin(), component_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return routes_[a].active_at < routes_[b].active_at;
    });
  }
  return true;
}

// Progressive filling of one route alone on its links: the first of its links of lowest level
// saturates, unless its bound stops it first (ties go to the bound), and a link that route fills
// exactly is full too. The same operations, in the same order, as solve_routes does for it, so the
// two give the same bits.
void FlowNetwork::solve_alone(std::uint32_t r) {
  RouteFlows& route = routes_[r];
  catch_up(route);
  const double flows = static_cast<double>(route.flows);
  const double weight_sum = flows * route.weight;
  std::uint32_t lowest = 0;
  double level = kInfinity;
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    const double key = links_[hops_[route.first_hop + h]].capacity / weight_sum;
    if (key < level) {
      level = key;
      lowest = h;
    }
  }
  const bool by_bound = route.bound_binds && route.bound / route.weight <= level;
  const double rate = by_bound ? route.bound : level * route.weight;
  route.shares = !by_bound;
  for (std::uint32_t h = 0; h < route.hops; ++h) {
    Link& link = links_[hops_[route.first_hop + h]];
    link.weight_at_solve = weight_sum;
    link.unfixed = 0;
    if (!by_bound && h == lowest) {
      link.level = level;
      link.remaining_capacity = 0;
      link.weight_sum = weight_sum;
      link.spare = 0;
      continue;
    }
    link.remaining_capacity = link.capacity - rate * flows;
    link.weight_sum = weight_sum - route.weight * flows;
    link.level = link.remaining_capacity <= 1e-9 * link.capacity
                     ? std::max(0.0, rate / route.weight)
                     : kInfinity;
    link.spare = link.level < kInfinity ? 0.0 : std::max(0.0, link.remaining_capacity);
  }
  route.rated = true;
  route.solved = rate * flows;
  if (rate != route.rate) {
    route.rate = rate;
    schedule(r);
  }
}

// Weighted max-min fairness by progressive filling, over routes in use: raise a common level λ; a
// route's flows get λ × weight each until a link of the route saturates (the routes crossing it
// are fixed at that level) or they reach the route's bound.
void FlowNetwork::solve_routes(const std::vector<std::uint32_t>& routes) {
  touched_links_.clear();
  // The first pass is where the solve meets its routes and links cold (the event loop has been
  // through other memory since the last solve): routes are asked for kRouteAhead places ahead,
  // and the links of a route kLinksAhead places ahead, so the misses overlap.
  constexpr std::size_t kRouteAhead = 8, kLinksAhead = 4;
  const std::size_t active = routes.size();
  for (std::size_t i = 0; i < active; ++i) {
    if (i + kRouteAhead < active) __builtin_prefetch(&routes_[routes[i + kRouteAhead]]);
    if (i + kLinksAhead < active) prefetch_links(routes_[routes[i + kLinksAhead]]);
    RouteFlows& route = routes_[routes[i]];
    catch_up(route);
    route.fixed = false;
    for (std::uint32_t h = 0; h < route.hops; ++h) {
      const std::uint32_t l = hops_[route.first_hop + h];
      Link& link = links_[l];
      if (link.unfixed++ == 0) {
        touched_links_.push_back(l);
        link.weight_sum = 0;
      }
      link.weight_sum += static_cast<double>(route.flows) * route.weight;
    }
  }
  // Routes grouped by link (CSR).
  std::uint32_t offset = 0;
  for (const std::uint32_t l : touched_links_) {
    Link& link = links_[l];
    link.route_start = offset;
    link.route_end = offset;
    offset += link.unfixed;
  }
  link_routes_.resize(offset);
  for (const std::uint32_t r : routes) {
    const RouteFlows& route = routes_[r];
    for (std::uint32_t h = 0; h < route.hops; ++h) {
      const std::uint32_t l = hops_[route.first_hop + h];
      link_routes_[links_[l].route_end++] = r;
    }
  }
  // A link's level only rises while the solve runs (a route leaving it was fixed at a rate no
  // higher than the lowest level), so a link's key in the queue is a lower bound of its level: it
  // is refreshed when it reaches the top, not each time one of its routes is fixed (that was one
  // heap push per route and hop, most of the solve's time at 10^5 ranks).
  auto level_now = [&](const Link& link) {
    return std::max(0.0, link.remaining_capacity) / std::max(link.weight_sum, 1e-300);
  };
  LinkQueue& queue = link_queue_;
  queue.clear();
  for (std::size_t i = 0; i < touched_links_.size(); ++i) {
    const std::uint32_t l = touched_links_[i];
    Link& link = links_[l];
    link.remaining_capacity = link.capacity;
    link.weight_at_solve = link.weight_sum;
    link.level = kInfinity;
    queue.add({link.capacity / link.weight_sum, l, static_cast<std::uint32_t>(i)});
  }
  queue.sort();
  // Leaves the link of lowest level on top with its key up to date.
  auto refresh_top = [&] {
    while (!queue.empty()) {
      const LinkLevel top = queue.top();
      const Link& link = links_[top.link];
      if (link.unfixed == 0) {
        queue.pop();
        continue;
      }
      const double level = level_now(link);
      if (!(level > top.level)) return;
      queue.pop();
      queue.raise({level, top.link, top.seq});
    }
  };
  // Routes in the order their own bound would stop them.
  std::vector<std::pair<double, std::uint32_t>>& by_bound = bound_order_;
  by_bound.clear();
  for (const std::uint32_t r : routes) {
    if (routes_[r].bound_binds) by_bound.emplace_back(routes_[r].bound / routes_[r].weight, r);
  }
  std::sort(by_bound.begin(), by_bound.end());
  std::size_t next_bound = 0;
  // Most links never saturate: every route crossing them is fixed by another link first. The
  // filling stops once every route is fixed instead of popping the rest of them (parlogna r=2 at
  // P = 65,536 on fugaku_full: 13 of 39 million pops of all its solves came after that).
  std::size_t unfixed_routes = routes.size();

  constexpr std::uint32_t kByBound = static_cast<std::uint32_t>(-1);
  auto fix = [&](std::uint32_t r, double rate, std::uint32_t saturated) {
    RouteFlows& route = routes_[r];
    route.fixed = true;
    route.shares = saturated != kByBound;
    --unfixed_routes;
    route.solved = rate;
    const double flows = static_cast<double>(route.flows);
    for (std::uint32_t h = 0; h < route.hops; ++h) {
      const std::uint32_t l = hops_[route.first_hop + h];
      Link& link = links_[l];
      --link.unfixed;
      if (l == saturated) continue;
      link.remaining_capacity -= rate * flows;
      link.weight_sum -= route.weight * flows;
    }
  };

  while (unfixed_routes > 0) {
    while (next_bound < by_bound.size() && routes_[by_bound[next_bound].second].fixed)
      ++next_bound;
    refresh_top();
    const bool have_bound = next_bound < by_bound.size();
    if (!have_bound && queue.empty()) break;
    if (have_bound && (queue.empty() || by_bound[next_bound].first <= queue.top().level)) {
      const std::uint32_t r = by_bound[next_bound++].second;
      fix(r, routes_[r].bound, kByBound);
      continue;
    }
    const LinkLevel saturated = queue.top();
    queue.pop();
    const std::uint32_t l = saturated.link;
    Link& link = links_[l];
    link.level = saturated.level;
    link.remaining_capacity = 0;
    // Every unfixed route crossing l gets the level.
    for (std::uint32_t i = link.route_start; i < link.route_end && link.unfixed > 0; ++i) {
      const std::uint32_t r = link_routes_[i];
      if (!routes_[r].fixed) fix(r, saturated.level * routes_[r].weight, l);
    }
  }
  for (const std::uint32_t l : touched_links_) {
    Link& link = links_[l];
    if (link.level == kInfinity && link.remaining_capacity <= 1e-9 * link.capacity)
      link.level = level_of_full_link(l);
    link.spare = link.level < kInfinity ? 0.0 : std::max(0.0, link.remaining_capacity);
    link.unfixed = 0;
  }
  // Only routes whose rate changed are rescheduled: their flows' ends stay in bytes, not time.
  for (const std::uint32_t r : routes) {
    RouteFlows& route = routes_[r];
    route.rated = true;
    const double rate = route.solved;
    route.solved = rate * static_cast<double>(route.flows);
    if (rate != route.rate) {
      route.rate = rate;
      schedule(r);
    }
  }
}

}  // namespace a2a::sim::scale
