#include "sim/scale/routes.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <limits>

#include "workloads/counter_rng.hpp"

namespace sg4 = simgrid::s4u;

namespace a2a::sim::scale {

namespace {
// Room for a detour's hops: on a dragonfly at most two injection halves and, on each side of the
// intermediate router, a local, a global and a local link (8); a reused hop list must fit any.
constexpr std::uint32_t kDetourHops = 12;
// Detours let go that stay findable: at least this many, and as many as are held (a bound that
// grows with what a run holds anyway). Keeping none, a linear exchange under UGAL (P = 2,048 on
// polaris, 4 million messages) rebuilt its detours from SimGrid when it drew them again and ran
// 1.1-1.5x slower than when all were kept (docs/performance.md, stop 37).
constexpr std::size_t kUnheldKept = 65536;
}  // namespace

RouteTable::RouteTable(const BuiltPlatform& platform, double node_memory_bandwidth)
    : platform_(platform),
      node_memory_bandwidth_(node_memory_bandwidth),
      // SimGrid bounds every flow by its TCP window: rate <= gamma / (2 * latency).
      tcp_gamma_(simgrid::config::get_value<double>("network/TCP-gamma")),
      min_latency_(std::numeric_limits<double>::infinity()) {
  for (const sg4::Link* link : sg4::Engine::get_instance()->get_all_links())
    min_latency_ = std::min(min_latency_, link->get_latency());
  if (platform.injection_by_caller)
    min_latency_ = std::min(min_latency_, platform.injection_by_caller->latency);
  if (!(min_latency_ < std::numeric_limits<double>::infinity())) min_latency_ = 0;
}

std::size_t RouteTable::MixedHash::operator()(std::uint64_t key) const {
  return workload_rng::mix64(key);
}
std::size_t RouteTable::MixedHash::operator()(const void* key) const {
  return workload_rng::mix64(reinterpret_cast<std::uintptr_t>(key));
}

RouteTable::LinkInfo RouteTable::link_info(const sg4::Link* link) {
  auto [it, added] = links_.try_emplace(link);
  if (added) {
    LinkInfo& info = it.value();
    info.latency = link->get_latency();
    info.bandwidth = link->get_bandwidth();
    info.fatpipe = link->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE;
    if (!info.fatpipe) {
      info.index = static_cast<std::uint32_t>(capacity_.size());
      capacity_.push_back(info.bandwidth);
    }
  }
  return it->second;
}

std::uint32_t RouteTable::memory_link(int node) {
  auto [it, added] = memory_links_.emplace(node, static_cast<std::uint32_t>(capacity_.size()));
  if (added) capacity_.push_back(node_memory_bandwidth_);
  return it->second;
}

std::uint32_t RouteTable::injection_link(int node, bool sending) {
  const std::uint64_t key = static_cast<std::uint64_t>(node) * 2 + (sending ? 0 : 1);
  auto [it, added] = injection_links_.emplace(key, static_cast<std::uint32_t>(capacity_.size()));
  if (added) capacity_.push_back(platform_.injection_by_caller->bandwidth);
  return it->second;
}

Route RouteTable::between(int src, int dst) {
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32) |
                            static_cast<std::uint32_t>(dst);
  auto found = by_pair_.find(key);
  if (found != by_pair_.end()) return routes_[found->second];

  std::vector<sg4::Link*> links;
  double latency = 0;
  platform_.hosts[static_cast<size_t>(src)]->route_to(platform_.hosts[static_cast<size_t>(dst)],
                                                      links, &latency);
  Route route;
  if (src != dst && platform_.injection_by_caller) {
    const double nic_latency = platform_.injection_by_caller->latency;
    route = make_route(links, latency + nic_latency + nic_latency, src, dst);
  } else {
    route = make_route(links, latency);
  }
  if (src == dst && node_memory_bandwidth_ > 0) {
    hops_.push_back(memory_link(src));
    ++route.hops;
  }
  finish(route);
  by_pair_.emplace(key, route.id);
  return route;
}

