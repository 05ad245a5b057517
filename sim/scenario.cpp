#include "sim/scenario.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

#include "algorithms/errors.hpp"
#include "platforms/yaml_document.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::sim {

const std::string& default_scenario_yaml() {
  static const std::string text =
      R"(# The embedded default scenario of `a2a run`: a few hundred ranks on a small dragonfly,
# the vendor baseline against the linear, logarithmic and hierarchical families, with a radix sweep.
# (spread_out is left out: with all 65,280 messages in flight at once SimGrid's max-min solver
# needs minutes at this size; see docs/performance.md.)
platform: small_dragonfly
ranks: 256
workload: uniform:max=1024
vendor: openmpi
algorithms:
  - vendor
  - {name: scattered, batch: 8}
  - two_phase_bruck
  - padded_bruck
  - {name: parlogna, radix: [2, 4, 16, 64]}
  - {name: parlinna_coalesced, radix: 4, batch: 8}
simulation:
  payload: false
  network_model: CM02
)";
  return text;
}

namespace {

// "-12", "+7", "1000000000000": an integer, whatever its size.
bool is_whole_number(const std::string& text) {
  const size_t start = !text.empty() && (text[0] == '-' || text[0] == '+') ? 1 : 0;
  return text.size() > start && text.find_first_not_of("0123456789", start) == std::string::npos;
}

class Reader {
 public:
  Reader(std::string origin, std::set<std::string> overridden)
      : origin_(std::move(origin)), overridden_(std::move(overridden)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& key,
                         const std::string& what) const {
    throw InputError(where(node, key) + ": key '" + key + "': " + what);
  }

  // A mapping key as text: keys are plain names, a list or mapping as a key is an error.
  std::string key(const YAML::Node& node, const std::string& context) const {
    if (!node.IsScalar()) fail(node, context, "expected a plain key name, not a list or mapping");
    return node.Scalar();
  }

  // Where the value of `key` came from: the --set that gave it or a prefix of it (a node inside
  // a --set value has a line of the --set text, not of the file), else ORIGIN:LINE.
  std::string where(const YAML::Node& node, const std::string& key) const {
    for (std::string prefix = key;;) {
      if (overridden_.count(prefix)) return "--set " + prefix;
      const auto dot = prefix.rfind('.');
      if (dot == std::string::npos) break;
      prefix.resize(dot);
    }
    return node.Mark().line >= 0 ? origin_ + ":" + std::to_string(node.Mark().line + 1) : origin_;
  }

  template <typename T>
  T scalar(const YAML::Node& node, const std::string& key, const char* expected) const {
    if (!node.IsScalar()) fail(node, key, std::string("expected ") + expected);
    try {
      return node.as<T>();
    } catch (const YAML::Exception&) {
      // An integer too large for T is out of range, not "not an integer".
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        if (is_whole_number(node.Scalar())) {
          fail(node, key,
               "out of range: " + node.Scalar() + " is not in [" +
                   std::to_string(std::numeric_limits<T>::min()) + ", " +
                   std::to_string(std::numeric_limits<T>::max()) + "]");
        }
      }
      fail(node, key, std::string("expected ") + expected + ", got '" + node.Scalar() + "'");
    }
  }

 private:
  std::string origin_;
  std::set<std::string> overridden_;
};

// "radix: [2, 4]" / "radix: 4" / "radix: all" -> "2,4" / "4" / "all"
std::string choice_text(const Reader& reader, const YAML::Node& node, const std::string& key) {
  if (node.IsScalar()) {
    if (node.Scalar() == "all") return "all";
    return std::to_string(reader.scalar<long long>(node, key, "an integer, a list or all"));
  }
  if (!node.IsSequence() || node.size() == 0) {
    reader.fail(node, key, "expected an integer, a non-empty list of integers, or all");
  }
  std::string out;
  for (const auto& item : node) {
    out += (out.empty() ? "" : ",") +
           std::to_string(reader.scalar<long long>(item, key, "a list of integers"));
  }
  return out;
}

