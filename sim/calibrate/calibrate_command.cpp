// `a2a calibrate`; see calibrate_command.hpp.
#include "sim/calibrate/calibrate_command.hpp"

#include <spdlog/spdlog.h>

#include <unistd.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "algorithms/errors.hpp"
#include "algorithms/output_file.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/text_table.hpp"
#include "cli/output_option.hpp"
#include "cli/parse_error.hpp"
#include "platforms/platform.hpp"
#include "sim/calibrate/calibrated_yaml.hpp"
#include "sim/calibrate/fit.hpp"
#include "sim/calibrate/knobs.hpp"
#include "sim/calibrate/measured.hpp"
#include "sim/child_process.hpp"
#include "sim/csv.hpp"
#include "sim/report.hpp"
#include "sim/resource_guard.hpp"
#include "sim/simulation.hpp"
#include "workloads/plan.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim::calibrate {

namespace {

std::string human(Unit unit, double value) {
  return unit == Unit::time ? format_seconds(value) : yaml_value(unit, value);
}

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f %%", 100 * fraction);
  return text;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Simulates measured points with given parameter values, on the scale engine, remembering every
// prediction (the fit and its held-out refits ask for the same values again and again).
class Predictor {
 public:
  Predictor(PlatformSpec base, std::vector<const Knob*> fitted, std::vector<MeasuredPoint> points,
            const CalibrateOptions& options)
      : base_(std::move(base)),
        fitted_(std::move(fitted)),
        points_(std::move(points)),
        options_(options) {
    for (const MeasuredPoint& point : points_)
      build_ranks_ = std::max(build_ranks_, point.ranks);
    // The links are part of the platform SimGrid builds once per process: fitting one builds the
    // platform anew for each simulation, in a child process.
    links_fitted_ = std::any_of(fitted_.begin(), fitted_.end(),
                                [](const Knob* k) { return !k->section().empty(); });
  }

  const std::vector<MeasuredPoint>& points() const { return points_; }

  // Checks every point before any simulation: it fits the platform, its workload and algorithm
  // exist and apply, and the engine's memory model accepts it.
  void check() const {
    for (const MeasuredPoint& point : points_) {
      try {
        const PlatformSpec spec = platform_for({}, point);
        check_fits(spec, point.ranks);
        const auto workload = make_workload(point.workload, point.ranks);
        const Configuration config = configure(point.algorithm, point.ranks, spec.ranks_per_node);
        const ExchangeShape shape = workload_shape(*workload, spec.ranks_per_node);
        if (const auto why = not_applicable_reason(config, shape))
          throw InvalidParameter(point.algorithm + " does not apply: " + *why);
        SimOptions sim = sim_options(point);
        const std::vector<Planned> planned = {Planned{config, LayoutStyle::gaps, std::nullopt}};
        check_memory(estimate_memory("scale", {spec, point.ranks, sim, *workload, planned}),
                     memory_limit(""), "scale");
      } catch (const InvalidParameter& error) {
        throw InputError(point.where + ": " + error.what());
      }
    }
  }

  // log(predicted / measured) of each point in `rows`.
  std::vector<double> residuals(const std::vector<double>& values,
                                const std::vector<size_t>& rows) {
    std::vector<double> out;
    for (const size_t row : rows)
      out.push_back(std::log(predict(values, row) / points_[row].seconds));
    return out;
  }

  double predict(const std::vector<double>& values, size_t row) {
    const auto key = std::make_pair(row, values);
    const auto found = cache_.find(key);
    if (found != cache_.end()) return found->second;
    const MeasuredPoint& point = points_[row];
    const PlatformSpec spec = platform_for(values, point);
    const auto workload = make_workload(point.workload, point.ranks);
    const Configuration config = configure(point.algorithm, point.ranks, spec.ranks_per_node);
    // Every simulation is built for the largest P of the file: SimGrid builds one platform per
    // process, and a smaller run fits on it.
    const auto simulate = [&] {
      const auto simulation = make_simulation("scale", spec, build_ranks_, sim_options(point));
      return simulation->run(config, *workload).predicted;
    };
    const double predicted = links_fitted_ ? std::stod(run_in_child([&] {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", simulate());
      return std::string(text);
    }))
                                           : simulate();
    ++simulations_;
    // One line per simulation: a calibration at the papers' scale runs for an hour.
    std::fprintf(stderr, "%s[simulation %d] %s %s P=%d: %s%s", terminal_ ? "\r\033[K" : "",
                 simulations_, point.where.c_str(), point.algorithm.c_str(), point.ranks,
                 format_seconds(predicted).c_str(), terminal_ ? "" : "\n");
    std::fflush(stderr);
    cache_.emplace(key, predicted);
    return predicted;
  }

