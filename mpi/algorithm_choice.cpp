#include "mpi/algorithm_choice.hpp"

#include <climits>
#include <map>
#include <mutex>
#include <tuple>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

AlgorithmChoice AlgorithmChoice::fixed(const std::string& spec) {
  configure(spec, INT_MAX, 1);  // throws for unknown names and keys, non-integers, values < min
  AlgorithmChoice choice;
  choice.spec_ = spec;
  return choice;
}

AlgorithmChoice AlgorithmChoice::tuned(const std::string& path) {
  AlgorithmChoice choice;
  choice.table_ = std::make_shared<const TuningTable>(TuningTable::read(path));
  return choice;
}

bool AlgorithmChoice::depends_on_block(Collective collective, int ranks) const {
  return table_ && table_->depends_on_block(collective, ranks);
}

std::string AlgorithmChoice::spec_for(Collective collective, int ranks, std::int64_t block_bytes,
                                      std::string& why) const {
  if (!table_) return spec_;
  if (const TuningRow* row = table_->find(collective, ranks, block_bytes)) {
    return row->algorithm;
  }
  why = "no row of " + table_->path() + " matches " + collective_name(collective) + " on " +
        std::to_string(ranks) + " ranks with " + std::to_string(block_bytes) + "-byte blocks";
  return "vendor";
}

std::string AlgorithmChoice::describe() const {
  return table_ ? "tuning table " + table_->path() : spec_;
}

Resolved configured(const std::string& spec, int ranks, int ranks_per_node) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, int, int>, Resolved> cache;
  static std::map<std::tuple<std::string, int, int>, Configuration> configs;
  std::lock_guard<std::mutex> guard(mutex);
  const auto key = std::make_tuple(spec, ranks, ranks_per_node);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Resolved resolved;
  try {
    auto [at, added] = configs.emplace(key, configure(spec, ranks, ranks_per_node));
    resolved.config = &at->second;
  } catch (const InvalidParameter& error) {
    resolved.problem = error.what();
  }
  cache.emplace(key, resolved);
  return resolved;
}

}  // namespace a2a::mpi
