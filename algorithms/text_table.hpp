// A plain-text table with aligned columns, for terminal reports of every a2a tool.
#pragma once

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "algorithms/errors.hpp"
#include "algorithms/output_file.hpp"

namespace a2a {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }

  void print(std::ostream& out) const {
    std::vector<size_t> width(headers_.size(), 0);
    auto widen = [&](const std::vector<std::string>& row) {
      for (size_t i = 0; i < row.size() && i < width.size(); ++i) {
        width[i] = std::max(width[i], row[i].size());
      }
    };
    widen(headers_);
    for (const auto& row : rows_)
      widen(row);
    auto line = [&](const std::vector<std::string>& row) {
      std::string text;
      for (size_t i = 0; i < row.size() && i < width.size(); ++i) {
        text += row[i];
        if (i + 1 < row.size()) text += std::string(width[i] - row[i].size() + 2, ' ');
      }
      out << text << '\n';
    };
    line(headers_);
    std::vector<std::string> rule;
    for (size_t w : width)
      rule.push_back(std::string(w, '-'));
    line(rule);
    for (const auto& row : rows_)
      line(row);
  }

  // Writes the table as CSV (write_output: atomically, or through to a special file).
  void write_csv(const std::string& path) const {
    std::string text = csv_line(headers_);
    for (const auto& row : rows_)
      text += csv_line(row);
    write_output(path, text);
  }

  // One CSV record with its newline; fields with a comma, quote or newline are quoted.
  static std::string csv_line(const std::vector<std::string>& row) {
    std::string text;
    for (size_t i = 0; i < row.size(); ++i)
      text += (i ? "," : "") + csv_field(row[i]);
    return text + '\n';
  }

 private:
  static std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text)
      quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }

  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// 1536 -> "1.5 KiB"
inline std::string human_bytes(long long bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (unit == 0) {
    std::snprintf(text, sizeof text, "%lld B", bytes);
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  }
  return text;
}

}  // namespace a2a
