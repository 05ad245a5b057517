// Sweep output files: columns, CSV and JSON reading and writing, the append-only journal; see
// sweep_rows.hpp.
#include "sim/sweep/sweep_rows.hpp"

#include <spdlog/spdlog.h>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "sim/csv.hpp"
#include "sim/result_schema.hpp"

namespace a2a::sim {

namespace {

std::vector<RowCells> read_csv_rows(const std::string& path) {
  const auto [records, cut_line] = parse_csv(read_text(path));
  if (cut_line != 0) {
    spdlog::warn("{}:{}: last line incomplete (an interrupted write?): ignored", path, cut_line);
  }
  if (records.empty()) return {};
  const std::vector<std::string>& header = records.front();
  if (header != result_columns()) {
    // Every a2a sweep output began with these columns: a file that does is an a2a output of
    // another version, and the line says what differs.
    const std::vector<std::string> first = {"platform",       "engine",   "ranks",
                                            "ranks_per_node", "workload", "block_bytes"};
    if (header.size() > first.size() && std::equal(first.begin(), first.end(), header.begin())) {
      throw InputError(path + ":1: written by another version of a2a (" +
                       header_difference(header) +
                       "; docs/scenarios.md): its rows cannot be reused; move it away or write "
                       "to another file");
    }
    throw InputError(path + ":1: not an a2a sweep output: the columns differ from " +
                     "platform,engine,ranks,... (docs/scenarios.md)");
  }
  std::vector<RowCells> rows;
  for (size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() == 1 && records[i][0].empty()) continue;  // a blank line
    if (records[i].size() != result_columns().size()) {
      throw InputError(path + ":" + std::to_string(i + 1) + ": expected " +
                       std::to_string(result_columns().size()) + " columns, got " +
                       std::to_string(records[i].size()));
    }
    rows.push_back(records[i]);
  }
  return rows;
}

// A JSON value back to the cell the CSV would hold.
std::string cell_of(const nlohmann::json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  if (value.is_number()) return csv_number(value.get<double>());
  throw InputError("expected a number or text, got " + value.dump());
}

std::vector<RowCells> read_json_rows(const std::string& path) {
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(read_text(path));
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(path + ": not valid JSON: " + error.what());
  }
  if (!document.is_object() || !document.contains("rows") || !document["rows"].is_array()) {
    throw InputError(path +
                     ": not an a2a sweep output: expected {\"sweep\": ..., \"rows\": [...]}");
  }
  std::vector<RowCells> rows;
  for (const nlohmann::json& item : document["rows"]) {
    RowCells row;
    for (const std::string& column : result_columns()) {
      if (!item.is_object() || !item.contains(column)) {
        throw InputError(path + ": row " + std::to_string(rows.size() + 1) + " has no '" + column +
                         "' (written by another version of a2a? docs/scenarios.md)");
      }
      try {
        row.push_back(cell_of(item[column]));
      } catch (const InputError& error) {
        throw InputError(path + ": row " + std::to_string(rows.size() + 1) + ", '" + column +
                         "': " + error.what());
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

std::string row_key(const RowCells& row) {
  std::string key;
  for (size_t i = 0; i < identity_columns().size(); ++i) {
    if (identity_columns()[i] == "algorithm") continue;
    key += row[i] + '\x1f';
  }
  return key;
}

bool is_json_path(const std::string& path) {
  return std::filesystem::path(path).extension() == ".json";
}

std::vector<RowCells> read_rows(const std::string& path) {
  if (!std::filesystem::exists(path)) return {};
  return is_json_path(path) ? read_json_rows(path) : read_csv_rows(path);
}

void write_rows(const std::string& path, const std::string& sweep,
                const std::vector<RowCells>& rows) {
  if (!is_json_path(path)) {
    write_output(path, rows_csv(rows));
    return;
  }
  // One row per line, keys in column order: readable, and diffs line by line.
  std::string text = "{\"sweep\": " + nlohmann::json(sweep).dump() + ",\n \"rows\": [";
  for (size_t r = 0; r < rows.size(); ++r)
    text += (r ? ",\n  " : "\n  ") + row_json(rows[r]).dump();
  text += "\n]}\n";
  write_output(path, text);
}

bool RowSet::add(RowCells row) {
  const std::string key = row_key(row);
  if (index_.count(key)) return false;
  index_[key] = rows_.size();
  rows_.push_back(std::move(row));
  return true;
}

void RowSet::add_all(std::vector<RowCells> rows) {
  for (RowCells& row : rows)
    add(std::move(row));
}

std::vector<RowCells> RowSet::ordered(const std::vector<std::string>& order) const {
  std::vector<RowCells> out;
  std::vector<bool> taken(rows_.size(), false);
  for (const std::string& key : order) {
    const auto it = index_.find(key);
    if (it == index_.end() || taken[it->second]) continue;
    taken[it->second] = true;
    out.push_back(rows_[it->second]);
  }
  for (size_t i = 0; i < rows_.size(); ++i) {
    if (!taken[i]) out.push_back(rows_[i]);
  }
  return out;
}

RowJournal::RowJournal(const std::string& path, const std::vector<RowCells>& rows)
    : path_(path), rows_(rows.size()) {
  write_output(path, rows_csv(rows));
  out_.open(path, std::ios::app | std::ios::binary);
  if (!out_) throw Error("cannot write " + path);
}

void RowJournal::append(const RowCells& row) {
  out_ << TextTable::csv_line(row);
  out_.flush();
  if (!out_) throw Error("cannot write " + path_);
  ++rows_;
}

}  // namespace a2a::sim
