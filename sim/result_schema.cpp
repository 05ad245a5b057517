// The result rows' columns, cells and formats; see result_schema.hpp.
#include "sim/result_schema.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>

#include "algorithms/text_table.hpp"

namespace a2a::sim {

namespace {

// Columns whose cells are text in JSON; every other cell is a number (or null when empty).
bool is_text_column(const std::string& column) {
  return column == "platform" || column == "engine" || column == "workload" || column == "vendor" ||
         column == "algorithm" || column == "config" || column == "check";
}

// A cell as JSON: text columns as strings, the others as numbers (null when empty).
nlohmann::ordered_json json_of(const std::string& column, const std::string& cell) {
  if (is_text_column(column)) return cell;
  if (cell.empty()) return nullptr;
  const char* end = cell.data() + cell.size();
  std::int64_t integer = 0;
  if (auto [at, ec] = std::from_chars(cell.data(), end, integer); ec == std::errc() && at == end) {
    return integer;
  }
  double real = 0;
  if (auto [at, ec] = std::from_chars(cell.data(), end, real); ec == std::errc() && at == end) {
    return real;
  }
  return cell;
}

std::string names(const std::vector<std::string>& columns) {
  std::string out;
  for (const std::string& column : columns)
    out += (out.empty() ? "" : ", ") + column;
  return out;
}

}  // namespace

const std::vector<std::string>& identity_columns() {
  static const std::vector<std::string> columns = {
      "platform",    "engine", "ranks",     "ranks_per_node", "workload",
      "block_bytes", "vendor", "tolerance", "algorithm",      "config"};
  return columns;
}

const std::vector<std::string>& measure_columns() {
  static const std::vector<std::string> columns = {"predicted_seconds",
                                                   "fastest_rank_seconds",
                                                   "median_rank_seconds",
                                                   "rounds",
                                                   "messages_per_rank",
                                                   "bytes_per_rank",
                                                   "meta_messages_per_rank",
                                                   "temp_peak_bytes",
                                                   "working_bytes",
                                                   "wait_seconds_mean",
                                                   "copy_seconds_mean",
                                                   "intra_node_bytes",
                                                   "inter_node_bytes",
                                                   "simulator_wall_seconds",
                                                   "check"};
  return columns;
}

const std::vector<std::string>& result_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> out = identity_columns();
    out.insert(out.end(), measure_columns().begin(), measure_columns().end());
    return out;
  }();
  return columns;
}

RowCells identity_cells(const RowIdentity& identity, const Configuration& config) {
  return {identity.platform,
          identity.engine,
          std::to_string(identity.ranks),
          std::to_string(identity.ranks_per_node),
          identity.workload,
          identity.block_bytes,
          identity.vendor,
          identity.engine == "scale" ? csv_number(identity.tolerance) : "",
          config.algorithm->name,
          config.spec()};
}

RowCells measure_cells(const SimResult& r) {
  return {csv_number(r.predicted),
          csv_number(r.fastest),
          csv_number(r.median),
          std::to_string(r.max_per_rank.rounds),
          std::to_string(r.max_per_rank.messages),
          std::to_string(r.max_per_rank.bytes_sent),
          std::to_string(r.max_per_rank.meta_messages),
          std::to_string(r.max_per_rank.temp_peak),
          r.working_bytes ? std::to_string(*r.working_bytes) : "",
          csv_number(r.wait_mean),
          csv_number(r.copy_mean),
          std::to_string(r.intra_node_bytes),
          std::to_string(r.inter_node_bytes),
          csv_number(r.wall_seconds),
          r.check};
}

RowCells result_cells(const RowIdentity& identity, const Configuration& config,
                      const SimResult& result) {
  RowCells row = identity_cells(identity, config);
  for (std::string& cell : measure_cells(result))
    row.push_back(std::move(cell));
  return row;
}

std::string csv_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

std::string rows_csv(const std::vector<RowCells>& rows) {
  std::string text = TextTable::csv_line(result_columns());
  for (const RowCells& row : rows)
    text += TextTable::csv_line(row);
  return text;
}

nlohmann::ordered_json row_json(const RowCells& row) {
  nlohmann::ordered_json item = nlohmann::ordered_json::object();
  for (size_t i = 0; i < result_columns().size() && i < row.size(); ++i)
    item[result_columns()[i]] = json_of(result_columns()[i], row[i]);
  return item;
}

std::string header_difference(const std::vector<std::string>& header) {
  std::vector<std::string> missing, extra;
  for (const std::string& column : result_columns()) {
    if (std::find(header.begin(), header.end(), column) == header.end()) missing.push_back(column);
  }
  for (const std::string& column : header) {
    const auto& known = result_columns();
    if (std::find(known.begin(), known.end(), column) == known.end()) extra.push_back(column);
  }
  if (missing.empty() && extra.empty()) return "the columns are in another order";
  std::string out;
  if (!missing.empty()) out = "no column " + names(missing);
  if (!extra.empty()) out += (out.empty() ? "" : "; ") + std::string("unknown ") + names(extra);
  return out;
}

}  // namespace a2a::sim