AlgorithmEntry read_algorithm(const Reader& reader, const YAML::Node& node) {
  AlgorithmEntry entry;
  entry.where = reader.where(node, "algorithms");
  if (node.IsScalar()) {
    // "name" or "name:key=value,key=value"
    const std::string spec = node.Scalar();
    const auto colon = spec.find(':');
    entry.name = spec.substr(0, colon);
    if (colon != std::string::npos) {
      std::stringstream rest(spec.substr(colon + 1));
      std::string item;
      while (std::getline(rest, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
          reader.fail(node, "algorithms", "expected name:key=value, got '" + spec + "'");
        }
        entry.params[item.substr(0, eq)] = item.substr(eq + 1);
      }
    }
  } else if (node.IsMap()) {
    for (const auto& item : node) {
      const std::string key = reader.key(item.first, "algorithms");
      if (key == "name") {
        entry.name = reader.scalar<std::string>(item.second, "algorithms.name", "a name");
      } else {
        entry.params[key] = choice_text(reader, item.second, "algorithms." + key);
      }
    }
    if (entry.name.empty()) reader.fail(node, "algorithms", "entry without a name");
  } else {
    reader.fail(node, "algorithms", "expected a name or {name: ..., param: ...}");
  }
  try {
    if (entry.name != "all") find_algorithm(entry.name);
  } catch (const InvalidParameter& error) {
    reader.fail(node, "algorithms", error.what());
  }
  return entry;
}

void read_simulation(const Reader& reader, const YAML::Node& node, SimOptions& options) {
  if (!node.IsMap()) reader.fail(node, "simulation", "expected a mapping");
  for (const auto& item : node) {
    const std::string key = reader.key(item.first, "simulation");
    const std::string full = "simulation." + key;
    if (key == "payload") {
      options.payload = reader.scalar<bool>(item.second, full, "true or false");
    } else if (key == "network_model") {
      options.network_model = reader.scalar<std::string>(item.second, full, "CM02, LV08 or SMPI");
      if (options.network_model != "CM02" && options.network_model != "LV08" &&
          options.network_model != "SMPI") {
        reader.fail(item.second, full, "expected CM02, LV08 or SMPI");
      }
    } else if (key == "crosstraffic") {
      options.crosstraffic = reader.scalar<bool>(item.second, full, "true or false");
    } else if (key == "trace_ranks") {
      options.trace_ranks = reader.scalar<int>(item.second, full, "an integer");
      if (options.trace_ranks < 0) reader.fail(item.second, full, "must be >= 0");
    } else if (key == "tolerance") {
      options.tolerance = reader.scalar<double>(item.second, full, "a number in [0, 1]");
      if (!(options.tolerance >= 0 && options.tolerance <= 1)) {
        reader.fail(item.second, full, "must be in [0, 1]");
      }
    } else if (key == "threads") {
      options.threads = reader.scalar<int>(item.second, full, "an integer");
      if (options.threads < 0 || options.threads > 256) {
        reader.fail(item.second, full, "must be in [0, 256] (0: one per core)");
      }
    } else if (key == "stack_kib") {
      options.stack_kib = reader.scalar<int>(item.second, full, "an integer");
      if (options.stack_kib < 16 || options.stack_kib > 8192) {
        reader.fail(item.second, full, "must be in [16, 8192]");
      }
    } else if (key == "check_sizes") {
      options.check_sizes = reader.scalar<bool>(item.second, full, "true or false");
    } else if (key == "full_model") {
      options.full_model = reader.scalar<bool>(item.second, full, "true or false");
    } else if (key == "placement") {
      options.placement =
          reader.scalar<std::string>(item.second, full, "contiguous, spread or random");
      if (options.placement != "contiguous" && options.placement != "spread" &&
          options.placement != "random") {
        reader.fail(item.second, full,
                    "'" + options.placement + "' is not one of contiguous, spread, random");
      }
    } else {
      reader.fail(item.first, full,
                  "unknown key (known: payload, network_model, crosstraffic, trace_ranks, "
                  "tolerance, threads, stack_kib, check_sizes, full_model, placement)");
    }
  }
}

// Sets a dotted key in the document to a YAML value.
void apply_override(YAML::Node& root, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError("--set " + text + ": expected key=value");
  }
  const std::string key = text.substr(0, eq);
  YAML::Node value;
  try {
    value = parse_single_document(text.substr(eq + 1), "--set " + key, key);
  } catch (const YAML::Exception& error) {
    throw InputError("--set " + key + ": value is not YAML: " + error.msg);
  }
  std::vector<std::string> parts;
  std::stringstream path(key);
  for (std::string part; std::getline(path, part, '.');)
    parts.push_back(part);
  // yaml-cpp's operator[] returns a handle into the tree; walk with reset-free copies.
  std::vector<YAML::Node> chain{root};
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!chain.back().IsMap()) {
      throw InputError("--set " + key + ": '" + parts[i - 1] + "' is not a mapping");
    }
    YAML::Node next = chain.back()[parts[i]];
    if (!next.IsDefined() || next.IsNull()) next = YAML::Node(YAML::NodeType::Map);
    chain.back()[parts[i]] = next;
    chain.push_back(chain.back()[parts[i]]);
  }
  if (!chain.back().IsMap()) {
    throw InputError("--set " + key + ": '" + parts[parts.size() - 2] + "' is not a mapping");
  }
  chain.back()[parts.back()] = value;
}

}  // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  if (path.empty()) {
    return parse_scenario(default_scenario_yaml(), "embedded default scenario", overrides);
  }
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the scenario file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_scenario(buffer.str(), path, overrides);
}