  PlatformSpec platform_for(const std::vector<double>& values, const MeasuredPoint& point) const {
    PlatformSpec spec = base_;
    for (size_t i = 0; i < values.size(); ++i)
      fitted_[i]->value(spec) = values[i];
    if (point.ranks_per_node > 0) spec.ranks_per_node = point.ranks_per_node;
    return spec;
  }

  int simulations() const { return simulations_; }

 private:
  SimOptions sim_options(const MeasuredPoint& point) const {
    SimOptions sim;
    sim.vendor = point.vendor.empty() ? options_.vendor : point.vendor;
    sim.threads = options_.threads;
    return sim;
  }
  static ExchangeShape workload_shape(const Workload& workload, int ranks_per_node) {
    return shape_of(workload, ranks_per_node, LayoutStyle::gaps);
  }

  PlatformSpec base_;
  std::vector<const Knob*> fitted_;
  std::vector<MeasuredPoint> points_;
  const CalibrateOptions& options_;
  int build_ranks_ = 1;
  bool links_fitted_ = false;
  int simulations_ = 0;
  bool terminal_ = isatty(STDERR_FILENO) != 0;
  std::map<std::pair<size_t, std::vector<double>>, double> cache_;
};

// The measured points of `platform`; rows of other platforms are left out (and counted).
std::vector<MeasuredPoint> points_of(const std::string& path, const PlatformSpec& platform,
                                     const std::string& platform_arg) {
  std::vector<MeasuredPoint> all = read_measured(path);
  std::vector<MeasuredPoint> mine;
  int others = 0;
  for (MeasuredPoint& point : all) {
    if (point.platform.empty() || point.platform == platform.name ||
        point.platform == platform_arg) {
      mine.push_back(std::move(point));
    } else {
      ++others;
    }
  }
  if (others > 0)
    std::fprintf(stderr, "a2a calibrate: %d rows of other platforms than %s left out\n", others,
                 platform.name.c_str());
  if (mine.empty()) throw InputError(path + ": no measured rows for platform " + platform.name);
  int per_node = 0;
  for (const MeasuredPoint& point : mine) {
    const int q = point.ranks_per_node > 0 ? point.ranks_per_node : platform.ranks_per_node;
    if (per_node != 0 && q != per_node)
      throw InputError(point.where + ": ranks_per_node " + std::to_string(q) +
                       " differs from an earlier row's " + std::to_string(per_node) +
                       " (calibrate one ranks-per-node setting at a time)");
    per_node = q;
  }
  return mine;
}

std::string platform_text(const std::string& name_or_path) {
  for (const auto& preset : platform_presets())
    if (preset.name == name_or_path) return preset.yaml;
  return read_text(name_or_path);
}

std::vector<std::vector<size_t>> folds_of(size_t points, int folds) {
  const size_t k = points <= 12 ? points : static_cast<size_t>(std::max(2, folds));
  std::vector<std::vector<size_t>> out(k);
  for (size_t i = 0; i < points; ++i)
    out[i % k].push_back(i);
  return out;
}

// The calibrated platform file, checked to read back as fitted: every fitted value (to the 4
// digits written) and every other fittable value unchanged. A file whose layout the editor cannot
// handle fails here, with the key it got wrong, instead of writing something else.
std::string checked_yaml(const std::string& text, const PlatformSpec& base,
                         const std::vector<const Knob*>& fitted, const std::vector<double>& values,
                         const std::string& provenance, const std::string& output) {
  const std::string yaml = calibrated_yaml(text, base, fitted, values, provenance);
  const auto fail = [&](const std::string& why) {
    throw Error("-o " + output + ": cannot write the calibrated platform: " + why +
                " (rewrite the platform file in plain block style and try again)");
  };
  PlatformSpec reread;
  try {
    reread = parse_platform(yaml, output);
  } catch (const std::exception& error) {
    fail(error.what());
  }
  if (reread.name != base.name + "_calibrated")
    fail("its name reads back as '" + reread.name + "'");
  PlatformSpec expected = base;
  for (size_t i = 0; i < fitted.size(); ++i)
    fitted[i]->value(expected) = values[i];
  for (const Knob& k : knobs()) {
    const double want = k.value(expected), got = k.value(reread);
    const bool is_fitted = std::find(fitted.begin(), fitted.end(), &k) != fitted.end();
    // Fitted values are written to 4 digits (bytes to the nearest one).
    const double written = std::max(1e-3 * std::abs(want), k.unit == Unit::bytes ? 0.5 : 0.0);
    const bool same = is_fitted ? std::abs(got - want) <= written : got == want;
    if (!same)
      fail(std::string(k.key) + " reads back as " + std::to_string(got) + ", not " +
           std::to_string(want));
  }
  return yaml;
}

// Fits, turning a parameter no point depends on into one line naming it.
FitResult fit_or_refuse(const std::vector<FreeParameter>& parameters, const Residuals& residuals,
                        int iterations) {
  try {
    return fit_least_squares(parameters, residuals, iterations);
  } catch (const NotIdentifiable& unused) {
    throw InputError("--fit " + unused.key +
                     ": no measured point depends on it (every prediction is the same whatever "
                     "its value)");
  }
}

}  // namespace

