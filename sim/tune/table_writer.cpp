#include "sim/tune/table_writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "algorithms/errors.hpp"
#include "workloads/workload.hpp"

namespace a2a::tune {

std::vector<std::int64_t> geometric_bounds(const std::vector<std::int64_t>& values) {
  std::vector<std::int64_t> bounds;
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    const long double product = static_cast<long double>(values[i]) * values[i + 1];
    std::int64_t bound = static_cast<std::int64_t>(std::floor(std::sqrt(product)));
    // Guard the floating-point square root at the edges of its precision.
    bound = std::clamp(bound, values[i], values[i + 1] - 1);
    bounds.push_back(bound);
  }
  return bounds;
}

BlockShape block_shape(const std::string& workload_spec, int ranks) {
  std::unique_ptr<Workload> workload;
  try {
    workload = make_workload(workload_spec, ranks);
  } catch (const Error& error) {
    throw InputError("workload " + workload_spec + " at P=" + std::to_string(ranks) + ": " +
                     error.what());
  }
  // Exact up to 512 ranks; above, an evenly spaced sample of senders and receivers (the mean is
  // only compared with range bounds half a grid step away).
  const int sample = std::min(ranks, 512);
  auto rank_of = [&](int i) {
    return static_cast<int>(static_cast<std::int64_t>(i) * ranks / sample);
  };
  long double elements = 0;
  for (int i = 0; i < sample; ++i) {
    for (int j = 0; j < sample; ++j)
      elements += static_cast<long double>(workload->count(rank_of(i), rank_of(j)));
  }
  const long double mean = elements * workload->element_bytes() / (1.0L * sample * sample);
  return {static_cast<std::int64_t>(std::floor(mean)), workload->uniform()};
}

