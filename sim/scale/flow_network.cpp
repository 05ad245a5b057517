#include "sim/scale/flow_network.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

namespace a2a::sim::scale {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

FlowNetwork::FlowNetwork(const std::vector<double>& capacities,
                         const std::vector<std::uint32_t>& hops, double tolerance)
    : capacity_(capacities), hops_(hops), tolerance_(tolerance) {}

void FlowNetwork::ensure_links() {
  const std::size_t n = capacity_.size();
  for (std::size_t l = level_.size(); l < n; ++l) {
    level_.push_back(kInfinity);
    spare_.push_back(capacity_[l]);
    weight_at_solve_.push_back(0);
  }
  remaining_capacity_.resize(n);
  weight_sum_.resize(n);
  link_version_.resize(n);
  link_unfixed_.resize(n);
  link_flow_start_.resize(n);
  link_flow_end_.resize(n);
}

std::uint32_t FlowNetwork::new_flow() {
  std::uint32_t f;
  if (!free_.empty()) {
    f = free_.back();
    free_.pop_back();
  } else {
    f = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
  }
  const std::uint32_t version = flows_[f].version + 1;  // outdates events of the slot's last flow
  flows_[f] = Flow{};
  flows_[f].version = version;
  return f;
}

void FlowNetwork::push(Event event) {
  events_.push_back(event);
  std::push_heap(events_.begin(), events_.end(), std::greater<>{});
}

void FlowNetwork::start(double start, const Route& route, double bytes, std::uint64_t token) {
  ensure_links();
  const std::uint32_t f = new_flow();
  Flow& flow = flows_[f];
  flow.remaining = bytes;
  flow.updated = start;
  flow.weight = 1.0 / std::max(route.latency, 1e-12);
  flow.bound = route.bound;
  flow.bound_binds = route.bound_binds;
  flow.token = token;
  flow.first_hop = route.first;
  flow.hops = route.hops;
  push({std::max(start + route.latency, now_), f, flow.version, EventKind::activate});
}

double FlowNetwork::provisional_rate(const Flow& flow) {
  double rate = flow.bound;
  for (std::uint32_t h = 0; h < flow.hops; ++h) {
    const std::uint32_t l = hops_[flow.first_hop + h];
    if (level_[l] < kInfinity) {
      rate = std::min(rate, level_[l] * flow.weight);
    } else if (spare_[l] > 1e-3 * capacity_[l]) {
      rate = std::min(rate, spare_[l]);
    } else {
      rate = std::min(rate, capacity_[l] * flow.weight / (weight_at_solve_[l] + flow.weight));
    }
  }
  for (std::uint32_t h = 0; h < flow.hops; ++h) {
    const std::uint32_t l = hops_[flow.first_hop + h];
    if (level_[l] == kInfinity) spare_[l] = std::max(0.0, spare_[l] - rate);
  }
  return rate;
}

void FlowNetwork::schedule_completion(std::uint32_t f) {
  Flow& flow = flows_[f];
  ++flow.version;
  const double seconds = flow.remaining <= 0 ? 0 : flow.remaining / flow.rate;
  push({flow.updated + seconds, f, flow.version, EventKind::complete});
}

void FlowNetwork::activate(std::uint32_t f) {
  Flow& flow = flows_[f];
  flow.updated = now_;
  if (flow.remaining <= 0 || flow.hops == 0) {
    flow.rate = flow.bound;  // nothing to share: the loopback, or an empty message
  } else {
    flow.active_at = static_cast<std::int32_t>(active_.size());
    active_.push_back(f);
    ++changes_;
    flow.rate = provisional_rate(flow);
  }
  schedule_completion(f);
}

void FlowNetwork::finish(std::uint32_t f, std::vector<std::uint64_t>& completed) {
  Flow& flow = flows_[f];
  if (flow.active_at >= 0) {
    const std::uint32_t last = active_.back();
    active_[static_cast<std::size_t>(flow.active_at)] = last;
    flows_[last].active_at = flow.active_at;
    active_.pop_back();
    flow.active_at = -1;
    ++changes_;
  }
  completed.push_back(flow.token);
  ++flow.version;
  free_.push_back(f);
}

void FlowNetwork::maybe_solve() {
  if (changes_ == 0) return;
  const double threshold = std::max(1.0, tolerance_ * static_cast<double>(active_at_solve_));
  if (static_cast<double>(changes_) >= threshold) solve();
}

double FlowNetwork::next_time() {
  for (;;) {
    while (!events_.empty()) {
      const Event& top = events_.front();
      if (top.kind == EventKind::activate || top.version == flows_[top.flow].version) break;
      std::pop_heap(events_.begin(), events_.end(), std::greater<>{});
      events_.pop_back();
    }
    if (events_.empty()) return kInfinity;
    // Rates only matter for the future: solve once every event at the current time is in.
    if (events_.front().time > now_ && changes_ > 0) {
      const std::int64_t before = solves_;
      maybe_solve();
      if (solves_ != before) continue;  // completion times moved
    }
    return events_.front().time;
  }
}

double FlowNetwork::step(std::vector<std::uint64_t>& completed) {
  const double time = next_time();
  if (time == kInfinity) return time;
  now_ = time;
  while (!events_.empty() && events_.front().time <= time) {
    const Event event = events_.front();
    std::pop_heap(events_.begin(), events_.end(), std::greater<>{});
    events_.pop_back();
    if (event.kind == EventKind::activate) {
      activate(event.flow);
    } else if (event.version == flows_[event.flow].version) {
      finish(event.flow, completed);
    }
  }
  if (events_.size() > 4 * in_flight() + 4096) compact_events();
  return time;
}

void FlowNetwork::compact_events() {
  std::erase_if(events_, [&](const Event& e) {
    return e.kind == EventKind::complete && e.version != flows_[e.flow].version;
  });
  std::make_heap(events_.begin(), events_.end(), std::greater<>{});
}

// Weighted max-min fairness by progressive filling: raise a common level λ; a flow gets
// λ × weight until a link on its route saturates (the flows crossing it are fixed at that
// level) or it reaches its own bound.
void FlowNetwork::solve() {
  ++solves_;
  ensure_links();
  touched_links_.clear();
  for (const std::uint32_t f : active_) {
    Flow& flow = flows_[f];
    flow.remaining = std::max(0.0, flow.remaining - flow.rate * (now_ - flow.updated));
    flow.updated = now_;
    flow.fixed = false;
    for (std::uint32_t h = 0; h < flow.hops; ++h) {
      const std::uint32_t l = hops_[flow.first_hop + h];
      if (link_unfixed_[l]++ == 0) {
        touched_links_.push_back(l);
        weight_sum_[l] = 0;
      }
      weight_sum_[l] += flow.weight;
    }
  }
  // Flows grouped by link (CSR).
  std::uint32_t offset = 0;
  for (const std::uint32_t l : touched_links_) {
    link_flow_start_[l] = offset;
    offset += link_unfixed_[l];
  }
  link_flows_.resize(offset);
  for (const std::uint32_t l : touched_links_)
    link_flow_end_[l] = link_flow_start_[l];
  for (const std::uint32_t f : active_) {
    const Flow& flow = flows_[f];
    for (std::uint32_t h = 0; h < flow.hops; ++h) {
      const std::uint32_t l = hops_[flow.first_hop + h];
      link_flows_[link_flow_end_[l]++] = f;
    }
  }
  struct LinkLevel {
    double level;
    std::uint32_t link;
    std::uint32_t version;
    bool operator>(const LinkLevel& o) const { return level > o.level; }
  };
  std::vector<LinkLevel> heap;
  heap.reserve(touched_links_.size());
  for (const std::uint32_t l : touched_links_) {
    link_version_[l] = 0;
    remaining_capacity_[l] = capacity_[l];
    weight_at_solve_[l] = weight_sum_[l];
    level_[l] = kInfinity;
    heap.push_back({capacity_[l] / weight_sum_[l], l, 0});
  }
  std::make_heap(heap.begin(), heap.end(), std::greater<>{});
  // Flows in the order their own bound would stop them.
  std::vector<std::pair<double, std::uint32_t>> by_bound;
  for (const std::uint32_t f : active_) {
    if (flows_[f].bound_binds) by_bound.emplace_back(flows_[f].bound / flows_[f].weight, f);
  }
  std::sort(by_bound.begin(), by_bound.end());
  std::size_t next_bound = 0;

  auto fix = [&](std::uint32_t f, double rate, std::uint32_t saturated) {
    Flow& flow = flows_[f];
    flow.fixed = true;
    flow.rate = rate;
    for (std::uint32_t h = 0; h < flow.hops; ++h) {
      const std::uint32_t l = hops_[flow.first_hop + h];
      --link_unfixed_[l];
      if (l == saturated) continue;
      remaining_capacity_[l] -= rate;
      weight_sum_[l] -= flow.weight;
      if (link_unfixed_[l] > 0) {
        const double level =
            std::max(0.0, remaining_capacity_[l]) / std::max(weight_sum_[l], 1e-300);
        heap.push_back({level, l, ++link_version_[l]});
        std::push_heap(heap.begin(), heap.end(), std::greater<>{});
      }
    }
  };

  for (;;) {
    while (next_bound < by_bound.size() && flows_[by_bound[next_bound].second].fixed)
      ++next_bound;
    while (!heap.empty() && (heap.front().version != link_version_[heap.front().link] ||
                             link_unfixed_[heap.front().link] == 0)) {
      std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
      heap.pop_back();
    }
    const bool have_bound = next_bound < by_bound.size();
    if (!have_bound && heap.empty()) break;
    if (have_bound && (heap.empty() || by_bound[next_bound].first <= heap.front().level)) {
      const std::uint32_t f = by_bound[next_bound++].second;
      fix(f, flows_[f].bound, static_cast<std::uint32_t>(-1));
      continue;
    }
    const LinkLevel saturated = heap.front();
    std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
    heap.pop_back();
    const std::uint32_t l = saturated.link;
    level_[l] = saturated.level;
    remaining_capacity_[l] = 0;
    ++link_version_[l];
    // Every unfixed flow crossing l gets the level.
    for (std::uint32_t i = link_flow_start_[l]; i < link_flow_end_[l] && link_unfixed_[l] > 0;
         ++i) {
      const std::uint32_t f = link_flows_[i];
      if (!flows_[f].fixed) fix(f, saturated.level * flows_[f].weight, l);
    }
  }
  for (const std::uint32_t l : touched_links_) {
    spare_[l] = level_[l] < kInfinity ? 0.0 : std::max(0.0, remaining_capacity_[l]);
    link_unfixed_[l] = 0;
  }
  for (const std::uint32_t f : active_)
    schedule_completion(f);
  changes_ = 0;
  active_at_solve_ = active_.size();
}

}  // namespace a2a::sim::scale
