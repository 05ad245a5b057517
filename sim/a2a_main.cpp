// a2a: predict how all-to-all algorithms perform on a modeled machine. `a2a run` simulates a
// scenario (the embedded default without an argument); `a2a list` shows the catalogs.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "algorithms/errors.hpp"
#include "algorithms/output_file.hpp"
#include "algorithms/text_table.hpp"
#include "cli/output_option.hpp"
#include "cli/parse_error.hpp"
#include "platforms/platform.hpp"
#include "sim/calibrate/calibrate_command.hpp"
#include "sim/model/model_command.hpp"
#include "sim/report.hpp"
#include "sim/scenario.hpp"
#include "sim/scenario_setup.hpp"
#include "sim/sweep/sweep_command.hpp"
#include "sim/tune/tune_cli.hpp"
#include "sim/vendor_model.hpp"
#include "sim/viz/viz_command.hpp"
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
  bool wide = false;  // every column of the table, however wide
};

// The table's width: the terminal's when standard output is one, else 100 characters.
int table_width_limit() {
  constexpr int kDefaultWidth = 100;
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) {
    return size.ws_col;
  }
  return kDefaultWidth;
}

void print_platforms(std::ostream& out) {
  TextTable table({"platform", "description"});
  for (const PlatformPreset& preset : platform_presets()) {
    table.add({preset.name, preset.description});
  }
  table.print(out);
}

int run(const RunOptions& options) {
  check_outputs({{"--json", options.json}, {"--csv", options.csv}, {"--trace", options.trace}});
  PreparedScenario prepared = prepare_scenario(options.scenario, options.sets, "a2a run");
  SimOptions& simulation = prepared.scenario.simulation;
  // Traces show at most 256 ranks: beyond that a timeline is unreadable and the file huge.
  constexpr int kTraceCap = 256;
  if (!options.trace.empty() && simulation.trace_ranks == 0) simulation.trace_ranks = kTraceCap;
  simulation.trace_ranks = std::min({simulation.trace_ranks, prepared.scenario.ranks, kTraceCap});
  const Simulated simulated = simulate_all(prepared, options.max_memory);
  const std::vector<SimResult>& results = simulated.results;
  const ScenarioSummary summary = prepared.summary();
  print_ranked(std::cout, summary, results, options.wide ? 0 : table_width_limit());
  // An interrupted run writes no output file: a file holding some of the configurations would
  // read as the whole run to whatever consumes it. The table above shows those that finished.
  if (simulated.interrupted) {
    // On standard output too, under the table: what reads only it (a pipe, a file) must not take
    // a table of some configurations, or none, for the whole run.
    std::cout << "(interrupted: " << results.size() << " of " << prepared.planned.size()
              << " configurations finished)" << std::endl;
    std::fprintf(stderr,
                 "a2a run: interrupted: %zu of %zu configurations finished (in the table above); "
                 "no output file written\n",
                 results.size(), prepared.planned.size());
    return 130;  // as a shell reports a process ended by SIGINT
  }
  const std::vector<RowCells> rows = result_rows(prepared, simulated);
  if (!options.json.empty()) write_json(options.json, summary, rows, results);
  if (!options.csv.empty()) write_csv(options.csv, rows);
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
  a2a::cli::add_output_option(*run, "--json", run_options.json, "write results as JSON");
  a2a::cli::add_output_option(*run, "--csv", run_options.csv, "write results as CSV");
  a2a::cli::add_output_option(*run, "--trace", run_options.trace,
                              "write a Chrome trace-event timeline (Perfetto)");
  run->add_flag("-v,--verbose", run_options.verbose, "log progress to stderr");
  run->add_flag("--wide", run_options.wide,
                "print every column of the table (default: fit 100 characters, or the terminal)");
  run->add_option("--max-memory", run_options.max_memory,
                  "refuse simulations estimated to need more (e.g. 8G, 512M; default: the "
                  "machine's available memory)");
  std::string what = "algorithms";
  auto* list = app.add_subcommand("list", "show the catalogs");
  list->add_option("what", what, "algorithms, workloads, platforms or vendors")
      ->check(CLI::IsMember({"algorithms", "workloads", "platforms", "vendors"}));
  auto* show = app.add_subcommand("scenario", "print the embedded default scenario");
  a2a::sim::viz::VizOptions viz_options;
  auto* viz = a2a::sim::viz::add_viz_subcommand(app, viz_options);
  a2a::tune::TuneOptions tune_options;
  auto* tune = a2a::tune::add_tune_command(app, tune_options);
  a2a::sim::SweepOptions sweep_options;
  auto* sweep = a2a::sim::add_sweep_command(app, sweep_options);
  a2a::sim::ModelOptions model_options;
  auto* model = a2a::sim::add_model_command(app, model_options);
  a2a::sim::calibrate::CalibrateOptions calibrate_options;
  auto* calibrate = a2a::sim::calibrate::add_calibrate_command(app, calibrate_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return a2a::cli::report_parse_error(app, error, "a2a");
  }
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
    if (viz->parsed()) return a2a::sim::viz::run_viz(viz_options);
    if (tune->parsed()) return a2a::tune::run_tune(tune_options);
    if (sweep->parsed()) return a2a::sim::run_sweep(sweep_options);
    if (model->parsed()) return a2a::sim::run_model(model_options);
    if (calibrate->parsed()) return a2a::sim::calibrate::run_calibrate(calibrate_options);
    return a2a::sim::run(run_options);
  } catch (const a2a::Error& error) {
    a2a::cli::print_error("a2a", error.what());
    return 2;
  } catch (const std::exception& error) {  // a library's own exception: still one line
    a2a::cli::print_error("a2a", error.what());
    return 2;
  }
}