YAML::Node parse_yaml(const std::string& text, const std::string& origin) {
  try {
    return parse_single_document(text, origin);
  } catch (const YAML::ParserException& error) {
    throw InputError(origin + ":" + std::to_string(error.mark.line + 1) +
                     ": not valid YAML: " + error.msg);
  }
}

Scenario parse_scenario(const std::string& text, const std::string& origin,
                        const std::vector<std::string>& overrides) {
  YAML::Node root = parse_yaml(text, origin);
  if (!root.IsMap()) throw InputError(origin + ": expected a mapping of scenario keys");
  std::set<std::string> overridden;
  for (const std::string& item : overrides) {
    apply_override(root, item);
    overridden.insert(item.substr(0, item.find('=')));
  }
  return scenario_from_yaml(root, origin, overridden);
}

Scenario scenario_from_yaml(const YAML::Node& root, const std::string& origin,
                            const std::set<std::string>& overridden) {
  Scenario scenario;
  scenario.origin = origin;
  if (!root.IsMap()) throw InputError(scenario.origin + ": expected a mapping of scenario keys");
  const Reader reader(scenario.origin, overridden);
  bool has_ranks = false, has_algorithms = false, has_platform = false;
  for (const auto& item : root) {
    const std::string key = reader.key(item.first, "scenario");
    const YAML::Node& value = item.second;
    if (key == "platform") {
      scenario.platform = reader.scalar<std::string>(value, key, "a preset name or a file path");
      has_platform = true;
    } else if (key == "ranks") {
      scenario.ranks = reader.scalar<int>(value, key, "an integer");
      if (scenario.ranks < 1) reader.fail(value, key, "must be >= 1");
      scenario.ranks_where = reader.where(value, key);
      has_ranks = true;
    } else if (key == "workload") {
      scenario.workload = reader.scalar<std::string>(value, key, "a workload spec");
    } else if (key == "vendor") {
      scenario.simulation.vendor = reader.scalar<std::string>(value, key, "an MPI name");
      const auto& known = vendor_names();
      if (std::find(known.begin(), known.end(), scenario.simulation.vendor) == known.end()) {
        reader.fail(
            value, key,
            "unknown vendor '" + scenario.simulation.vendor + "' (known: " + known_vendors() + ")");
      }
    } else if (key == "engine") {
      scenario.engine = reader.scalar<std::string>(value, key, "simgrid or scale");
      if (scenario.engine != "simgrid" && scenario.engine != "scale") {
        reader.fail(value, key, "unknown engine '" + scenario.engine + "' (known: simgrid, scale)");
      }
    } else if (key == "ranks_per_node") {
      scenario.ranks_per_node = reader.scalar<int>(value, key, "an integer");
      if (scenario.ranks_per_node < 1) reader.fail(value, key, "must be >= 1");
      scenario.ranks_per_node_where = reader.where(value, key);
    } else if (key == "algorithms") {
      if (!value.IsSequence() || value.size() == 0) {
        reader.fail(value, key, "expected a non-empty list");
      }
      for (const auto& entry : value)
        scenario.algorithms.push_back(read_algorithm(reader, entry));
      has_algorithms = true;
    } else if (key == "simulation") {
      read_simulation(reader, value, scenario.simulation);
    } else {
      reader.fail(item.first, key,
                  "unknown key (known: platform, ranks, ranks_per_node, workload, vendor, engine, "
                  "algorithms, simulation)");
    }
  }
  if (!has_platform) reader.fail(root, "platform", "missing");
  if (!has_ranks) reader.fail(root, "ranks", "missing");
  if (!has_algorithms) reader.fail(root, "algorithms", "missing");
  return scenario;
}

}  // namespace a2a::sim
