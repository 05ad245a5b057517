#include "sim/viz/viz_command.hpp"

#include <cstdio>

#include "algorithms/errors.hpp"
#include "algorithms/output_file.hpp"
#include "algorithms/text_table.hpp"
#include "cli/output_option.hpp"
#include "cli/parse_error.hpp"
#include "platforms/platform.hpp"
#include "sim/recorder/recorder.hpp"
#include "sim/resource_guard.hpp"
#include "sim/vendor_model.hpp"
#include "sim/viz/viewer_page.hpp"
#include "workloads/plan.hpp"

namespace a2a::sim::viz {

namespace {

// "parlogna" + {"radix=3"} -> "parlogna:radix=3", parsed by the registry like every spec.
std::string full_spec(const VizOptions& options) {
  std::string spec = options.algorithm;
  for (const std::string& param : options.params) {
    if (param.find('=') == std::string::npos || param.front() == '=') {
      throw InputError("--param '" + param + "': expected key=value");
    }
    spec += (spec.find(':') == std::string::npos ? ":" : ",") + param;
  }
  return spec;
}

LayoutStyle layout_style(const std::string& name) {
  if (name == "packed") return LayoutStyle::packed;
  if (name == "gaps") return LayoutStyle::gaps;
  throw InputError("--layout '" + name + "': expected packed or gaps");
}

}  // namespace

CLI::App* add_viz_subcommand(CLI::App& app, VizOptions& options) {
  auto* viz = app.add_subcommand(
      "viz", "record one algorithm step by step and write a self-contained HTML viewer");
  viz->add_option("-a,--algorithm", options.algorithm,
                  "algorithm spec: name or name:key=value,... (`a2a list algorithms`)");
  viz->add_option("-p,--param", options.params, "algorithm parameter key=value (repeatable)");
  viz->add_option("-P,--ranks", options.ranks, "number of ranks, 1..64");
  viz->add_option("-w,--workload", options.workload, "workload spec (`a2a list workloads`)")
      ->capture_default_str();
  cli::add_output_option(*viz, "-o,--output", options.output, "the HTML file to write");
  viz->add_option("--platform", options.platform, "platform preset or YAML file")
      ->capture_default_str();
  viz->add_option("--ranks-per-node", options.ranks_per_node,
                  "ranks per node (default: the platform's)")
      ->check(cli::number_in(1));
  viz->add_option("--layout", options.layout,
                  "buffer layout: packed (blocks in rank order) or gaps (a2a-mpi verify's)")
      ->capture_default_str();
  viz->add_option("--vendor", options.vendor, "what the vendor algorithm models")
      ->capture_default_str();
  return viz;
}

int run_viz(const VizOptions& options) {
  if (options.algorithm.empty()) throw InputError("--algorithm: required (e.g. parlogna:radix=3)");
  if (options.output.empty()) throw InputError("--output: required (the HTML file to write)");
  check_outputs({{"--output", options.output}});
  if (options.ranks < 1 || options.ranks > kMaxViewerRanks) {
    throw InputError("-P " + std::to_string(options.ranks) + ": the viewer shows 1 to " +
                     std::to_string(kMaxViewerRanks) + " ranks");
  }
  PlatformSpec platform = load_platform(options.platform);
  if (options.ranks_per_node > 0) platform.ranks_per_node = options.ranks_per_node;
  const LayoutStyle layout = layout_style(options.layout);
  std::unique_ptr<Workload> workload;
  try {
    workload = make_workload(options.workload, options.ranks);
  } catch (const InvalidParameter& error) {
    throw InputError("--workload '" + options.workload + "': " + error.what());
  }
  Configuration config;
  try {
    config = configure(full_spec(options), options.ranks, platform.ranks_per_node);
  } catch (const InvalidParameter& error) {
    throw InputError(std::string("--algorithm: ") + error.what());
  }
  try {
    check_fits(platform, options.ranks);
  } catch (const InvalidParameter& error) {
    throw InputError("-P " + std::to_string(options.ranks) + ": " + error.what());
  }
  try {
    vendor_choice(options.vendor, options.ranks, platform.ranks_per_node);
  } catch (const InvalidParameter& error) {
    throw InputError(std::string("--vendor: ") + error.what());
  }
  if (auto reason =
          not_applicable_reason(config, shape_of(*workload, platform.ranks_per_node, layout))) {
    throw InputError(config.label() + " does not apply to " + workload->spec() + " (" +
                     options.layout + " layout): " + *reason);
  }
  // The recording carries every byte: 1 TiB blocks would end in std::bad_alloc, 1 MB blocks at
  // P = 64 in swap.
  check_memory(recorder::recording_memory(platform, config, *workload, layout, options.vendor),
               MemoryLimit{available_memory(), "available memory"}, "payload-mode SimGrid");
  recorder::Recorder recorder(platform, options.ranks, options.vendor);
  const recorder::Recording recording = recorder.record(config, *workload, layout);
  // The page's own check, made here first: a recording that misplaces a block is a recorder bug.
  if (const auto misplaced = recorder::misplaced_blocks(recording); !misplaced.empty()) {
    throw Error(recording.label + ": the recording's final state is wrong: " + misplaced.front());
  }
  const std::string page = viewer_html(recording);
  write_output(options.output, page);
  std::printf("%s: %s, P=%d, %s: %zu steps, %.1f KiB\n", options.output.c_str(),
              recording.label.c_str(), recording.ranks, recording.workload.c_str(),
              recording.steps.size() - 1, static_cast<double>(page.size()) / 1024.0);
  return 0;
}

}  // namespace a2a::sim::viz
