// The analytic models' entry point: which function models which algorithm, and the exchange
// summaries they share; see model.hpp.
#include "sim/model/model.hpp"

#include <algorithm>
#include <map>

#include "algorithms/errors.hpp"
#include "sim/model/families.hpp"

namespace a2a::model {

namespace {

const std::map<std::string, Model>& models() {
  static const std::map<std::string, Model> table = {
      {"spread_out", spread_out},
      {"scattered", scattered},
      {"ompi_linear", ompi_linear},
      {"ompi_pairwise", ompi_pairwise},
      {"xor_pairwise", xor_pairwise},
      {"vendor", vendor},
      {"bruck_basic", bruck_basic},
      {"bruck_modified", bruck_modified},
      {"bruck_zero_copy", bruck_zero_copy},
      {"bruck_zero_rotation", bruck_zero_rotation},
      {"bruck_radix", bruck_radix},
      {"padded_bruck", padded_bruck},
      {"padded_alltoall", padded_alltoall},
      {"two_phase_bruck", two_phase_bruck},
      {"parlogna", parlogna},
      {"parlinna_coalesced", parlinna_coalesced},
      {"parlinna_staggered", parlinna_staggered},
      {"hierarchical_bruck", hierarchical_bruck},
      {"bitonic_inplace", bitonic_inplace},
  };
  return table;
}

}  // namespace

Model model_of(const std::string& name) {
  const auto found = models().find(name);
  if (found == models().end()) throw InvalidParameter("no analytic model for algorithm " + name);
  return found->second;
}

Bytes Exchange::uniform_block(const char* algorithm) const {
  if (!workload_.uniform())
    throw NotApplicable(std::string(algorithm) + " needs a uniform exchange (equal blocks)");
  return block(0, 0);
}

void Exchange::summarize() const {
  if (summary_) return;
  Summary s;
  const int P = ranks();
  std::vector<Bytes> received(static_cast<size_t>(P), 0);
  for (int src = 0; src < P; ++src) {
    Bytes sent = 0;
    for (int dst = 0; dst < P; ++dst) {
      const Bytes bytes = block(src, dst);
      sent += bytes;
      received[static_cast<size_t>(dst)] += bytes;
      s.largest = std::max(s.largest, bytes);
    }
    s.sent = std::max(s.sent, sent);
    s.self = std::max(s.self, block(src, src));
  }
  s.received = *std::max_element(received.begin(), received.end());
  summary_ = s;
}

Bytes Exchange::largest_block() const {
  summarize();
  return summary_->largest;
}
Bytes Exchange::largest_self() const {
  summarize();
  return summary_->self;
}
Bytes Exchange::most_sent() const {
  summarize();
  return summary_->sent;
}
Bytes Exchange::most_received() const {
  summarize();
  return summary_->received;
}

Cost model_cost(const Configuration& config, const Workload& workload, const Machine& machine,
                const std::string& vendor) {
  const Model model = model_of(config.algorithm->name);
  const Exchange exchange(workload, vendor);
  CostBuilder cost(machine, workload.ranks());
  model(config, exchange, cost);
  return cost.cost();
}

bool has_model(const AlgorithmInfo& algorithm) {
  return models().count(algorithm.name) > 0;
}

std::vector<std::string> modeled_algorithms() {
  std::vector<std::string> out;
  for (const AlgorithmInfo& info : catalog()) {
    if (has_model(info)) out.push_back(info.name);
  }
  return out;
}

}  // namespace a2a::model