Route RouteTable::through(int src, int dst, int via) {
  const std::uint64_t n = platform_.machine_hosts.size();
  const std::uint64_t key =
      (static_cast<std::uint64_t>(src) * n + static_cast<std::uint64_t>(dst)) * n +
      static_cast<std::uint64_t>(via);
  const auto found = by_detour_.find(key);
  if (found != by_detour_.end()) return routes_[found->second];
  to_via_.clear();
  from_via_.clear();
  double unused = 0;
  sg4::Host* middle = platform_.machine_hosts[static_cast<size_t>(via)];
  platform_.hosts[static_cast<size_t>(src)]->route_to(middle, to_via_, &unused);
  middle->route_to(platform_.hosts[static_cast<size_t>(dst)], from_via_, &unused);
  // Drop via's node links: the last hop into via and the first hop out of it.
  to_via_.pop_back();
  to_via_.insert(to_via_.end(), from_via_.begin() + 1, from_via_.end());
  Route route = make_route(to_via_, std::nullopt);
  route.detour = true;
  place_detour(route);
  finish(route);
  by_detour_.emplace(key, route.id);
  detour_key_[route.id] = key;
  return route;
}

void RouteTable::place_detour(Route& route) {
  const std::uint32_t built_at = route.first;
  if (route.hops > kDetourHops) return;  // not on a dragonfly: kept where it was built
  while (unheld_.size() > std::max(kUnheldKept, held_)) {
    const std::uint32_t id = unheld_.back();
    unheld_.pop_back();
    Route& old = routes_[id];
    old.queued = false;
    if (old.holders > 0) continue;  // held again since it was let go
    by_detour_.erase(detour_key_[id]);
    const std::uint32_t first = old.first;
    std::copy_n(hops_.begin() + built_at, route.hops, hops_.begin() + first);
    hops_.resize(built_at);
    route.id = id;
    route.first = first;
    return;
  }
  hops_.resize(built_at + kDetourHops, 0);
}

void RouteTable::hold(const Route& route) {
  if (route.detour && routes_[route.id].holders++ == 0) ++held_;
}

void RouteTable::release(const Route& route) {
  if (!route.detour || --routes_[route.id].holders > 0) return;
  --held_;
  let_go(routes_[route.id]);
}

void RouteTable::let_go_if_unheld(const Route& route) {
  if (route.detour && routes_[route.id].holders == 0) let_go(routes_[route.id]);
}

void RouteTable::let_go(Route& detour) {
  if (detour.queued || detour.hops > kDetourHops) return;
  detour.queued = true;
  unheld_.push_back(detour.id);
}

Route RouteTable::make_route(const std::vector<sg4::Link*>& links, std::optional<double> latency,
                             int sender, int receiver) {
  Route route;
  route.id = static_cast<std::uint32_t>(routes_.size());
  route.first = static_cast<std::uint32_t>(hops_.size());
  route.latency = latency.value_or(0);
  route.bound = std::numeric_limits<double>::infinity();
  auto add_injection = [&](int node, bool sending) {
    if (node < 0) return;
    route.bound = std::min(route.bound, platform_.injection_by_caller->bandwidth);
    hops_.push_back(injection_link(node, sending));
    ++route.hops;
  };
  add_injection(sender, true);
  const bool sum_latency = !latency;
  for (const sg4::Link* link : links) {
    const LinkInfo info = link_info(link);
    if (sum_latency) route.latency += info.latency;
    route.bound = std::min(route.bound, info.bandwidth);
    // A fatpipe gives every flow its full bandwidth: a bound, not a shared constraint.
    if (info.fatpipe) continue;
    hops_.push_back(info.index);
    ++route.hops;
  }
  add_injection(receiver, false);
  return route;
}

void RouteTable::finish(Route& route) {
  if (route.latency > 0 && tcp_gamma_ > 0)
    route.bound = std::min(route.bound, tcp_gamma_ / (2 * route.latency));
  double slowest_shared = std::numeric_limits<double>::infinity();
  for (std::uint32_t h = 0; h < route.hops; ++h)
    slowest_shared = std::min(slowest_shared, capacity_[hops_[route.first + h]]);
  route.bound_binds = route.bound < slowest_shared;
  if (route.id < routes_.size()) {  // the id of a detour forgotten, reused
    routes_[route.id] = route;
    return;
  }
  routes_.push_back(route);
  if (route.detour) detour_key_.resize(routes_.size());
}

}  // namespace a2a::sim::scale
