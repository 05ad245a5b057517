// The `a2a tune` subcommand's command line (header-only: only the `a2a` program uses CLI11).
#pragma once

#include <CLI/CLI.hpp>

#include "cli/output_option.hpp"
#include "cli/parse_error.hpp"
#include "sim/tune/tune_command.hpp"

namespace a2a::tune {

inline CLI::App* add_tune_command(CLI::App& app, TuneOptions& options) {
  CLI::App* tune = app.add_subcommand(
      "tune",
      "from sweep results: the best configuration per (P, S) as a map, a tuning table, "
      "Open MPI / MPICH rules (docs/tuning.md)");
  tune->add_option("sweep", options.sweeps, "CSV or JSON files written by `a2a sweep`")->required();
  tune->add_option("--platform", options.filter.platform, "use only this platform's rows");
  tune->add_option("--engine", options.filter.engine, "use only this engine's rows");
  tune->add_option("--ranks-per-node", options.filter.ranks_per_node,
                   "use only rows with this many ranks per node")
      ->check(cli::number_in(1));
  tune->add_option("--workload", options.filter.workload,
                   "use only this workload (template such as uniform:max={S}, or family name)");
  tune->add_option("--vendor", options.filter.vendor,
                   "use only the rows of this MPI library (openmpi or mpich)");
  tune->add_option("--tolerance", options.filter.tolerance,
                   "use only the scale-engine rows simulated at this simulation.tolerance")
      ->check(cli::number_in(0, 1));
  cli::add_output_option(*tune, "--svg", options.svg, "write the map as an SVG heatmap");
  cli::add_output_option(*tune, "--area-svg", options.area_svg,
                         "write the decision regions over log P x log S as SVG");
  cli::add_output_option(*tune, "--table", options.table,
                         "write an a2a tuning table (A2A_TUNING, a2a_config_create_tuned)");
  cli::add_output_option(*tune, "--ompi", options.ompi,
                         "write Open MPI coll/tuned dynamic rules for MPI_Alltoallv");
  cli::add_output_option(*tune, "--mpich", options.mpich,
                         "write an MPICH collective-selection JSON subtree for MPI_Alltoallv");
  return tune;
}

}  // namespace a2a::tune
