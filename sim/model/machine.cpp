// Machine parameters of the analytic models from a platform's routes; see machine.hpp.
#include "sim/model/machine.hpp"

#include <algorithm>
#include <vector>

#include "sim/scale/routes.hpp"

namespace a2a::model {

namespace {

// Up to this many nodes are paired all with all; beyond, that many evenly spaced nodes are.
constexpr int kSampledNodes = 64;

// The simulators' route table behind the models' interface.
class PlatformRoutes final : public Routes {
 public:
  explicit PlatformRoutes(const BuiltPlatform& built) : table_(built) {}
  Path between(int src_node, int dst_node) override {
    const sim::scale::Route route = table_.between(src_node, dst_node);
    return {route.latency, 1 / route.bound,
            std::span<const std::uint32_t>(table_.hops()).subspan(route.first, route.hops)};
  }
  const std::vector<double>& capacities() const override { return table_.capacities(); }

 private:
  sim::scale::RouteTable table_;
};

std::vector<int> sampled_nodes(int nodes) {
  const int count = std::min(nodes, kSampledNodes);
  std::vector<int> out;
  for (int i = 0; i < count; ++i)
    out.push_back(static_cast<int>(static_cast<std::int64_t>(i) * nodes / count));
  return out;
}

}  // namespace

Machine node_costs_of(const PlatformSpec& spec) {
  Machine machine;
  machine.alpha_intra = spec.intra_node.latency;
  machine.beta_intra = 1 / spec.intra_node.bandwidth;
  machine.overhead = spec.message_overhead;
  machine.copy_beta = spec.memory_copy_bandwidth > 0 ? 1 / spec.memory_copy_bandwidth : 0;
  machine.launch = spec.group_launch_overhead;
  machine.nic = spec.nic_message_time;
  machine.nic_engines = spec.nic_engines;
  machine.nic_engine_choice = spec.nic_engine_choice;
  machine.nic_pipelined = spec.nic_pipelined;
  machine.match = spec.match_time;
  machine.inject = spec.inject_size;
  machine.ranks_per_node = spec.ranks_per_node;
  return machine;
}

Machine machine_of(const BuiltPlatform& built, const PlatformSpec& spec, int ranks) {
  Machine machine = node_costs_of(spec);
  const int nodes = (ranks + spec.ranks_per_node - 1) / spec.ranks_per_node;
  if (nodes < 2) return machine;  // every message stays on the node
  auto routes = std::make_shared<PlatformRoutes>(built);
  const std::vector<int> sample = sampled_nodes(nodes);
  double latency = 0, seconds_per_byte = 0, slowest_nic = 0;
  int pairs = 0;
  for (int src : sample) {
    for (int dst : sample) {
      if (src == dst) continue;
      const Path path = routes->between(src, dst);
      latency += path.latency;
      seconds_per_byte += path.seconds_per_byte;
      // The route's first and last shared links are the two nodes' own links.
      if (!path.links.empty()) {
        const auto& capacity = routes->capacities();
        const double own = std::min(capacity[path.links.front()], capacity[path.links.back()]);
        slowest_nic = std::max(slowest_nic, 1 / own);
      }
      ++pairs;
    }
  }
  machine.routes = routes;
  machine.alpha = latency / pairs;
  machine.beta = seconds_per_byte / pairs;
  machine.beta_nic = slowest_nic > 0 ? slowest_nic : machine.beta;
  return machine;
}

}  // namespace a2a::model
