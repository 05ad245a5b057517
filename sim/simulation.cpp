#include "sim/simulation.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

#include "algorithms/errors.hpp"
#include "sim/scale/scale_engine.hpp"
#include "sim/simgrid/runner.hpp"

namespace a2a::sim {

namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"simgrid", "scale"};
  return names;
}

std::unique_ptr<Simulation> make_simulation(const std::string& engine, const PlatformSpec& platform,
                                            int ranks, const SimOptions& options) {
  // simulation.full_model: false gives the model both engines share (the accuracy suite compares
  // them on it); the SimGrid engine models none of the MPI and node costs and says so.
  const PlatformSpec modelled = options.full_model ? platform : without_scale_terms(platform);
  if (engine == "simgrid") {
    if (modelled.has_scale_terms()) {
      spdlog::warn(
          "engine simgrid leaves out platform {}'s {} (engine: scale models them; "
          "simulation.full_model: false silences this)",
          platform.name, scale_term_keys(modelled));
    }
    return std::make_unique<SimGridSimulation>(modelled, ranks, options);
  }
  if (engine == "scale") return std::make_unique<ScaleSimulation>(modelled, ranks, options);
  throw InvalidParameter("unknown engine '" + engine + "' (known: simgrid, scale)");
}

std::int64_t BufferBytes::of(int rank, bool in_place) const {
  const std::int64_t sent = send[static_cast<size_t>(rank)];
  const std::int64_t received = receive[static_cast<size_t>(rank)];
  return in_place ? std::max(sent, received) : sent + received;
}

namespace {

BufferBytes count_buffer_bytes(const Workload& workload) {
  const int P = workload.ranks();
  const std::int64_t element = workload.element_bytes();
  BufferBytes out{std::vector<std::int64_t>(static_cast<size_t>(P)),
                  std::vector<std::int64_t>(static_cast<size_t>(P))};
  if (workload.balanced()) {  // every rank sends and receives the same total: rank 0's row
    const std::int64_t total = workload.run_count(0, 0, 0, 1, P) * element;
    std::fill(out.send.begin(), out.send.end(), total);
    std::fill(out.receive.begin(), out.receive.end(), total);
    return out;
  }
  if (P > kMaxSummedRanks) return {};
  // A rank's sends are its row, its receives its column: each one run sum (Workload::run_count,
  // vectorised for the random workloads; block by block, P² calls of count() were 18 % of a
  // scale-engine run at P = 16,384: docs/performance.md, stop 32).
  for (int rank = 0; rank < P; ++rank) {
    out.send[static_cast<size_t>(rank)] = workload.run_count(rank, 0, 0, 1, P) * element;
    out.receive[static_cast<size_t>(rank)] = workload.run_count(0, rank, 1, 0, P) * element;
  }
  return out;
}

}  // namespace

BufferBytes buffer_bytes(const Workload& workload) {
  static std::mutex lock;
  static std::string key;
  static BufferBytes cached;
  // A copy leaves the lock with the caller: another workload may replace the cache meanwhile.
  const std::lock_guard<std::mutex> hold(lock);
  const std::string wanted = workload.spec() + "@" + std::to_string(workload.ranks());
  if (key != wanted) {
    cached = count_buffer_bytes(workload);
    key = wanted;
  }
  return cached;
}

SimResult summarize(const std::string& label, const std::vector<RankRecord>& records, double t0,
                    int trace_ranks, const Configuration& config, const Workload& workload) {
  SimResult result;
  result.label = label;
  const int P = static_cast<int>(records.size());
  std::vector<double> finish(static_cast<size_t>(P));
  const BufferBytes buffers_bytes = buffer_bytes(workload);
  for (int r = 0; r < P; ++r) {
    const RankRecord& record = records[static_cast<size_t>(r)];
    finish[static_cast<size_t>(r)] = record.end - t0;
    result.max_per_rank.max_with(record.stats);
    if (r < static_cast<int>(buffers_bytes.send.size())) {
      const std::int64_t working =
          buffers_bytes.of(r, config.algorithm->in_place) + record.stats.temp_peak;
      result.working_bytes = std::max(result.working_bytes.value_or(0), working);
    }
    result.total.add(record.stats);
    for (const auto& [phase, seconds] : record.phase_seconds)
      result.phase_mean[phase] += seconds / P;
    result.wait_mean += record.wait_seconds / P;
    result.copy_mean += record.copy_seconds / P;
    result.intra_node_bytes += record.intra_node_bytes;
    result.inter_node_bytes += record.inter_node_bytes;
    if (r < trace_ranks) result.spans.push_back(record.spans);
  }
  result.predicted = *std::max_element(finish.begin(), finish.end());
  result.fastest = *std::min_element(finish.begin(), finish.end());
  result.median = median_of(std::move(finish));
  return result;
}

std::string unfinished_ranks(const std::vector<RankRecord>& records) {
  std::string out;
  int listed = 0, stuck = 0;
  for (size_t r = 0; r < records.size(); ++r) {
    if (records[r].finished) continue;
    ++stuck;
    if (listed < 6) {
      out += (listed ? "; " : "") + std::string("rank ") + std::to_string(r) + " in " +
             (records[r].waiting_for.empty() ? "?" : records[r].waiting_for);
      ++listed;
    }
  }
  return std::to_string(stuck) + " of " + std::to_string(records.size()) +
         " ranks never finished: " + out + (stuck > listed ? "; ..." : "");
}

}  // namespace a2a::sim