const std::vector<std::string>& fittable_parameters() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Knob& k : knobs())
      out.push_back(k.key);
    return out;
  }();
  return names;
}

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options) {
  auto* command = app.add_subcommand(
      "calibrate", "fit a platform's free parameters to measured times (docs/calibration.md)");
  command->add_option("measured", options.measured, "CSV of measured times")->required();
  command->add_option("--platform", options.platform, "preset name or platform YAML")->required();
  cli::add_output_option(*command, "-o,--output", options.output,
                         "write the calibrated platform YAML here")
      ->required();
  std::string known;
  for (const std::string& name : fittable_parameters())
    known += (known.empty() ? "" : ", ") + name;
  command
      ->add_option("--fit", options.fit,
                   "parameters to fit, comma-separated (default nic_message_time,match_time; "
                   "known: " +
                       known + ")")
      ->delimiter(',');
  command->add_option("--vendor", options.vendor,
                      "what `vendor` models for rows without a vendor column (openmpi, mpich, "
                      "cray-mpich, fujitsu-mpi)");
  command->add_option("--folds", options.folds, "held-out folds when there are more than 12 points")
      ->check(cli::number_in(2, 100));
  command->add_option("--iterations", options.iterations, "Levenberg-Marquardt steps per fit")
      ->check(cli::number_in(1, 100));
  command->add_option("--threads", options.threads, "scale engine threads (0: one per core)")
      ->check(cli::number_in(0, 256));
  cli::add_output_option(*command, "--csv", options.csv, "also write the per-point table as CSV");
  return command;
}

