// The cost builder of the analytic models; see cost.hpp for the step formula.
#include "sim/model/cost.hpp"

#include <algorithm>

#include "algorithms/digits.hpp"

namespace a2a::model {

void CostBuilder::Tally::add(std::uint32_t index, double amount) {
  if (index >= value.size()) value.resize(index + 1, 0);
  if (value[index] == 0) touched.push_back(index);
  value[index] += amount;
}

double CostBuilder::Tally::largest() const {
  double most = 0;
  for (std::uint32_t index : touched)
    most = std::max(most, value[index]);
  return most;
}

void CostBuilder::Tally::reset() {
  for (std::uint32_t index : touched)
    value[index] = 0;
  touched.clear();
}

CostBuilder::CostBuilder(const Machine& machine, int ranks) : machine_(machine), ranks_(ranks) {}

void CostBuilder::copy(Bytes bytes) {
  cost_.copy += static_cast<double>(bytes) * machine_.copy_beta;
}

void CostBuilder::launch(int groups) {
  cost_.launch += groups * machine_.launch;
}

void CostBuilder::round(int count) {
  cost_.rounds += count;
}

void CostBuilder::allreduce_max() {
  for (std::int64_t distance = 1; distance < ranks_; distance *= 2) {
    step({}, [&](auto emit) {
      for (int p = 0; p < ranks_; ++p)
        emit(p, static_cast<int>(mod(p + distance, ranks_)), kValueBytes);
    });
  }
}

void CostBuilder::barrier() {
  const int per_node = std::min(machine_.ranks_per_node, ranks_);
  const int nodes = (ranks_ + per_node - 1) / per_node;
  if (per_node > 1) cost_.latency += 2 * machine_.alpha_intra;
  for (int distance = 1; distance < nodes; distance *= 2) {
    step({}, [&](auto emit) {
      for (int n = 0; n < nodes; ++n)
        emit(n * per_node, (n + distance) % nodes * per_node, 0);
    });
  }
}

void CostBuilder::add_message(int src, int dst, Bytes bytes) {
  const Machine& m = machine_;
  const int from = m.node_of(src), to = m.node_of(dst);
  if (from == to) {
    any_intra_ = true;
    largest_intra_ = std::max(largest_intra_, bytes);
    return;
  }
  any_inter_ = true;
  largest_inter_ = std::max(largest_inter_, bytes);
  if (m.nic > 0) {
    const auto engine = [&m](int rank, int peer) {
      const int chosen =
          nic_engine_of(m.nic_engines, m.ranks_per_node, m.nic_engine_choice, rank, peer);
      return static_cast<std::uint32_t>(m.node_of(rank) * m.nic_engines + chosen);
    };
    node_messages_.add(2 * engine(src, dst), 1);
    node_messages_.add(2 * engine(dst, src) + 1, 1);
  }
  const auto amount = static_cast<double>(bytes);
  if (m.routes) {
    const Path path = m.routes->between(from, to);
    latency_ = std::max(latency_, path.latency);
    message_ = std::max(message_, amount * path.seconds_per_byte);
    if (bytes == 0) return;
    const std::vector<double>& capacity = m.routes->capacities();
    for (std::uint32_t link : path.links)
      link_load_.add(link, amount / capacity[link]);
  } else {
    latency_ = m.alpha;
    message_ = std::max(message_, amount * m.beta);
    if (bytes == 0) return;
    // Only the nodes' own links are known: node n's outgoing link is 2n, its incoming one 2n + 1.
    link_load_.add(2 * static_cast<std::uint32_t>(from), amount * m.beta_nic);
    link_load_.add(2 * static_cast<std::uint32_t>(to) + 1, amount * m.beta_nic);
  }
  rank_out_.add(static_cast<std::uint32_t>(src), amount);
  rank_in_.add(static_cast<std::uint32_t>(dst), amount);
}

double CostBuilder::nic_beyond(double messages, double other_seconds) const {
  const double queued = messages - (machine_.nic_pipelined ? 1.0 : 0.0);
  return std::max(0.0, queued * machine_.nic - other_seconds);
}

void CostBuilder::begin_free_running() {
  free_running_ = true;
  free_running_seconds_ = 0;
}

void CostBuilder::end_free_running() {
  free_running_ = false;
  cost_.nic += nic_beyond(free_running_messages_.largest(), free_running_seconds_);
  free_running_messages_.reset();
}

void CostBuilder::end_step(Posts posts) {
  if (!any_inter_ && !any_intra_) return;
  const Machine& m = machine_;
  const auto receives = static_cast<double>(posts.receives);
  const double matching = m.match * receives * (receives - 1) / 2;
  const double posted = static_cast<double>(posts.receives + posts.sends) * m.overhead + matching;
  const double links_start = posts.same_last_destination
                                 ? posted
                                 : static_cast<double>(posts.receives + 1) * m.overhead + matching;
  // Each branch: its latency, bandwidth and contention with o = 0, and what posting adds (>= 0).
  struct Branch {
    double latency = 0, bandwidth = 0, contention = 0, overhead = 0;
    double time() const { return latency + bandwidth + contention + overhead; }
  } inter, intra;
  if (any_inter_) {
    const double own = std::max(rank_out_.largest(), rank_in_.largest()) * m.beta_nic;
    const double shared = std::max(own, link_load_.largest());
    const double bandwidth = std::max(message_, own);
    const double slowest = std::max(message_, shared);
    // A send above the inject size is done when the receiver's acknowledgement is back.
    const double acknowledged =
        posts.waits_sends && m.inject >= 0 && largest_inter_ > m.inject ? latency_ : 0;
    inter = {latency_ + acknowledged, bandwidth, slowest - bandwidth,
             std::max(posted + message_, links_start + shared) - slowest};
  }
  if (any_intra_) {
    intra = {m.alpha_intra, static_cast<double>(largest_intra_) * m.beta_intra, 0, posted};
  }
  const Branch& slower = inter.time() >= intra.time() ? inter : intra;
  if (free_running_) {
    for (std::uint32_t engine : node_messages_.touched)
      free_running_messages_.add(engine, node_messages_.value[engine]);
    free_running_seconds_ += slower.time();
  } else {
    cost_.nic += nic_beyond(node_messages_.largest(), slower.time());
  }
  cost_.latency += slower.latency;
  cost_.bandwidth += slower.bandwidth;
  cost_.contention += slower.contention;
  cost_.overhead += slower.overhead;
  ++cost_.steps;
  rank_out_.reset();
  rank_in_.reset();
  link_load_.reset();
  node_messages_.reset();
  latency_ = message_ = 0;
  largest_intra_ = largest_inter_ = 0;
  any_inter_ = any_intra_ = false;
}

}  // namespace a2a::model
