// `a2a calibrate MEASURED.csv --platform P -o calibrated.yaml` (docs/calibration.md): fits a
// platform's free parameters (by default the NIC's per-message time and MPI's matching cost) to
// measured all-to-all times by simulating every measured point on the scale engine, checks the fit
// on held-out points (leave-one-out, or k-fold for many points), and writes the platform with the
// fitted values.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace a2a::sim::calibrate {

struct CalibrateOptions {
  std::string measured;  // CSV of measured times
  std::string platform;  // preset name or platform YAML path
  std::string output;    // the calibrated platform YAML
  std::vector<std::string> fit = {"nic_message_time", "match_time"};
  std::string vendor = "openmpi";  // what `vendor` models for rows that do not say
  int folds = 5;                   // held-out folds when there are more than 12 points
  int iterations = 8;              // Levenberg-Marquardt steps per fit
  int threads = 0;                 // scale engine threads (0: one per core)
  std::string csv;                 // optional: the per-point table as CSV
};

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options);

// Runs it; bad input throws InputError. Exit code 0.
int run_calibrate(const CalibrateOptions& options);

// The platform parameters calibrate can fit, in the order `a2a calibrate --help` lists them.
const std::vector<std::string>& fittable_parameters();

}  // namespace a2a::sim::calibrate
