// Expands a sweep file into its grid points; see sweep_grid.hpp.
#include "sim/sweep/sweep_grid.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "algorithms/errors.hpp"

namespace a2a::sim {

namespace {

constexpr const char* kBlockBytes = "block_bytes";
constexpr const char* kVendor = "vendor";
constexpr const char* kPlaceholder = "{S}";

// The values one grid key takes, and the node that gave them (for errors).
struct Axis {
  std::string key;
  YAML::Node key_node;
  std::vector<YAML::Node> values;
};

std::string where(const YAML::Node& node, const std::string& origin) {
  return node.Mark().line >= 0 ? origin + ":" + std::to_string(node.Mark().line + 1) : origin;
}

[[noreturn]] void fail(const YAML::Node& node, const std::string& origin, const std::string& key,
                       const std::string& what) {
  throw InputError(where(node, origin) + ": key '" + key + "': " + what);
}

bool has_placeholder(const YAML::Node& workload) {
  return workload.IsScalar() && workload.Scalar().find(kPlaceholder) != std::string::npos;
}

// "uniform:max={S}" with S = 256 -> "uniform:max=256" (every occurrence).
std::string fill_in(std::string text, const std::string& block_bytes) {
  for (auto at = text.find(kPlaceholder); at != std::string::npos;
       at = text.find(kPlaceholder, at + block_bytes.size())) {
    text.replace(at, std::string(kPlaceholder).size(), block_bytes);
  }
  return text;
}

// A block size: a positive integer of bytes.
long long block_bytes_of(const YAML::Node& value, const std::string& origin) {
  const std::string text = value.IsScalar() ? value.Scalar() : "";
  long long bytes = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || bytes < 1) {
    fail(value, origin, kBlockBytes, "expected a positive integer of bytes, got '" + text + "'");
  }
  return bytes;
}

// Splits the document into the grid keys' values, in grid_keys() order, and everything else
// (`rest`). (YAML::Node assignment rebinds the node it refers to, not the handle: nodes are only
// ever copy-constructed here, never assigned or sorted.)
std::vector<Axis> read_axes(const YAML::Node& root, const std::string& origin, YAML::Node& rest) {
  std::vector<Axis> axes;
  for (const std::string& key : grid_keys()) {
    for (const auto& item : root) {
      if (!item.first.IsScalar() || item.first.Scalar() != key) continue;
      Axis axis{key, item.first, {}};
      if (item.second.IsSequence()) {
        if (item.second.size() == 0) fail(item.second, origin, key, "empty list");
        for (const auto& value : item.second)
          axis.values.push_back(value);
      } else {
        axis.values.push_back(item.second);
      }
      if (key == kBlockBytes) {
        for (const auto& value : axis.values)
          block_bytes_of(value, origin);
      }
      axes.push_back(std::move(axis));
    }
  }
  const auto& keys = grid_keys();
  for (const auto& item : root) {
    const bool grid_key = item.first.IsScalar() &&
                          std::find(keys.begin(), keys.end(), item.first.Scalar()) != keys.end();
    if (!grid_key) rest[item.first] = item.second;  // the scenario loader reads (and checks) it
  }
  return axes;
}

const Axis* find_axis(const std::vector<Axis>& axes, const std::string& key) {
  for (const Axis& axis : axes) {
    if (axis.key == key) return &axis;
  }
  return nullptr;
}

// block_bytes and {S} come together: each fills the other in.
void check_placeholders(const std::vector<Axis>& axes, const std::string& origin) {
  const Axis* blocks = find_axis(axes, kBlockBytes);
  const Axis* workloads = find_axis(axes, "workload");
  if (blocks && !workloads) {
    fail(blocks->key_node, origin, kBlockBytes,
         "needs a workload with {S} for it to fill in, e.g. workload: \"uniform:max={S}\"");
  }
  if (!workloads) return;
  for (const YAML::Node& workload : workloads->values) {
    if (blocks && !has_placeholder(workload)) {
      fail(workload, origin, "workload",
           "'" + (workload.IsScalar() ? workload.Scalar() : std::string("?")) +
               "' has no {S} for block_bytes to fill in");
    }
    if (!blocks && has_placeholder(workload)) {
      fail(workload, origin, "workload",
           "'" + workload.Scalar() + "' uses {S} but the sweep has no block_bytes");
    }
  }
}

class GridBuilder {
 public:
  GridBuilder(const std::vector<Axis>& axes, const YAML::Node& rest, const std::string& origin)
      : axes_(axes), rest_(rest), origin_(origin), chosen_(axes.size(), 0) {}

