#include "sim/tune/tuning_map.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "algorithms/errors.hpp"
#include "sim/result_schema.hpp"

namespace a2a::tune {

std::string GroupKey::describe() const {
  return "platform " + platform + ", engine " + engine + ", " + std::to_string(ranks_per_node) +
         " ranks per node, workload " + workload + ", vendor " + vendor +
         (tolerance ? ", tolerance " + sim::csv_number(*tolerance) : "");
}

bool GroupFilter::matches(const GroupKey& key) const {
  const std::string family = key.workload.substr(0, key.workload.find(':'));
  return (platform.empty() || platform == key.platform) &&
         (engine.empty() || engine == key.engine) &&
         (ranks_per_node == 0 || ranks_per_node == key.ranks_per_node) &&
         (vendor.empty() || vendor == key.vendor) && (!tolerance || tolerance == key.tolerance) &&
         (workload.empty() || workload == key.workload || workload == family);
}

std::optional<double> Cell::speedup() const {
  if (!best || !vendor_seconds || best->predicted_seconds <= 0) return std::nullopt;
  return *vendor_seconds / best->predicted_seconds;
}

std::optional<double> Cell::lead() const {
  if (!best || !runner_up || best->predicted_seconds <= 0) return std::nullopt;
  return runner_up->predicted_seconds / best->predicted_seconds;
}

std::string TuningMap::workload_at(size_t s) const {
  return blocks[s] ? substitute_block(key.workload, *blocks[s]) : key.workload;
}

std::string workload_template(const std::string& spec, std::optional<std::int64_t> block_bytes) {
  const size_t colon = spec.find(':');
  if (!block_bytes || colon == std::string::npos) return spec;
  const std::string value = std::to_string(*block_bytes);
  std::string out = spec.substr(0, colon + 1);
  std::stringstream options(spec.substr(colon + 1));
  std::string option;
  bool first = true;
  while (std::getline(options, option, ',')) {
    const size_t eq = option.find('=');
    const std::string key = option.substr(0, eq);
    if (eq != std::string::npos && key != "elem" && key != "seed" &&
        option.substr(eq + 1) == value) {
      option = key + "={S}";
    }
    out += (first ? "" : ",") + option;
    first = false;
  }
  return out;
}

std::string substitute_block(const std::string& workload_template, std::int64_t block_bytes) {
  std::string out = workload_template;
  const std::string value = std::to_string(block_bytes);
  for (size_t at = out.find("{S}"); at != std::string::npos; at = out.find("{S}", at)) {
    out.replace(at, 3, value);
    at += value.size();
  }
  return out;
}

std::string speedup_text(double speedup) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", speedup);
  return text;
}

std::string short_config(const std::string& config) {
  static const std::map<std::string, std::string> abbreviations = {
      {"radix", "r"}, {"batch", "b"}, {"ranks_per_node", "q"}, {"chunk", "c"}};
  const size_t colon = config.find(':');
  std::string out = config.substr(0, colon);
  if (colon == std::string::npos) return out;
  std::stringstream options(config.substr(colon + 1));
  std::string option;
  while (std::getline(options, option, ',')) {
    const size_t eq = option.find('=');
    auto it = abbreviations.find(option.substr(0, eq));
    out +=
        " " + (it != abbreviations.end() && eq != std::string::npos ? it->second + option.substr(eq)
                                                                    : option);
  }
  return out;
}

namespace {

GroupKey key_of(const SweepRow& row) {
  return {row.platform,       row.engine,
          row.ranks_per_node, workload_template(row.workload, row.block_bytes),
          row.vendor,         row.tolerance};
}

// Lower predicted time first; on a tie the vendor's own call (nothing to change), then by name.
bool better(const SweepRow& a, const SweepRow& b) {
  if (a.predicted_seconds != b.predicted_seconds) return a.predicted_seconds < b.predicted_seconds;
  if ((a.config == "vendor") != (b.config == "vendor")) return a.config == "vendor";
  return a.config < b.config;
}

// The rows of one cell, one per configuration: of a configuration listed again (a second file)
// the first row is kept, as `a2a sweep --merge` keeps it.
Cell make_cell(int ranks, std::optional<std::int64_t> block,
               const std::vector<const SweepRow*>& rows) {
  std::map<std::string, const SweepRow*> by_config;
  for (const SweepRow* row : rows)
    by_config.emplace(row->config, row);
  Cell cell;
  cell.ranks = ranks;
  cell.block = block;
  for (const auto& [config, row] : by_config) {
    cell.measured.push_back(row);
    if (!row->passed()) {
      ++cell.failed;
      continue;
    }
    if (config == "vendor") cell.vendor_seconds = row->predicted_seconds;
    if (!cell.best || better(*row, *cell.best)) {
      cell.runner_up = cell.best;
      cell.best = row;
    } else if (!cell.runner_up || better(*row, *cell.runner_up)) {
      cell.runner_up = row;
    }
  }
  return cell;
}

TuningMap make_map(const GroupKey& key, const std::vector<const SweepRow*>& rows) {
  TuningMap map;
  map.key = key;
  map.rows = rows;
  std::set<int> ranks;
  std::set<std::optional<std::int64_t>> blocks;
  std::map<std::pair<int, std::optional<std::int64_t>>, std::vector<const SweepRow*>> by_cell;
  for (const SweepRow* row : rows) {
    ranks.insert(row->ranks);
    blocks.insert(row->block_bytes);
    by_cell[{row->ranks, row->block_bytes}].push_back(row);
  }
  map.ranks.assign(ranks.begin(), ranks.end());
  map.blocks.assign(blocks.begin(), blocks.end());
  for (int p : map.ranks) {
    for (const auto& s : map.blocks) {
      auto it = by_cell.find({p, s});
      map.cells.push_back(
          make_cell(p, s, it == by_cell.end() ? std::vector<const SweepRow*>{} : it->second));
    }
  }
  return map;
}

}  // namespace

std::vector<TuningMap> build_maps(const std::vector<SweepRow>& rows, const GroupFilter& filter) {
  std::map<GroupKey, std::vector<const SweepRow*>> groups;
  for (const SweepRow& row : rows)
    groups[key_of(row)].push_back(&row);
  std::vector<TuningMap> maps;
  std::string known;
  for (const auto& [key, members] : groups) {
    known += (known.empty() ? "" : "; ") + key.describe();
    if (filter.matches(key)) maps.push_back(make_map(key, members));
  }
  if (maps.empty()) throw InputError("no rows match the selection; the sweep holds: " + known);
  return maps;
}

}  // namespace a2a::tune
