// `a2a model`: the analytic models beside the simulation; see model_command.hpp.
#include "sim/model/model_command.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "algorithms/output_file.hpp"
#include "algorithms/text_table.hpp"
#include "cli/output_option.hpp"
#include "sim/model/model.hpp"
#include "sim/scenario_setup.hpp"
#include "sim/simgrid/platform_instance.hpp"

namespace a2a::sim {

namespace {

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string ratio_text(double model, double simulated) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", model / simulated);
  return text;
}

// The machine terms the closed forms read (docs/models.md), on a line of their own when the
// platform sets any: the NIC's time per message, its engines and whether they pipeline, the
// matching cost per posted receive, and the inject size.
void print_machine_terms(std::ostream& out, const model::Machine& m) {
  if (m.nic <= 0 && m.match <= 0 && m.inject < 0) return;
  out << "# machine terms: nic=" << format_seconds(m.nic) << " engines=" << m.nic_engines
      << (m.nic_engine_choice == NicEngineChoice::rank ? " engine_choice=rank" : "")
      << " pipelined=" << (m.nic_pipelined ? "true" : "false") << " match=" << number(m.match)
      << " s"
      << " inject=" << (m.inject < 0 ? std::string("none") : number(m.inject) + " B") << "\n";
}

void print_header(std::ostream& out, const PreparedScenario& prepared, const model::Machine& m) {
  const ScenarioSummary s = prepared.summary();
  out << "# a2a model: " << s.scenario << "\n# platform " << s.platform << ", P=" << s.ranks << " ("
      << s.ranks_per_node << " per node), workload " << s.workload << ", engine " << s.engine
      << ", vendor = " << s.vendor << "\n# machine: alpha=" << format_seconds(m.alpha)
      << " beta=" << number(m.beta) << " s/B beta_nic=" << number(m.beta_nic)
      << " s/B alpha_intra=" << format_seconds(m.alpha_intra)
      << " beta_intra=" << number(m.beta_intra) << " s/B o=" << format_seconds(m.overhead)
      << " copy=" << number(m.copy_beta) << " s/B launch=" << format_seconds(m.launch) << "\n";
  print_machine_terms(out, m);
}

}  // namespace

CLI::App* add_model_command(CLI::App& app, ModelOptions& options) {
  auto* command = app.add_subcommand(
      "model", "analytic cost models (Hockney, LogGP) beside the simulation, with their ratio");
  command->add_option("scenario", options.scenario, "scenario YAML file (default: the embedded)");
  command->add_option("--set", options.sets, "override a scenario key: key=value (repeatable)");
  cli::add_output_option(*command, "--csv", options.csv, "write the table as CSV");
  command->add_flag("--no-sim", options.no_sim, "the models only, no simulation");
  command->add_option("--max-memory", options.max_memory,
                      "refuse simulations estimated to need more (as `a2a run`)");
  return command;
}

int run_model(const ModelOptions& options) {
  check_outputs({{"--csv", options.csv}});
  PreparedScenario prepared = prepare_scenario(options.scenario, options.sets, "a2a model");
  const Scenario& scenario = prepared.scenario;
  // The machine is read off the platform with its nodes' injection links, so it is built first:
  // the scale engine then reuses it (simgrid_platform; a torus it built itself would lack them).
  const model::Machine machine =
      model::machine_of(simgrid_platform(prepared.platform, scenario.ranks, scenario.simulation),
                        prepared.platform, scenario.ranks);
  std::vector<SimResult> simulated;
  bool interrupted = false;
  if (!options.no_sim) {
    Simulated run = simulate_all(prepared, options.max_memory);
    simulated = std::move(run.results);
    interrupted = run.interrupted;
  }

  // The same columns twice: for people (units chosen per value) and as CSV (seconds).
  TextTable shown({"algorithm", "model", "simulated", "model/sim", "latency", "bandwidth",
                   "contention", "nic", "overhead", "copy", "launch", "rounds", "steps"});
  TextTable csv({"algorithm", "model_seconds", "simulated_seconds", "model_over_simulated",
                 "latency_seconds", "bandwidth_seconds", "contention_seconds", "nic_seconds",
                 "overhead_seconds", "copy_seconds", "launch_seconds", "rounds", "steps"});
  for (size_t i = 0; i < prepared.planned.size(); ++i) {
    const Configuration& config = prepared.planned[i].config;
    const bool has_sim = i < simulated.size();
    const double sim = has_sim ? simulated[i].predicted : 0;
    if (!model::has_model(*config.algorithm)) {  // said on its line, never a made-up figure
      shown.add({config.label(), "no model", has_sim ? format_seconds(sim) : "-", "-", "-", "-",
                 "-", "-", "-", "-", "-", "-", "-"});
      csv.add(
          {config.label(), "", has_sim ? number(sim) : "", "", "", "", "", "", "", "", "", "", ""});
      continue;
    }
    const model::Cost cost =
        model::model_cost(config, *prepared.workload, machine, scenario.simulation.vendor);
    const bool has_ratio = has_sim && sim > 0;
    shown.add({config.label(), format_seconds(cost.total()), has_sim ? format_seconds(sim) : "-",
               has_ratio ? ratio_text(cost.total(), sim) : "-", format_seconds(cost.latency),
               format_seconds(cost.bandwidth), format_seconds(cost.contention),
               format_seconds(cost.nic), format_seconds(cost.overhead), format_seconds(cost.copy),
               format_seconds(cost.launch), std::to_string(cost.rounds),
               std::to_string(cost.steps)});
    csv.add({config.label(), number(cost.total()), has_sim ? number(sim) : "",
             has_ratio ? number(cost.total() / sim) : "", number(cost.latency),
             number(cost.bandwidth), number(cost.contention), number(cost.nic),
             number(cost.overhead), number(cost.copy), number(cost.launch),
             std::to_string(cost.rounds), std::to_string(cost.steps)});
  }
  print_header(std::cout, prepared, machine);
  shown.print(std::cout);
  if (interrupted) {  // no CSV: one with some simulations left out would read as complete
    std::fprintf(stderr,
                 "a2a model: interrupted: simulated %zu of %zu configurations ('-' for the "
                 "others in the table above); no output file written\n",
                 simulated.size(), prepared.planned.size());
    return 130;
  }
  if (!options.csv.empty()) csv.write_csv(options.csv);
  return 0;
}

}  // namespace a2a::sim
