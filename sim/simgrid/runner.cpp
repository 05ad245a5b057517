#include "sim/simgrid/runner.hpp"

#include <algorithm>
#include <chrono>

#include "algorithms/errors.hpp"
#include "sim/simgrid/platform_instance.hpp"
#include "sim/simgrid/sim_comm.hpp"
#include "sim/vendor_model.hpp"

namespace sg4 = simgrid::s4u;

namespace a2a::sim {

SimGridSimulation::SimGridSimulation(const PlatformSpec& platform, int ranks, SimOptions options)
    : platform_(platform), ranks_(ranks), options_(std::move(options)) {
  check_fits(platform_, ranks_);
  vendor_choice(options_.vendor, ranks_, platform_.ranks_per_node);  // validates the name
  built_ = &simgrid_platform(platform_, ranks_, options_);
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
  world.built = built_;
  world.workload = &workload;
  world.ranks = P;
  world.payload = options_.payload;
  world.trace_ranks = options_.trace_ranks;
  world.records.resize(P);
  if (config.algorithm->family == Family::vendor) {
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
    sg4::Actor::create("rank" + std::to_string(r), world.host_of(r), [this, &world, &config, r] {
      RankRecord& record = world.records[r];
      record.start = sg4::Engine::get_clock();
      try {
        SimComm comm(world, r);
        const std::unique_ptr<Comm> wrapped = wrapper_ ? wrapper_(comm, r) : nullptr;
        config.algorithm->run(wrapped ? *wrapped : comm, config.params);
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
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (!world.first_error.empty()) {
    throw Error(config.label() + ": " + world.first_error);
  }
  if (std::any_of(world.records.begin(), world.records.end(),
                  [](const RankRecord& r) { return !r.finished; })) {
    throw Error(config.label() + ": deadlock: " + unfinished_ranks(world.records));
  }
  SimResult result =
      summarize(config.label(), world.records, t0, options_.trace_ranks, config, workload);
  result.wall_seconds = wall_seconds;
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