  std::vector<GridPoint> build() {
    add_points(0);
    return std::move(points_);
  }

 private:
  // Depth first over the axes, the last one varying fastest.
  void add_points(size_t axis) {
    if (axis == axes_.size()) {
      points_.push_back(point());
      return;
    }
    for (size_t i = 0; i < axes_[axis].values.size(); ++i) {
      chosen_[axis] = i;
      add_points(axis + 1);
    }
  }

  GridPoint point() const {
    GridPoint out;
    YAML::Node document(YAML::NodeType::Map);
    for (const auto& item : rest_)
      document[item.first] = item.second;
    for (size_t i = 0; i < axes_.size(); ++i) {
      const YAML::Node& chosen = axes_[i].values[chosen_[i]];
      const YAML::Node value =
          axes_[i].key == kVendor && chosen.IsMap() ? vendor_of_platform(chosen, document) : chosen;
      out.where[axes_[i].key] = where(value, origin_);
      if (axes_[i].key == kBlockBytes) {
        out.block_bytes = std::to_string(block_bytes_of(value, origin_));
      } else {
        document[axes_[i].key_node] = value;
      }
    }
    const Axis* workloads = find_axis(axes_, "workload");
    if (workloads && !out.block_bytes.empty()) {
      const size_t i = static_cast<size_t>(workloads - axes_.data());
      const YAML::Node& workload = workloads->values[chosen_[i]];
      document[workloads->key_node] = YAML::Node(fill_in(workload.Scalar(), out.block_bytes));
    }
    out.scenario = scenario_from_yaml(document, origin_);
    for (const std::string& key : grid_keys()) {
      if (!out.where.count(key)) out.where[key] = origin_;
    }
    return out;
  }

  // `vendor: {polaris: mpich, fugaku: openmpi}`: each platform's own MPI, looked up by the
  // point's platform (the platform axis comes first, so `document` holds it already).
  YAML::Node vendor_of_platform(const YAML::Node& by_platform, const YAML::Node& document) const {
    const YAML::Node platform = document["platform"];
    const std::string name = platform && platform.IsScalar() ? platform.Scalar() : "";
    std::string known;
    for (const auto& item : by_platform) {
      if (item.first.IsScalar() && item.first.Scalar() == name) return item.second;
      known += (known.empty() ? "" : ", ") + (item.first.IsScalar() ? item.first.Scalar() : "?");
    }
    fail(by_platform, origin_, kVendor,
         "no vendor for platform '" + name + "' (given for: " + known + ")");
  }

  const std::vector<Axis>& axes_;
  const YAML::Node& rest_;
  const std::string& origin_;
  std::vector<size_t> chosen_;  // per axis, the index of the value of the point being built
  std::vector<GridPoint> points_;
};

}  // namespace

const std::vector<std::string>& grid_keys() {
  static const std::vector<std::string> keys = {"platform", "engine",    "ranks", "ranks_per_node",
                                                "workload", kBlockBytes, kVendor};
  return keys;
}

std::vector<GridPoint> load_sweep(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the sweep file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_sweep(buffer.str(), path);
}

std::vector<GridPoint> parse_sweep(const std::string& text, const std::string& origin) {
  const YAML::Node root = parse_yaml(text, origin);
  if (!root.IsMap()) throw InputError(origin + ": expected a mapping of sweep keys");
  YAML::Node rest(YAML::NodeType::Map);
  const std::vector<Axis> axes = read_axes(root, origin, rest);
  check_placeholders(axes, origin);
  return GridBuilder(axes, rest, origin).build();
}

}  // namespace a2a::sim
