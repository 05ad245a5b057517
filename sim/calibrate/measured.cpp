// Reading measured times; see measured.hpp.
#include "sim/calibrate/measured.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include "algorithms/errors.hpp"
#include "sim/csv.hpp"

namespace a2a::sim::calibrate {

namespace {

class Columns {
 public:
  Columns(const std::vector<std::string>& header, const std::string& path) : path_(path) {
    for (size_t i = 0; i < header.size(); ++i)
      index_[header[i]] = i;
  }
  std::optional<size_t> find(const std::string& name) const {
    const auto it = index_.find(name);
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }
  size_t require(std::initializer_list<const char*> names) const {
    for (const char* name : names)
      if (const auto at = find(name)) return *at;
    std::string list;
    for (const char* name : names)
      list += (list.empty() ? "'" : "' or '") + std::string(name);
    throw InputError(path_ + ":1: no column " + list + "' (docs/calibration.md)");
  }

 private:
  std::string path_;
  std::map<std::string, size_t> index_;
};

int positive_int(const std::string& text, const std::string& where, const char* column) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1)
    throw InputError(where + ": column '" + column + "': expected a positive integer, got '" +
                     text.substr(0, 40) + "'");
  return value;
}

double positive_number(const std::string& text, const std::string& where, const char* column) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0)
    throw InputError(where + ": column '" + column + "': expected a positive number, got '" +
                     text.substr(0, 40) + "'");
  return value;
}

// a2a's labels ("parlogna radix=2", as a2a-mpi bench writes them) as configuration specs
// ("parlogna:radix=2"); specs pass unchanged.
std::string as_spec(std::string algorithm) {
  const auto space = algorithm.find(' ');
  if (space == std::string::npos || algorithm.find(':') != std::string::npos) return algorithm;
  algorithm[space] = ':';
  std::replace(algorithm.begin() + static_cast<std::ptrdiff_t>(space), algorithm.end(), ' ', ',');
  return algorithm;
}

}  // namespace

std::vector<MeasuredPoint> read_measured(const std::string& path) {
  const auto [records, cut_line] = parse_csv(read_text(path));
  if (cut_line != 0) throw InputError(path + ":" + std::to_string(cut_line) + ": last line cut");
  if (records.empty()) throw InputError(path + ": empty (expected a header and measured rows)");
  const Columns columns(records.front(), path);
  const size_t ranks = columns.require({"P", "ranks"});
  const size_t workload = columns.require({"workload"});
  const size_t algorithm = columns.require({"algorithm"});
  const auto seconds = columns.find("measured_seconds");
  const size_t time = seconds ? *seconds : columns.require({"measured_seconds", "median us"});
  const auto platform = columns.find("platform");
  const auto per_node = columns.find("ranks_per_node");
  const auto vendor = columns.find("vendor");
  const auto source = columns.find("source");
  std::vector<MeasuredPoint> points;
  for (size_t i = 1; i < records.size(); ++i) {
    const std::vector<std::string>& row = records[i];
    if (row.size() == 1 && row[0].empty()) continue;  // a blank line
    const std::string where = path + ":" + std::to_string(i + 1);
    if (row.size() != records.front().size())
      throw InputError(where + ": expected " + std::to_string(records.front().size()) +
                       " columns, got " + std::to_string(row.size()));
    MeasuredPoint point;
    point.where = where;
    point.ranks = positive_int(row[ranks], where, "P");
    point.workload = row[workload];
    point.algorithm = as_spec(row[algorithm]);
    if (point.workload.empty()) throw InputError(where + ": column 'workload': empty");
    if (point.algorithm.empty()) throw InputError(where + ": column 'algorithm': empty");
    point.seconds = positive_number(row[time], where, seconds ? "measured_seconds" : "median us");
    if (!seconds) point.seconds *= 1e-6;  // a2a-mpi bench writes microseconds
    if (platform) point.platform = row[*platform];
    if (per_node && !row[*per_node].empty())
      point.ranks_per_node = positive_int(row[*per_node], where, "ranks_per_node");
    if (vendor) point.vendor = row[*vendor];
    if (source) point.source = row[*source];
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace a2a::sim::calibrate
