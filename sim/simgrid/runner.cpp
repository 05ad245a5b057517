#include "sim/simgrid/runner.hpp"

#include <algorithm>
#include <chrono>

#include "algorithms/errors.hpp"
#include "sim/simgrid/sim_comm.hpp"
#include "sim/vendor_model.hpp"

namespace sg4 = simgrid::s4u;

namespace a2a::sim {

namespace {

// SimGrid allows one engine per process; it is created on first use and reused by every run.
sg4::Engine& engine(const SimOptions& options) {
  static std::unique_ptr<sg4::Engine> instance;
  static bool platform_built = false;
  if (!instance) {
    static int argc = 4;
    static const char* argv[] = {"a2a", "--log=root.thres:error",
                                 "--log=ker_engine.app:file:/dev/null",
                                 "--log=xbt_cfg.thres:warning", nullptr};
    instance = std::make_unique<sg4::Engine>(&argc, const_cast<char**>(argv));
    sg4::Engine::set_config("network/model:" + options.network_model);
    // The max-min solver compares rates (bytes/s, here 10^9-10^11) with an absolute precision;
    // SimGrid's default of 1e-5 B/s is below the rounding residue of such rates and aborts
    // ("Cannot saturate more a constraint"). 1e-3 B/s is still 12 orders below any link.
    sg4::Engine::set_config("maxmin/precision:1e-3");
    sg4::Engine::set_config("network/crosstraffic:" +
                            std::string(options.crosstraffic ? "1" : "0"));
    // Algorithms keep O(r + log P) state on the stack: small stacks let 10^4-10^5 actors fit.
    sg4::Engine::set_config("contexts/stack-size:128");
  } else if (platform_built) {
    throw Error("one platform per process: SimGrid cannot build a second platform");
  }
  platform_built = true;
  return *instance;
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string unfinished_ranks(const World& world) {
  std::string out;
  int listed = 0, stuck = 0;
  for (int r = 0; r < world.ranks; ++r) {
    if (world.records[r].finished) continue;
    ++stuck;
    if (listed < 6) {
      out += (listed ? "; " : "") + std::string("rank ") + std::to_string(r) + " in " +
             (world.records[r].waiting_for.empty() ? "?" : world.records[r].waiting_for);
      ++listed;
    }
  }
  return std::to_string(stuck) + " of " + std::to_string(world.ranks) +
         " ranks never finished: " + out + (stuck > listed ? "; ..." : "");
}

}  // namespace

SimGridSimulation::SimGridSimulation(const PlatformSpec& platform, int ranks, SimOptions options)
    : platform_(platform), ranks_(ranks), options_(std::move(options)) {
  check_fits(platform_, ranks_);
  vendor_choice(options_.vendor, ranks_, platform_.ranks_per_node);  // validates the name
  sg4::Engine& e = engine(options_);
  built_ = build_platform(e, platform_, ranks_);
}

SimGridSimulation::~SimGridSimulation() = default;

SimResult SimGridSimulation::run(const Configuration& config, const Workload& workload,
                                 LayoutStyle layout) {
  const int P = workload.ranks();
  if (P > ranks_) {
    throw InvalidParameter("workload has " + std::to_string(P) +
                           " ranks; the platform was built for " + std::to_string(ranks_));
  }
  World world;
  world.platform = &platform_;
  world.built = &built_;
  world.workload = &workload;
  world.ranks = P;
  world.payload = options_.payload;
  world.trace_ranks = options_.trace_ranks;
  world.records.resize(P);
  if (config.algorithm->name == "vendor") {
    world.vendor_alltoallv = vendor_choice(options_.vendor, P, platform_.ranks_per_node);
  }
  if (options_.payload) {
    world.payloads.resize(P);
    for (int r = 0; r < P; ++r) {
      world.payloads[r].layout = make_layout(workload, r, layout);
      validate_layout(world.payloads[r].layout, r);
      world.payloads[r].buffers = make_buffers(world.payloads[r].layout, r);
    }
  }
  const auto wall_start = std::chrono::steady_clock::now();
  const double t0 = sg4::Engine::get_clock();
  for (int r = 0; r < P; ++r) {
    sg4::Actor::create("rank" + std::to_string(r), world.host_of(r), [&world, &config, r] {
      RankRecord& record = world.records[r];
      record.start = sg4::Engine::get_clock();
      try {
        SimComm comm(world, r);
        config.algorithm->run(comm, config.params);
        if (comm.outstanding() != 0) {
          throw ContractViolation(std::to_string(comm.outstanding()) +
                                  " requests were never waited for");
        }
        comm.finish_phases();
        record.end = sg4::Engine::get_clock();
        record.finished = true;
      } catch (const std::exception& error) {
        // a2a errors, and SimGrid's network/cancel exceptions on peers of a failed rank.
        // (SimGrid's forceful kill is not a std::exception and unwinds through.)
        if (world.first_error.empty()) {
          world.first_error = "rank " + std::to_string(r) + ": " + error.what();
        }
      }
    });
  }
  sg4::Engine::get_instance()->run();
  SimResult result;
  result.label = config.label();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (!world.first_error.empty()) {
    throw Error(config.label() + ": " + world.first_error);
  }
  if (std::any_of(world.records.begin(), world.records.end(),
                  [](const RankRecord& r) { return !r.finished; })) {
    throw Error(config.label() + ": deadlock: " + unfinished_ranks(world));
  }
  std::vector<double> finish(P);
  for (int r = 0; r < P; ++r) {
    const RankRecord& record = world.records[r];
    finish[r] = record.end - t0;
    result.max_per_rank.max_with(record.stats);
    result.total.add(record.stats);
    for (const auto& [label, seconds] : record.phase_seconds)
      result.phase_mean[label] += seconds / P;
    result.wait_mean += record.wait_seconds / P;
    result.copy_mean += record.copy_seconds / P;
    result.intra_node_bytes += record.intra_node_bytes;
    result.inter_node_bytes += record.inter_node_bytes;
    if (r < options_.trace_ranks) result.spans.push_back(record.spans);
  }
  result.predicted = *std::max_element(finish.begin(), finish.end());
  result.fastest = *std::min_element(finish.begin(), finish.end());
  result.median = median_of(finish);
  if (options_.payload) {
    result.check = "pass";
    for (int r = 0; r < P; ++r) {
      const RankPayload& payload = world.payloads[r];
      std::string problem =
          describe_mismatch(payload.layout, payload.buffers.expected, payload.buffers.recv);
      if (!problem.empty()) {
        result.check = "FAIL rank " + std::to_string(r) + ": " + problem;
        break;
      }
    }
  }
  return result;
}

}  // namespace a2a::sim
