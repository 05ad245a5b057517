// a2a: predict how all-to-all algorithms perform on a modeled machine. `a2a run` simulates a
// scenario (the embedded default without an argument); `a2a list` shows the catalogs.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "platforms/platform.hpp"
#include "sim/report.hpp"
#include "sim/resource_guard.hpp"
#include "sim/scenario.hpp"
#include "sim/vendor_model.hpp"
#include "workloads/listing.hpp"
#include "workloads/plan.hpp"

namespace a2a::sim {

namespace {

struct RunOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string json, csv, trace;
  std::string max_memory;  // bound for the memory guard; empty: the machine's available memory
  bool verbose = false;
};

void print_platforms(std::ostream& out) {
  TextTable table({"platform", "description"});
  for (const PlatformPreset& preset : platform_presets()) {
    table.add({preset.name, preset.description});
  }
  table.print(out);
}

// The configurations of every scenario entry; skipped ones are reported on stderr.
std::vector<Planned> configurations(const Scenario& scenario, const Workload& workload,
                                    int ranks_per_node) {
  std::vector<Planned> out;
  for (const AlgorithmEntry& entry : scenario.algorithms) {
    std::vector<Planned> planned;
    try {
      planned = plan(Selection{{entry.name}, entry.params}, workload, ranks_per_node);
    } catch (const InvalidParameter& error) {
      throw InputError(entry.where + ": algorithm " + entry.name + ": " + error.what());
    }
    for (Planned& item : planned) {
      if (item.skip) {
        std::fprintf(stderr, "a2a run: skipped %s: %s\n", item.config.label().c_str(),
                     item.skip->c_str());
        continue;
      }
      out.push_back(std::move(item));
    }
  }
  if (out.empty()) throw InputError(scenario.origin + ": no algorithm configuration applies");
  return out;
}

int run(const RunOptions& options) {
  Scenario scenario = load_scenario(options.scenario, options.sets);
  PlatformSpec platform = load_platform(scenario.platform);
  if (scenario.ranks_per_node > 0) platform.ranks_per_node = scenario.ranks_per_node;
  try {
    check_fits(platform, scenario.ranks);
  } catch (const InvalidParameter& error) {
    throw InputError(scenario.ranks_where + ": key 'ranks': " + error.what());
  }
  std::unique_ptr<Workload> workload;
  try {
    workload = make_workload(scenario.workload, scenario.ranks);
  } catch (const InvalidParameter& error) {
    throw InputError(scenario.origin + ": key 'workload': " + error.what());
  }
  // Traces show at most 256 ranks: beyond that a timeline is unreadable and the file huge.
  constexpr int kTraceCap = 256;
  if (!options.trace.empty() && scenario.simulation.trace_ranks == 0) {
    scenario.simulation.trace_ranks = kTraceCap;
  }
  scenario.simulation.trace_ranks =
      std::min({scenario.simulation.trace_ranks, scenario.ranks, kTraceCap});
  const std::vector<Planned> planned = configurations(scenario, *workload, platform.ranks_per_node);
  check_memory(estimate_memory(scenario.engine,
                               {platform, scenario.ranks, scenario.simulation, *workload, planned}),
               memory_limit(options.max_memory), scenario.engine);
  spdlog::info("building platform {} for P={}", platform.name, scenario.ranks);
  const std::unique_ptr<Simulation> simulation =
      make_simulation(scenario.engine, platform, scenario.ranks, scenario.simulation);
  const bool progress = isatty(STDERR_FILENO) != 0;
  std::vector<SimResult> results;
  for (size_t i = 0; i < planned.size(); ++i) {
    if (progress) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] simulating %s ...", i + 1, planned.size(),
                   planned[i].config.label().c_str());
      std::fflush(stderr);
    }
    results.push_back(simulation->run(planned[i].config, *workload, planned[i].layout));
    spdlog::info("{}: predicted {} (simulated in {}, {} rate solves)", results.back().label,
                 format_seconds(results.back().predicted),
                 format_seconds(results.back().wall_seconds), results.back().solves);
  }
  if (progress) std::fprintf(stderr, "\r\033[K");
  ScenarioSummary summary{
      scenario.origin,         platform.name,   workload->spec(),          scenario.ranks,
      platform.ranks_per_node, scenario.engine, scenario.simulation.vendor};
  print_ranked(std::cout, summary, results);
  if (!options.json.empty()) write_json(options.json, summary, results);
  if (!options.csv.empty()) write_csv(options.csv, results);
  if (!options.trace.empty()) write_trace(options.trace, results);
  const bool all_checks_pass = std::all_of(results.begin(), results.end(), [](const SimResult& r) {
    return r.check == "-" || r.check == "pass";
  });
  return all_checks_pass ? 0 : 1;
}

}  // namespace

}  // namespace a2a::sim

int main(int argc, char** argv) {
  CLI::App app{"a2a: simulate all-to-all algorithms on modeled machines"};
  app.require_subcommand(1);
  a2a::sim::RunOptions run_options;
  auto* run = app.add_subcommand("run", "simulate a scenario (the embedded default without one)");
  run->add_option("scenario", run_options.scenario, "scenario YAML file");
  run->add_option("--set", run_options.sets, "override a scenario key: key=value (repeatable)");
  run->add_option("--json", run_options.json, "write results as JSON");
  run->add_option("--csv", run_options.csv, "write results as CSV");
  run->add_option("--trace", run_options.trace, "write a Chrome trace-event timeline (Perfetto)");
  run->add_flag("-v,--verbose", run_options.verbose, "log progress to stderr");
  run->add_option("--max-memory", run_options.max_memory,
                  "refuse simulations estimated to need more (e.g. 8G, 512M; default: the "
                  "machine's available memory)");
  std::string what = "algorithms";
  auto* list = app.add_subcommand("list", "show the catalogs");
  list->add_option("what", what, "algorithms, workloads, platforms or vendors")
      ->check(CLI::IsMember({"algorithms", "workloads", "platforms", "vendors"}));
  auto* show = app.add_subcommand("scenario", "print the embedded default scenario");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_default_logger(spdlog::stderr_color_mt("a2a"));
  spdlog::set_level(run_options.verbose ? spdlog::level::info : spdlog::level::warn);
  try {
    if (list->parsed()) {
      if (what == "algorithms") a2a::print_algorithm_catalog(std::cout);
      if (what == "workloads") a2a::print_workload_catalog(std::cout);
      if (what == "platforms") a2a::sim::print_platforms(std::cout);
      if (what == "vendors") {
        for (const auto& name : a2a::sim::vendor_names())
          std::cout << name << "\n";
      }
      return 0;
    }
    if (show->parsed()) {
      std::cout << a2a::sim::default_scenario_yaml();
      return 0;
    }
    return a2a::sim::run(run_options);
  } catch (const a2a::Error& error) {
    std::fprintf(stderr, "a2a: error: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {  // a library's own exception: still one line
    std::fprintf(stderr, "a2a: error: %s\n", error.what());
    return 2;
  }
}