namespace {

constexpr std::int64_t kOpen = std::numeric_limits<std::int64_t>::max();

// "*" for everything from `first` on, else N, N-M or N-*.
std::string range_text(std::int64_t low, std::int64_t high, std::int64_t first) {
  if (high == kOpen) return low == first ? "*" : std::to_string(low) + "-*";
  return low == high ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(high);
}

std::string speedup_note(const Cell& cell) {
  const auto speedup = cell.speedup();
  return speedup ? speedup_text(*speedup) + " vendor" : "no vendor row";
}

// [low, high] of value i given the upper bounds between neighbours; the first starts at `first`.
std::pair<std::int64_t, std::int64_t> range_of(size_t i, const std::vector<std::int64_t>& bounds,
                                               std::int64_t first) {
  return {i == 0 ? first : bounds[i - 1] + 1, i == bounds.size() ? kOpen : bounds[i]};
}

struct Layout {
  std::string collective;                       // alltoall for uniform workloads, else alltoallv
  std::vector<std::vector<BlockShape>> shapes;  // [p][s]
};

Layout measure(const TuningMap& map) {
  Layout layout;
  bool uniform = true;
  layout.shapes.resize(map.ranks.size());
  for (size_t p = 0; p < map.ranks.size(); ++p) {
    for (size_t s = 0; s < map.blocks.size(); ++s) {
      layout.shapes[p].push_back(block_shape(map.workload_at(s), map.ranks[p]));
      uniform = uniform && layout.shapes[p].back().uniform;
    }
  }
  layout.collective = uniform ? "alltoall" : "alltoallv";
  return layout;
}

// The mean blocks of one P row, checked to grow with S so that ranges can separate the cells.
std::vector<std::int64_t> row_means(const TuningMap& map, const Layout& layout, size_t p) {
  std::vector<std::int64_t> means;
  for (size_t s = 0; s < map.blocks.size(); ++s) {
    means.push_back(layout.shapes[p][s].mean_bytes);
    if (s > 0 && means[s] <= means[s - 1]) {
      throw InputError(
          "--table: workload " + map.key.workload + " at P=" + std::to_string(map.ranks[p]) +
          ": S=" + std::to_string(*map.blocks[s]) + " has a mean block of " +
          std::to_string(means[s]) + " B, not above S=" + std::to_string(*map.blocks[s - 1]) +
          "'s " + std::to_string(means[s - 1]) +
          " B; the table selects by mean block and could not tell them apart");
    }
  }
  return means;
}

struct Entry {
  std::string ranks, block, spec, note;
};

// The entries of one P row: runs of neighbouring S cells with the same best configuration merge
// into one block range; missing cells get no entry (no match means the vendor's call).
std::vector<Entry> row_entries(const TuningMap& map, const Layout& layout, size_t p,
                               const std::string& ranks) {
  const bool by_block = map.blocks.front().has_value();
  const std::vector<std::int64_t> means =
      by_block ? row_means(map, layout, p) : std::vector<std::int64_t>{0};
  const std::vector<std::int64_t> bounds = geometric_bounds(means);
  std::vector<Entry> entries;
  size_t s = 0;
  while (s < map.blocks.size()) {
    const Cell& cell = map.at(p, s);
    size_t end = s + 1;
    std::string note = "P=" + std::to_string(map.ranks[p]);
    auto describe = [&](size_t k) {
      const Cell& c = map.at(p, k);
      std::string text = by_block ? " S=" + std::to_string(*map.blocks[k]) + " (mean " +
                                        std::to_string(means[k]) + " B)"
                                  : "";
      return text + ": " + (c.missing() ? "no usable measurement" : speedup_note(c));
    };
    note += describe(s);
    while (!cell.missing() && end < map.blocks.size() && !map.at(p, end).missing() &&
           map.at(p, end).best->config == cell.best->config) {
      note += ";" + describe(end);
      ++end;
    }
    const std::int64_t low = range_of(s, bounds, 0).first;
    const std::int64_t high = range_of(end - 1, bounds, 0).second;
    const std::string block = range_text(low, high, 0);
    if (cell.missing()) {
      entries.push_back({ranks, block, "", note + " -> no row: the vendor's call"});
    } else {
      entries.push_back({ranks, block, cell.best->config, note});
    }
    s = end;
  }
  return entries;
}

std::string header(const TuningMap& map, const Layout& layout, const std::string& sources) {
  return "# a2a tuning table written by `a2a tune` (format: docs/application.md; made how: "
         "docs/tuning.md)\n# sweep: " +
         sources + "\n# " + map.key.describe() +
         "\n# Per (P, S): the configuration with the lowest predicted time (rows whose payload "
         "check failed ignored).\n# Ranges split at the geometric midpoints between measured "
         "points; block-bytes is the mean block\n# (total bytes / P^2, " +
         (layout.collective == "alltoall" ? std::string("MPI_Alltoall's block")
                                          : std::string("what MPI_Alltoallv calls compare")) +
         "). A range without a row runs the vendor's call.\n";
}

}  // namespace

std::string tuning_table_text(const TuningMap& map, const std::string& sources) {
  const Layout layout = measure(map);
  std::vector<std::int64_t> ranks(map.ranks.begin(), map.ranks.end());
  const std::vector<std::int64_t> rank_bounds = geometric_bounds(ranks);
  std::vector<Entry> entries;
  for (size_t p = 0; p < map.ranks.size(); ++p) {
    const auto [low, high] = range_of(p, rank_bounds, 1);
    for (Entry& entry : row_entries(map, layout, p, range_text(low, high, 1)))
      entries.push_back(std::move(entry));
  }
  std::string text = header(map, layout, sources);
  size_t widths[3] = {12, 6, 11};
  for (const Entry& entry : entries) {
    widths[1] = std::max(widths[1], entry.ranks.size());
    widths[2] = std::max(widths[2], entry.block.size());
  }
  auto pad = [](const std::string& field, size_t width) {
    return field + std::string(width + 2 - std::min(width, field.size()), ' ');
  };
  text += pad("# collective", widths[0]) + pad("ranks", widths[1]) + pad("block-bytes", widths[2]) +
          "algorithm\n";
  for (const Entry& entry : entries) {
    text += "# " + entry.note + "\n";
    if (entry.spec.empty()) continue;
    text += pad(layout.collective, widths[0]) + pad(entry.ranks, widths[1]) +
            pad(entry.block, widths[2]) + entry.spec + "\n";
  }
  return text;
}

}  // namespace a2a::tune