int run_calibrate(const CalibrateOptions& options) {
  if (options.output.empty()) throw InputError("-o: an output file is required");
  check_outputs({{"-o", options.output}, {"--csv", options.csv}});
  if (options.fit.empty()) throw InputError("--fit: no parameter to fit");
  PlatformSpec base = load_platform(options.platform);
  std::vector<const Knob*> fitted;
  std::vector<FreeParameter> parameters;
  for (const std::string& key : options.fit) {
    const Knob& k = knob(key, base);
    if (std::find(fitted.begin(), fitted.end(), &k) != fitted.end())
      throw InputError("--fit " + key + ": named twice");
    fitted.push_back(&k);
    const double current = k.value(base);
    parameters.push_back({k.key, current > 0 ? current : k.start, k.lower, k.upper});
  }
  Predictor predictor(base, fitted, points_of(options.measured, base, options.platform), options);
  predictor.check();
  // Before hours of simulation: the platform file can be written back with these parameters.
  const std::string text = platform_text(options.platform);
  std::vector<double> initial;
  for (const FreeParameter& p : parameters)
    initial.push_back(p.initial);
  checked_yaml(text, base, fitted, initial, "check", options.output);
  const size_t n = predictor.points().size();
  std::vector<size_t> all(n);
  for (size_t i = 0; i < n; ++i)
    all[i] = i;

  const FitResult fit = fit_or_refuse(
      parameters, [&](const std::vector<double>& v) { return predictor.residuals(v, all); },
      options.iterations);
  // Held out: each fold refitted without its points (from the full fit, so it converges in a few
  // steps), then predicted.
  std::vector<double> held_out(n, 0.0);
  const auto folds = folds_of(n, options.folds);
  for (const auto& fold : folds) {
    std::vector<size_t> training;
    for (size_t i = 0; i < n; ++i)
      if (std::find(fold.begin(), fold.end(), i) == fold.end()) training.push_back(i);
    std::vector<FreeParameter> from_fit = parameters;
    for (size_t j = 0; j < from_fit.size(); ++j)
      from_fit[j].initial = fit.values[j];
    // Without the fold's points a parameter may depend on no point left: it keeps the full fit's
    // value then.
    FitResult refit = fit;
    try {
      if (!training.empty()) {
        refit = fit_least_squares(
            from_fit,
            [&](const std::vector<double>& v) { return predictor.residuals(v, training); },
            options.iterations);
      }
    } catch (const NotIdentifiable&) {
      refit = fit;
    }
    for (const size_t i : fold)
      held_out[i] = predictor.predict(refit.values, i);
  }
  if (isatty(STDERR_FILENO)) std::fprintf(stderr, "\r\033[K");

  TextTable table({"point", "P", "algorithm", "workload", "measured", "fitted", "error", "held out",
                   "error", "source"});
  std::vector<double> fit_errors, held_errors;
  for (size_t i = 0; i < n; ++i) {
    const MeasuredPoint& point = predictor.points()[i];
    const double predicted = predictor.predict(fit.values, i);
    const double fit_error = predicted / point.seconds - 1;
    const double held_error = held_out[i] / point.seconds - 1;
    fit_errors.push_back(std::abs(fit_error));
    held_errors.push_back(std::abs(held_error));
    table.add({point.where, std::to_string(point.ranks), point.algorithm, point.workload,
               format_seconds(point.seconds), format_seconds(predicted), percent(fit_error),
               format_seconds(held_out[i]), percent(held_error), point.source.substr(0, 40)});
  }
  std::string fitted_text;
  for (size_t i = 0; i < fitted.size(); ++i)
    fitted_text += (i ? ", " : "") + std::string(fitted[i]->key) + " = " +
                   human(fitted[i]->unit, fit.values[i]);
  const std::string scheme =
      folds.size() == n ? "leave-one-out" : std::to_string(folds.size()) + "-fold";
  char summary[256];
  std::snprintf(summary, sizeof summary,
                "median |error| %.1f %% fitted, %.1f %% held out (%s), max %.1f %% held out",
                100 * median(fit_errors), 100 * median(held_errors), scheme.c_str(),
                100 * *std::max_element(held_errors.begin(), held_errors.end()));
  std::cout << "# a2a calibrate: " << base.name << ", " << n << " measured points; fitted "
            << fitted_text << " (" << fit.iterations << " steps, " << predictor.simulations()
            << " simulations)\n";
  table.print(std::cout);
  std::cout << summary << "\n";
  if (!options.csv.empty()) table.write_csv(options.csv);

  const std::string provenance = "a2a calibrate " +
                                 std::filesystem::path(options.measured).filename().string() +
                                 ": " + std::to_string(n) + " points, " + summary;
  write_output(options.output,
               checked_yaml(text, base, fitted, fit.values, provenance, options.output));
  std::cout << "wrote " << options.output << "\n";
  return 0;
}

}  // namespace a2a::sim::calibrate
