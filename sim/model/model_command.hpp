// `a2a model` (docs/models.md): for every configuration of a scenario, the analytic model's time
// and terms beside the simulated time and their ratio.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace a2a::sim {

struct ModelOptions {
  std::string scenario;  // scenario YAML; empty: the embedded default
  std::vector<std::string> sets;
  std::string csv;         // write the table as CSV
  std::string max_memory;  // the memory guard's bound for the simulation (as `a2a run`)
  bool no_sim = false;     // model only
};

// Registers the `model` subcommand on `app`, filling `options`.
CLI::App* add_model_command(CLI::App& app, ModelOptions& options);

// Runs it; bad input throws InputError. Exit code 0.
int run_model(const ModelOptions& options);

}  // namespace a2a::sim
