// The one schema of simulation results as rows (docs/scenarios.md, "Result columns"): the columns
// `a2a run --csv/--json` and `a2a sweep --out` write, in order, with their formatting, and what
// `a2a tune` and a resumed sweep read back. Every writer and reader of result rows takes its
// columns from here.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "sim/simulation.hpp"

namespace a2a::sim {

// One row's cells, in result_columns() order, as the CSV writes them.
using RowCells = std::vector<std::string>;

// What was simulated, apart from the configuration: the point of a sweep's grid, or a run's
// scenario.
struct RowIdentity {
  std::string platform;  // as the scenario or sweep gives it (a preset name or a file path)
  std::string engine;
  int ranks = 0;
  int ranks_per_node = 0;   // the effective one (the scenario's, else the platform's)
  std::string workload;     // the resolved spec
  std::string block_bytes;  // a sweep's S; empty without a block_bytes axis (and in a run)
  std::string vendor;       // the MPI library `vendor` models (openmpi or mpich)
  // simulation.tolerance of the scale engine's batched solve; the SimGrid engine solves exactly
  // and its rows leave the column empty. `a2a tune` takes its batching error from it.
  double tolerance = 0;
};

// platform, engine, ranks, ranks_per_node, workload, block_bytes, vendor, tolerance, algorithm,
// config.
const std::vector<std::string>& identity_columns();
// predicted_seconds ... check: what the simulation measured.
const std::vector<std::string>& measure_columns();
// The identity columns, then the measure columns.
const std::vector<std::string>& result_columns();

RowCells identity_cells(const RowIdentity& identity, const Configuration& config);
RowCells measure_cells(const SimResult& result);
// A whole row: identity_cells, then measure_cells.
RowCells result_cells(const RowIdentity& identity, const Configuration& config,
                      const SimResult& result);

// A number as the rows write it ("%.9g").
std::string csv_number(double value);

// The CSV text of `rows`: the header, then one line per row.
std::string rows_csv(const std::vector<RowCells>& rows);
// One row as a JSON object, keys in column order: text columns as strings, the others as numbers
// (null when empty).
nlohmann::ordered_json row_json(const RowCells& row);

// An error message for a CSV header that is not result_columns(): names the columns missing and
// the ones it has that this a2a does not write, so a file of an older a2a says why.
std::string header_difference(const std::vector<std::string>& header);

}  // namespace a2a::sim
