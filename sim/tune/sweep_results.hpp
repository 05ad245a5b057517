// The rows of an `a2a sweep` result (CSV or JSON, read by sim/sweep/sweep_rows.hpp) as typed
// values, keeping only the columns tuning needs (the column contract: docs/sweeps.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace a2a::tune {

struct SweepRow {
  std::string platform;
  std::string engine;
  int ranks = 0;
  int ranks_per_node = 0;
  std::string workload;                     // the resolved spec, S substituted ("uniform:max=1024")
  std::optional<std::int64_t> block_bytes;  // S; empty when the sweep has no block-size axis
  std::string vendor;                       // the MPI library `vendor` modelled
  std::optional<double> tolerance;          // the scale engine's simulation.tolerance; empty for
                                            // the SimGrid engine, which solves exactly
  std::string algorithm;                    // catalog name ("parlogna")
  std::string config;                       // a spec configure() accepts ("parlogna:radix=4")
  double predicted_seconds = 0;
  std::string check;  // "-", "pass" or why the payload check failed
  std::string where;  // "FILE:LINE" (CSV) or "FILE: row N" (JSON), for messages

  bool passed() const { return check == "-" || check == "pass"; }
};

// Reads one sweep output. Throws InputError naming the file (and line or row) for a missing file,
// a file that is not a sweep output, a non-numeric number or an empty field, and a file without
// rows.
std::vector<SweepRow> read_sweep(const std::string& path);

}  // namespace a2a::tune
