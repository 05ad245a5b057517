// Measured all-to-all times as `a2a calibrate` reads them (docs/calibration.md): a CSV with a
// header naming its columns, in any order — the published measurements in data/measured/, or what
// `a2a-mpi bench --csv` writes on a real cluster.
#pragma once

#include <string>
#include <vector>

namespace a2a::sim::calibrate {

struct MeasuredPoint {
  std::string where;     // "FILE:LINE", for errors and the report
  std::string platform;  // as the row names it; empty when the file has no platform column
  int ranks = 0;
  int ranks_per_node = 0;  // 0: the platform's
  std::string workload;
  std::string algorithm;  // a configuration spec, e.g. parlogna:radix=2
  std::string vendor;     // what `vendor` models for this row; empty: the caller's default
  double seconds = 0;     // measured
  std::string source;     // where the number comes from (paper, section, figure), if given
};

// Reads the rows. Columns: `P` (or `ranks`), `workload`, `algorithm`, and the time as
// `measured_seconds` or `median us` (a2a-mpi bench) are required; `platform`, `ranks_per_node`,
// `vendor` and `source` are optional; others are ignored. Throws InputError "FILE:LINE: column
// 'X': ..." for a missing column, a bad number or a row of the wrong width.
std::vector<MeasuredPoint> read_measured(const std::string& path);

}  // namespace a2a::sim::calibrate
