// The files that hold `a2a sweep`'s rows (their columns: sim/result_schema.hpp, docs/scenarios.md):
// the CSV or JSON output, the CSV journal finished rows are appended to as they arrive, and shard
// files. Whatever was written survives an interrupt; a rerun reads it all back.
#pragma once

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "sim/result_schema.hpp"

namespace a2a::sim {

// What names a row for resume and merging: every identity column but `algorithm` (which config
// already names).
std::string row_key(const RowCells& row);

bool is_json_path(const std::string& path);

// The rows of a sweep output (CSV or JSON by the name's extension) or journal; none when the file
// does not exist. A last CSV line cut short by an interrupt is dropped. Throws InputError for a
// file that is not a sweep output, or one whose columns are not this a2a's (an older a2a's output:
// its rows cannot be resumed).
std::vector<RowCells> read_rows(const std::string& path);

// Writes `rows` to `path` atomically: CSV, or JSON {"sweep": sweep, "rows": [...]} with numbers as
// numbers.
void write_rows(const std::string& path, const std::string& sweep,
                const std::vector<RowCells>& rows);

// Rows by identity, the first of each kept, in the order they were added.
class RowSet {
 public:
  bool add(RowCells row);  // false when a row of that identity is already there
  void add_all(std::vector<RowCells> rows);
  bool has(const std::string& key) const { return index_.count(key) != 0; }
  size_t size() const { return rows_.size(); }
  // The rows whose keys `order` lists, in that order, then the others as added.
  std::vector<RowCells> ordered(const std::vector<std::string>& order) const;

 private:
  std::vector<RowCells> rows_;
  std::map<std::string, size_t> index_;
};

// A CSV file rows are appended to as they finish, each flushed at once, so an interrupt loses
// only the rows still being computed.
class RowJournal {
 public:
  // Rewrites `path` with `rows` (atomically: a line an interrupt cut short disappears) and opens
  // it for appending. Throws Error "cannot write PATH".
  RowJournal(const std::string& path, const std::vector<RowCells>& rows);
  void append(const RowCells& row);
  void close() { out_.close(); }
  size_t rows() const { return rows_; }  // in the file

 private:
  std::string path_;
  std::ofstream out_;
  size_t rows_ = 0;
};

}  // namespace a2a::sim
