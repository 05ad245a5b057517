// Results of a simulated scenario for people (a ranked table) and programs (JSON, CSV, and a Chrome
// trace-event timeline that opens in Perfetto). Files are written to a temporary name and renamed.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/result_schema.hpp"
#include "sim/simulation.hpp"

namespace a2a::sim {

struct ScenarioSummary {
  std::string scenario;  // file path or "embedded default"
  std::string platform;
  std::string workload;
  int ranks = 0;
  int ranks_per_node = 0;
  std::string engine = "simgrid";
  std::string vendor;
  double tolerance = 0;  // simulation.tolerance (the scale engine's batched re-solving)
};

// The ranked table: with `width` > 0, columns are left out, least telling first (phases, sim wall,
// wait, bytes, spread, messages, rounds, working memory, peak temp), until it fits `width`
// characters; the rank, configuration, prediction, ratio and check always stay. `vendor` is named
// with what it ran. When configurations are closer to the fastest than the batched re-solving's
// error (sim/batching_error.hpp), a line under the table names them and how to rank them.
void print_ranked(std::ostream& out, const ScenarioSummary& summary,
                  const std::vector<SimResult>& results, int width = 0);
// The result rows (sim/result_schema.hpp): JSON with the scenario's summary and, per row, every
// result column plus the table's label, the phases, and per-rank maxima and totals; CSV with the
// result columns only. `rows` and `results` are parallel.
void write_json(const std::string& path, const ScenarioSummary& summary,
                const std::vector<RowCells>& rows, const std::vector<SimResult>& results);
void write_csv(const std::string& path, const std::vector<RowCells>& rows);
// One process per configuration, one track (thread) per traced rank, one slice per phase span.
void write_trace(const std::string& path, const std::vector<SimResult>& results);

// "12.3 us", "4.56 ms", "1.20 s"
std::string format_seconds(double seconds);

}  // namespace a2a::sim
