// CSV text as records (RFC 4180 quoting), shared by every reader of CSV files: sweep outputs and
// journals (sim/sweep/), measured times (sim/calibrate/).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace a2a::sim {

struct CsvRecords {
  std::vector<std::vector<std::string>> records;
  std::size_t cut_line = 0;  // 1-based line of a last record without its newline (0: none)
};

// Splits CSV text into records. A last record without its newline (or with an unterminated quote)
// is not returned: it is a line an interrupt cut short; cut_line says where.
CsvRecords parse_csv(const std::string& text);

// The whole file; throws InputError "PATH: cannot read" (with the reason).
std::string read_text(const std::string& path);

}  // namespace a2a::sim
