#include "sim/recorder/recorder.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "algorithms/errors.hpp"
#include "sim/recorder/recording_comm.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::sim::recorder {

namespace {

double simulated_clock() {
  return simgrid::s4u::Engine::get_clock();
}

SimOptions payload_options(const std::string& vendor) {
  SimOptions options;
  options.payload = true;
  options.vendor = vendor;
  return options;
}

// "round 2 · messages + local copies", from what the step holds.
std::string step_label(const Step& step) {
  bool copies = false, memory = false;
  for (const Op& op : step.ops) {
    copies = copies || op.kind == Op::Kind::copy;
    memory = memory || op.kind == Op::Kind::alloc || op.kind == Op::Kind::free;
  }
  std::vector<std::string> parts;
  if (!step.messages.empty()) parts.push_back("messages");
  if (step.collectives > 0) parts.push_back("allreduce");
  if (copies) parts.push_back("local copies");
  if (parts.empty() && memory) parts.push_back("temporary buffers");
  std::string label = step.round == 0 ? "setup" : "round " + std::to_string(step.round);
  for (size_t i = 0; i < parts.size(); ++i)
    label += (i == 0 ? " · " : " + ") + parts[i];
  return label;
}

RankBuffers rank_buffers(const ExchangeLayout& layout) {
  RankBuffers out;
  out.send_bytes = layout.send_buffer_bytes();
  out.recv_bytes = layout.recv_buffer_bytes();
  for (int peer = 0; peer < layout.ranks(); ++peer) {
    out.send_at.push_back(layout.sdispls[peer] * layout.extent);
    out.recv_at.push_back(layout.rdispls[peer] * layout.extent);
  }
  return out;
}

// Every rank's events, grouped by (round, sub-step); within a step each rank's events keep their
// order, so replaying the steps in order replays every rank's memory exactly.
std::vector<Step> group_into_steps(const RunLog& log) {
  std::map<std::pair<int, int>, Step> steps;
  std::map<std::pair<int, int>, std::set<std::string>> phases;
  for (const std::vector<Event>& events : log.all()) {
    for (const Event& event : events) {
      const std::pair<int, int> key{event.round, event.sub};
      Step& step = steps[key];
      phases[key].insert(event.phase);
      step.time = std::max(step.time, event.time);
      switch (event.kind) {
        case Event::Kind::op:
          step.ops.push_back(event.op);
          break;
        case Event::Kind::message:
          step.messages.push_back(event.message);
          break;
        case Event::Kind::collective:
          ++step.collectives;
          break;
      }
    }
  }
  std::vector<Step> out(1);
  out[0].label = "initial state";
  for (auto& [key, step] : steps) {
    step.round = key.first;
    step.sub = key.second;
    step.label = step_label(step);
    step.phases.assign(phases[key].begin(), phases[key].end());
    out.push_back(std::move(step));
  }
  return out;
}

}  // namespace

MemoryEstimate recording_memory(const PlatformSpec& platform, const Configuration& config,
                                const Workload& workload, LayoutStyle layout,
                                const std::string& vendor) {
  const SimOptions options = payload_options(vendor);
  const std::vector<Planned> planned = {Planned{config, layout, std::nullopt}};
  return estimate_memory("simgrid", {platform, workload.ranks(), options, workload, planned});
}

Recorder::Recorder(const PlatformSpec& platform, int max_ranks, std::string vendor)
    : platform_(platform),
      vendor_(std::move(vendor)),
      simulation_(platform, max_ranks, payload_options(vendor_)) {}

Recording Recorder::record(const Configuration& config, const Workload& workload,
                           LayoutStyle layout) {
  const int P = workload.ranks();
  std::vector<ExchangeLayout> layouts;
  for (int r = 0; r < P; ++r)
    layouts.push_back(make_layout(workload, r, layout));  // the same layouts the backend makes
  const Configuration vendor = vendor_choice(vendor_, P, platform_.ranks_per_node);
  RunLog log(P);
  simulation_.set_comm_wrapper([&](Comm& backend, int rank) -> std::unique_ptr<Comm> {
    return std::make_unique<RecordingComm>(backend, log, layouts[static_cast<size_t>(rank)],
                                           &simulated_clock, &vendor);
  });
  SimResult result;
  try {
    result = simulation_.run(config, workload, layout);
  } catch (...) {
    simulation_.set_comm_wrapper(nullptr);
    throw;
  }
  simulation_.set_comm_wrapper(nullptr);
  if (result.check != "pass") throw Error(config.label() + ": payload check: " + result.check);

  Recording out;
  out.algorithm = config.algorithm->name;
  out.label = config.label();
  out.params = config.params.values();
  out.ranks = P;
  out.ranks_per_node = platform_.ranks_per_node;
  out.workload = workload.spec();
  out.platform = platform_.name;
  out.layout = layout_name(layout);
  out.vendor = vendor.label();
  out.predicted = result.predicted;
  out.check = result.check;
  for (int s = 0; s < P; ++s) {
    for (int d = 0; d < P; ++d)
      out.block_bytes.push_back(workload.count(s, d) * workload.element_bytes());
  }
  for (const ExchangeLayout& rank_layout : layouts)
    out.buffers.push_back(rank_buffers(rank_layout));
  out.steps = group_into_steps(log);
  return out;
}

}  // namespace a2a::sim::recorder
