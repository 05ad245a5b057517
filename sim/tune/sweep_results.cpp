#include "sim/tune/sweep_results.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "algorithms/errors.hpp"
#include "algorithms/registry.hpp"
#include "sim/sweep/sweep_rows.hpp"

namespace a2a::tune {

namespace {

std::int64_t parse_integer(const std::string& text, const std::string& column, std::int64_t min) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < min) {
    throw InputError("column '" + column + "': '" + text +
                     "' is not an integer >= " + std::to_string(min));
  }
  return value;
}

int parse_count(const std::string& text, const std::string& column) {
  return static_cast<int>(std::min<std::int64_t>(parse_integer(text, column, 1), INT32_MAX));
}

// A finite number >= 0 (`what` names what the column holds, for the error).
double parse_nonnegative(const std::string& text, const std::string& column, const char* what) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno != 0 || !std::isfinite(value) ||
      value < 0) {
    throw InputError("column '" + column + "': '" + text + "' is not " + what);
  }
  return value;
}

double parse_seconds(const std::string& text, const std::string& column) {
  return parse_nonnegative(text, column, "a time in seconds >= 0");
}

// The scale engine's rows say the simulation.tolerance they were simulated at; the SimGrid
// engine's leave it empty (it solves exactly).
std::optional<double> parse_tolerance(const std::string& text, const std::string& engine) {
  if (text.empty()) {
    if (engine == "scale") throw InputError("column 'tolerance' is empty on a scale-engine row");
    return std::nullopt;
  }
  const double value = parse_nonnegative(text, "tolerance", "a number in [0, 1]");
  if (value > 1) throw InputError("column 'tolerance': '" + text + "' is not a number in [0, 1]");
  return value;
}

// A sweep without a block-size axis leaves block_bytes empty (null in JSON) or "-".
std::optional<std::int64_t> parse_block(const std::string& text) {
  if (text.empty() || text == "-") return std::nullopt;
  return parse_integer(text, "block_bytes", 0);
}

SweepRow typed_row(const sim::RowCells& cells, const std::string& where) {
  const std::vector<std::string>& columns = sim::result_columns();
  auto field = [&](const std::string& name) -> const std::string& {
    const auto at = std::find(columns.begin(), columns.end(), name) - columns.begin();
    const std::string& text = cells.at(static_cast<size_t>(at));
    if (text.empty() && name != "block_bytes" && name != "tolerance") {
      throw InputError("column '" + name + "' is empty");
    }
    return text;
  };
  SweepRow row;
  row.platform = field("platform");
  row.engine = field("engine");
  row.ranks = parse_count(field("ranks"), "ranks");
  row.ranks_per_node = parse_count(field("ranks_per_node"), "ranks_per_node");
  row.workload = field("workload");
  row.block_bytes = parse_block(field("block_bytes"));
  row.vendor = field("vendor");
  row.tolerance = parse_tolerance(field("tolerance"), row.engine);
  row.algorithm = field("algorithm");
  row.config = field("config");
  // A configuration the catalog does not know (a hand-edited or foreign CSV) would be copied into
  // the tuning table and fail only where the table is loaded, in an application's MPI_Init.
  try {
    configure(row.config, row.ranks, row.ranks_per_node);
  } catch (const InvalidParameter& error) {
    throw InputError("column 'config': " + std::string(error.what()));
  }
  row.predicted_seconds = parse_seconds(field("predicted_seconds"), "predicted_seconds");
  row.check = field("check");
  row.where = where;
  return row;
}

}  // namespace

std::vector<SweepRow> read_sweep(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw InputError(path + ": no such file (expected the CSV or JSON output of `a2a sweep`)");
  }
  const std::vector<sim::RowCells> cells = sim::read_rows(path);
  if (cells.empty()) throw InputError(path + ": no rows (a sweep result lists at least one run)");
  const bool json = sim::is_json_path(path);
  std::vector<SweepRow> rows;
  for (size_t i = 0; i < cells.size(); ++i) {
    // The CSV's header is line 1 and the writer leaves no blank lines: row i is on line i + 2.
    const std::string where =
        json ? path + ": row " + std::to_string(i + 1) : path + ":" + std::to_string(i + 2);
    try {
      rows.push_back(typed_row(cells[i], where));
    } catch (const InputError& problem) {
      throw InputError(where + ": " + problem.what());
    }
  }
  return rows;
}

}  // namespace a2a::tune
