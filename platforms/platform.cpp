// Platform descriptions: the YAML loader, its checks and the preset lookup
// (platforms/platform.hpp). The schema is documented in docs/platforms.md. Every error names the
// origin (file path or "preset NAME"), the 1-based line and the key path ("link.bandwidth"), and
// says what is wrong.
#include "platforms/platform.hpp"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "algorithms/errors.hpp"
#include "platforms/units.hpp"
#include "platforms/yaml_document.hpp"

namespace a2a {

namespace {

constexpr std::int64_t kMaxNodes = std::int64_t{1} << 30;
constexpr int kMaxNicEngines = 64;
constexpr int kMaxTorusDims = 6;

const std::map<std::string, Topology>& topology_names() {
  static const std::map<std::string, Topology> names = {{"single_node", Topology::single_node},
                                                        {"star", Topology::star},
                                                        {"torus", Topology::torus},
                                                        {"fat_tree", Topology::fat_tree},
                                                        {"dragonfly", Topology::dragonfly}};
  return names;
}

// Error reporting bound to one document.
class Source {
 public:
  explicit Source(std::string origin) : origin_(std::move(origin)) {}
  const std::string& origin() const { return origin_; }

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& key,
                         const std::string& what) const {
    throw InputError(where(mark) + (key.empty() ? "" : "key '" + key + "': ") + what);
  }
  std::string where(const YAML::Mark& mark) const {
    return origin_ + ":" + (mark.line >= 0 ? std::to_string(mark.line + 1) : "?") + ": ";
  }

 private:
  std::string origin_;
};

// One YAML map whose keys are checked against an allowed list up front (so a misspelt key is
// reported as unknown rather than as a missing required key), and read one key at a time.
class Map {
 public:
  Map(const Source& source, const YAML::Node& node, std::string path,
      const std::vector<std::string>& allowed)
      : source_(source), node_(node), path_(std::move(path)) {
    if (!node.IsMap())
      source_.fail(node.Mark(), path_.empty() ? "" : path_,
                   path_.empty() ? "the platform description must be a map of keys"
                                 : "must be a map of keys");
    const std::set<std::string> allowed_set(allowed.begin(), allowed.end());
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      if (!allowed_set.count(key)) {
        std::string list;
        for (const auto& name : allowed)
          list += (list.empty() ? "" : ", ") + name;
        source_.fail(entry.first.Mark(), full(key), "unknown key (expected one of " + list + ")");
      }
      // Keys given twice never get here: parse_single_document refuses them for every loader.
      key_marks_.emplace(key, entry.first.Mark());
      values_.emplace(key, entry.second);
    }
  }

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  std::string full(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const Source& source() const { return source_; }
  const YAML::Node& node() const { return node_; }

  YAML::Node required(const std::string& key, const std::string& why = "") const {
    auto it = values_.find(key);
    if (it == values_.end())
      source_.fail(node_.Mark(), full(key), "missing" + (why.empty() ? "" : " (" + why + ")"));
    return it->second;
  }
  // Keys that are valid in the schema but meaningless for this topology.
  void reject(const std::string& key, const std::string& why) const {
    auto it = values_.find(key);
    // An empty value's mark may point past the key's line: report the key's then.
    if (it != values_.end())
      source_.fail(it->second.IsNull() ? key_marks_.at(key) : it->second.Mark(), full(key), why);
  }

  std::string scalar(const std::string& key) const { return as_scalar(required(key), key); }
  std::string as_scalar(const YAML::Node& value, const std::string& key) const {
    // An empty value's mark points past the key, possibly to the next line: report the key's.
    if (value.IsNull()) source_.fail(key_marks_.at(key), full(key), "has no value");
    if (!value.IsScalar()) source_.fail(value.Mark(), full(key), "must be a single value");
    return value.Scalar();
  }

  double bandwidth(const std::string& key) const {
    return quantity(
        key, parse_bandwidth, [](double bw) { return bw > 0; }, "must be positive");
  }
  double time(const std::string& key) const {
    return quantity(
        key, parse_time, [](double t) { return t >= 0; }, "must not be negative");
  }
  double bytes(const std::string& key) const {
    return quantity(
        key, parse_bytes, [](double b) { return b >= 0; }, "must not be negative");
  }
  // A value with a unit (platforms/units.hpp), parsed by `parse` and checked by `valid`; every
  // error names the key's line and the key.
  double quantity(const std::string& key, double (*parse)(const std::string&),
                  bool (*valid)(double), const char* range) const {
    const YAML::Node value = required(key);
    const std::string text = as_scalar(value, key);
    double number = 0;
    try {
      number = parse(text);
    } catch (const std::invalid_argument& e) {
      source_.fail(value.Mark(), full(key), e.what());
    }
    if (!valid(number))
      source_.fail(value.Mark(), full(key), std::string(range) + ", got '" + text + "'");
    return number;
  }
  int count(const std::string& key) const { return positive_int(as_node(key), full(key)); }
  // A count that may be 0 (nic_receive_buffers: 0 is its default, no slack).
  int count_or_zero(const std::string& key) const {
    return bounded_int(as_node(key), full(key), 0, "a non-negative integer");
  }
  bool boolean(const std::string& key) const {
    const YAML::Node value = required(key);
    const std::string text = as_scalar(value, key);
    if (text != "true" && text != "false")
      source_.fail(value.Mark(), full(key), "must be true or false, got '" + text + "'");
    return text == "true";
  }
  // The value of a required key; an empty value is reported on the key's line.
  YAML::Node as_node(const std::string& key) const {
    const YAML::Node value = required(key);
    if (value.IsNull()) source_.fail(key_marks_.at(key), full(key), "has no value");
    return value;
  }

  int positive_int(const YAML::Node& value, const std::string& name) const {
    return bounded_int(value, name, 1, "a positive integer");
  }
  // An integer in [minimum, kMaxNodes]; `what` names the range in the error.
  int bounded_int(const YAML::Node& value, const std::string& name, int minimum,
                  const std::string& what) const {
    if (!value.IsScalar()) source_.fail(value.Mark(), name, "must be " + what);
    const std::string& text = value.Scalar();
    std::int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && n > kMaxNodes))
      source_.fail(value.Mark(), name, "'" + text + "' is too large");
    if (ec != std::errc() || end != text.data() + text.size() || n < minimum)
      source_.fail(value.Mark(), name, "must be " + what + ", got '" + text + "'");
    return static_cast<int>(n);
  }
  std::vector<int> int_list(const std::string& key) const {
    const YAML::Node value = as_node(key);
    if (!value.IsSequence())
      source_.fail(value.Mark(), full(key), "must be a list of positive integers, e.g. [4, 4]");
    std::vector<int> out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(positive_int(value[i], full(key) + "[" + std::to_string(i) + "]"));
    return out;
  }

  YAML::Mark mark(const std::string& key) const { return required(key).Mark(); }

 private:
  const Source& source_;
  YAML::Node node_;
  std::string path_;
  std::map<std::string, YAML::Node> values_;
  std::map<std::string, YAML::Mark> key_marks_;
};

LinkSpec read_link(const Map& parent, const std::string& key) {
  const Map link(parent.source(), parent.as_node(key), parent.full(key), {"bandwidth", "latency"});
  return {link.bandwidth("bandwidth"), link.time("latency")};
}

// Multiplies shape factors, failing once the product exceeds kMaxNodes.
std::int64_t checked_product(const Map& map, const std::string& key, std::int64_t a,
                             std::int64_t b) {
  const std::int64_t product = a * b;  // both ≤ 2^30: no overflow
  if (product > kMaxNodes)
    map.source().fail(map.mark(key), map.full(key),
                      "the shape has more than " + std::to_string(kMaxNodes) + " nodes");
  return product;
}

void read_shape(const Map& top, PlatformSpec& spec) {
  const YAML::Node node = top.as_node("topology");
  if (!node.IsMap()) top.source().fail(node.Mark(), "topology", "must be a map of keys");
  const YAML::Node kind_node = node["kind"];
  if (!kind_node) top.source().fail(node.Mark(), "topology.kind", "missing");
  if (!kind_node.IsScalar())
    top.source().fail(kind_node.Mark(), "topology.kind", "must be a single value");
  const auto kind = topology_names().find(kind_node.Scalar());
  if (kind == topology_names().end())
    top.source().fail(kind_node.Mark(), "topology.kind",
                      "unknown topology '" + kind_node.Scalar() +
                          "' (expected single_node, star, torus, fat_tree or dragonfly)");
  spec.topology = kind->second;

  switch (spec.topology) {
    case Topology::single_node: {
      const Map shape(top.source(), node, "topology", {"kind"});
      spec.nodes = 1;
      break;
    }
    case Topology::star: {
      const Map shape(top.source(), node, "topology", {"kind", "nodes"});
      spec.nodes = shape.count("nodes");
      break;
    }
    case Topology::torus: {
      const Map shape(top.source(), node, "topology", {"kind", "dims"});
      spec.torus_dims = shape.int_list("dims");
      const int dims = static_cast<int>(spec.torus_dims.size());
      if (dims < 1 || dims > kMaxTorusDims)
        top.source().fail(shape.mark("dims"), "topology.dims",
                          std::to_string(dims) + " dimensions; a torus has 1 to " +
                              std::to_string(kMaxTorusDims));
      std::int64_t nodes = 1;
      for (int d : spec.torus_dims)
        nodes = checked_product(shape, "dims", nodes, d);
      spec.nodes = static_cast<int>(nodes);
      break;
    }
    case Topology::fat_tree: {
      const Map shape(top.source(), node, "topology", {"kind", "levels", "down", "up", "parallel"});
      spec.fat_tree_levels = shape.count("levels");
      spec.fat_tree_down = shape.int_list("down");
      spec.fat_tree_up = shape.int_list("up");
      spec.fat_tree_parallel = shape.int_list("parallel");
      for (const char* key : {"down", "up", "parallel"}) {
        const std::size_t size = shape.required(key).size();
        if (size != static_cast<std::size_t>(spec.fat_tree_levels))
          top.source().fail(shape.mark(key), shape.full(key),
                            "has " + std::to_string(size) + " entries but levels is " +
                                std::to_string(spec.fat_tree_levels) +
                                " (one entry per level, from the nodes up)");
      }
      std::int64_t nodes = 1;
      for (int d : spec.fat_tree_down)
        nodes = checked_product(shape, "down", nodes, d);
      spec.nodes = static_cast<int>(nodes);
      break;
    }
    case Topology::dragonfly: {
      const Map shape(top.source(), node, "topology",
                      {"kind", "groups", "routers_per_group", "nodes_per_router",
                       "global_links_per_router", "local_links_per_router_pair"});
      spec.dragonfly_groups = shape.count("groups");
      spec.dragonfly_routers_per_group = shape.count("routers_per_group");
      spec.dragonfly_nodes_per_router = shape.count("nodes_per_router");
      spec.dragonfly_global_links_per_router = shape.count("global_links_per_router");
      if (shape.has("local_links_per_router_pair"))
        spec.dragonfly_local_links_per_router_pair = shape.count("local_links_per_router_pair");
      const std::int64_t ports =
          std::int64_t{spec.dragonfly_routers_per_group} * spec.dragonfly_global_links_per_router;
      if (spec.dragonfly_groups - 1 > ports)
        top.source().fail(shape.mark("global_links_per_router"), "topology.global_links_per_router",
                          std::to_string(spec.dragonfly_routers_per_group) + " routers x " +
                              std::to_string(spec.dragonfly_global_links_per_router) + " = " +
                              std::to_string(ports) + " global links per group cannot reach the " +
                              std::to_string(spec.dragonfly_groups - 1) +
                              " other groups directly (need groups - 1 <= routers_per_group x "
                              "global_links_per_router)");
      std::int64_t nodes =
          checked_product(shape, "groups", spec.dragonfly_groups, spec.dragonfly_routers_per_group);
      nodes = checked_product(shape, "nodes_per_router", nodes, spec.dragonfly_nodes_per_router);
      spec.nodes = static_cast<int>(nodes);
      break;
    }
  }
}

// How the NIC serves its messages (nic_engines, nic_engine_choice, nic_pipelined,
// nic_backpressure, nic_receive_buffers): only with a NIC time to serve.
void read_nic_engines(const Map& top, PlatformSpec& spec) {
  for (const char* key : {"nic_engines", "nic_engine_choice", "nic_pipelined", "nic_backpressure",
                          "nic_receive_buffers"})
    if (spec.nic_message_time <= 0)
      top.reject(key, "needs a positive nic_message_time (the time each engine takes a message)");
  if (top.has("nic_engines")) {
    spec.nic_engines = top.count("nic_engines");
    // A NIC has a few engines (Tofu-D 6); the scale engine keeps two calendars per engine and node.
    if (spec.nic_engines > kMaxNicEngines)
      top.source().fail(top.required("nic_engines").Mark(), top.full("nic_engines"),
                        "must be at most " + std::to_string(kMaxNicEngines) + ", got '" +
                            std::to_string(spec.nic_engines) + "'");
  }
  if (top.has("nic_engine_choice")) {
    const std::string choice = top.scalar("nic_engine_choice");
    if (choice != "peer_node" && choice != "rank")
      top.source().fail(top.required("nic_engine_choice").Mark(), top.full("nic_engine_choice"),
                        "'" + choice + "' is not supported (supported: peer_node, rank)");
    spec.nic_engine_choice = choice == "rank" ? NicEngineChoice::rank : NicEngineChoice::peer_node;
  }
  if (top.has("nic_pipelined")) spec.nic_pipelined = top.boolean("nic_pipelined");
  if (top.has("nic_backpressure")) spec.nic_backpressure = top.boolean("nic_backpressure");
  if (top.has("nic_receive_buffers")) {
    // Buffers only matter to a sender that waits for them.
    if (!spec.nic_backpressure)
      top.reject("nic_receive_buffers",
                 "needs nic_backpressure: true (a sender held for a buffer)");
    spec.nic_receive_buffers = top.count_or_zero("nic_receive_buffers");
  }
}

PlatformSpec read_platform(const Source& source, const YAML::Node& root) {
  const Map top(source, root, "",
                {"name",
                 "description",
                 "topology",
                 "link",
                 "injection",
                 "global_link",
                 "routing",
                 "ranks_per_node",
                 "intra_node",
                 "message_overhead",
                 "memory_copy_bandwidth",
                 "group_launch_overhead",
                 "nic_message_time",
                 "nic_engines",
                 "nic_engine_choice",
                 "nic_pipelined",
                 "nic_backpressure",
                 "nic_receive_buffers",
                 "match_time",
                 "eager_threshold",
                 "inject_size",
                 "node_memory_bandwidth",
                 "pack_bandwidth"});
  PlatformSpec spec;
  spec.source = source.origin();
  spec.name = top.scalar("name");
  if (spec.name.empty()) source.fail(top.mark("name"), "name", "must not be empty");
  if (top.has("description")) spec.description = top.scalar("description");
  read_shape(top, spec);
  const std::string kind = topology_name(spec.topology);

  if (!topology_has_link(spec.topology, "link")) {
    top.reject("link", "not used by topology single_node (it has no network)");
  } else {
    spec.link = read_link(top, "link");
  }
  if (topology_has_link(spec.topology, "injection")) {
    spec.injection = top.has("injection") ? read_link(top, "injection") : spec.link;
  } else {
    top.reject("injection", "only for torus and dragonfly (the node-to-router link); topology " +
                                kind + " has none");
  }
  if (topology_has_link(spec.topology, "global_link")) {
    spec.global_link = top.has("global_link") ? read_link(top, "global_link") : spec.link;
  } else {
    top.reject("global_link", "only for dragonfly; topology " + kind + " has no global links");
  }
  if (top.has("routing")) {
    spec.routing = top.scalar("routing");
    if (spec.routing != "minimal" && spec.routing != "ugal" && spec.routing != "valiant")
      source.fail(top.mark("routing"), "routing",
                  "'" + spec.routing + "' is not supported (supported: minimal, ugal, valiant)");
    if (spec.routing != "minimal" && spec.topology != Topology::dragonfly)
      source.fail(
          top.mark("routing"), "routing",
          "'" + spec.routing + "' is for dragonflies only; topology " + kind + " routes minimal");
  }

  spec.ranks_per_node = top.count("ranks_per_node");
  spec.intra_node = read_link(top, "intra_node");
  if (top.has("message_overhead")) spec.message_overhead = top.time("message_overhead");
  if (top.has("memory_copy_bandwidth"))
    spec.memory_copy_bandwidth = top.bandwidth("memory_copy_bandwidth");
  if (top.has("group_launch_overhead"))
    spec.group_launch_overhead = top.time("group_launch_overhead");
  if (top.has("nic_message_time")) spec.nic_message_time = top.time("nic_message_time");
  read_nic_engines(top, spec);
  if (top.has("match_time")) spec.match_time = top.time("match_time");
  if (top.has("eager_threshold")) spec.eager_threshold = top.bytes("eager_threshold");
  if (top.has("inject_size")) spec.inject_size = top.bytes("inject_size");
  if (top.has("node_memory_bandwidth"))
    spec.node_memory_bandwidth = top.bandwidth("node_memory_bandwidth");
  if (top.has("pack_bandwidth")) spec.pack_bandwidth = top.bandwidth("pack_bandwidth");

  const std::int64_t ranks = spec.max_ranks();
  if (ranks > std::numeric_limits<std::int32_t>::max())
    source.fail(top.mark("ranks_per_node"), "ranks_per_node",
                std::to_string(spec.node_count()) + " nodes x " +
                    std::to_string(spec.ranks_per_node) + " ranks per node exceeds 2^31 - 1 ranks");
  return spec;
}

}  // namespace

const char* topology_name(Topology topology) {
  switch (topology) {
    case Topology::single_node:
      return "single_node";
    case Topology::star:
      return "star";
    case Topology::torus:
      return "torus";
    case Topology::fat_tree:
      return "fat_tree";
    case Topology::dragonfly:
      return "dragonfly";
  }
  return "?";
}

bool topology_has_link(Topology topology, const std::string& section) {
  if (section == "link") return topology != Topology::single_node;
  if (section == "injection") return topology == Topology::torus || topology == Topology::dragonfly;
  if (section == "global_link") return topology == Topology::dragonfly;
  return section == "intra_node";
}

int PlatformSpec::node_count() const {
  return topology == Topology::single_node ? 1 : nodes;
}

std::vector<int> torus_block_dims(const std::vector<int>& dims, std::int64_t nodes) {
  std::vector<int> block;
  std::int64_t product = 1;
  for (int dim : dims) {
    if (product >= nodes && !block.empty()) break;
    block.push_back(dim);
    product *= dim;
  }
  return block;
}

PlatformSpec parse_platform(const std::string& yaml_text, const std::string& origin) {
  const Source source(origin);
  YAML::Node root;
  try {
    root = parse_single_document(yaml_text, origin);
  } catch (const YAML::ParserException& e) {
    throw InputError(source.where(e.mark) + "YAML syntax error: " + e.msg);
  }
  if (!root || root.IsNull()) throw InputError(origin + ":1: empty platform description");
  try {
    return read_platform(source, root);
  } catch (const YAML::Exception& e) {  // yaml-cpp conversion errors not caught above
    throw InputError(source.where(e.mark) + e.msg);
  }
}

PlatformSpec load_platform(const std::string& name_or_path) {
  for (const auto& preset : platform_presets())
    if (preset.name == name_or_path) return parse_platform(preset.yaml, "preset " + preset.name);
  std::ifstream in(name_or_path);
  if (!in) {
    std::string names;
    for (const auto& preset : platform_presets())
      names += (names.empty() ? "" : ", ") + preset.name;
    throw InvalidParameter("platform '" + name_or_path +
                           "': no preset of that name and no readable file (presets: " + names +
                           ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_platform(text.str(), name_or_path);
}

PlatformSpec without_scale_terms(PlatformSpec spec) {
  spec.nic_message_time = 0;
  spec.nic_engines = 1;
  spec.nic_engine_choice = NicEngineChoice::peer_node;
  spec.nic_pipelined = false;
  spec.nic_backpressure = false;
  spec.nic_receive_buffers = 0;
  spec.match_time = 0;
  spec.eager_threshold = -1;
  spec.inject_size = -1;
  spec.node_memory_bandwidth = 0;
  spec.pack_bandwidth = 0;
  spec.routing = "minimal";
  return spec;
}

std::string scale_term_keys(const PlatformSpec& spec) {
  std::string keys;
  const auto add = [&keys](bool set, const char* key) {
    if (set) keys += (keys.empty() ? "" : ", ") + std::string(key);
  };
  add(spec.nic_message_time > 0, "nic_message_time");
  add(spec.match_time > 0, "match_time");
  add(spec.eager_threshold >= 0, "eager_threshold");
  add(spec.inject_size >= 0, "inject_size");
  add(spec.node_memory_bandwidth > 0, "node_memory_bandwidth");
  add(spec.pack_bandwidth > 0, "pack_bandwidth");
  add(spec.routing != "minimal", "routing");
  return keys;
}

void check_fits(const PlatformSpec& spec, std::int64_t ranks) {
  if (ranks < 1)
    throw InvalidParameter("ranks: " + std::to_string(ranks) + " is not a positive rank count");
  const std::int64_t needed = (ranks + spec.ranks_per_node - 1) / spec.ranks_per_node;
  if (needed > spec.node_count())
    throw InvalidParameter("platform '" + spec.name + "' has " + std::to_string(spec.node_count()) +
                           " nodes but " + std::to_string(ranks) + " ranks at " +
                           std::to_string(spec.ranks_per_node) + " ranks per node need " +
                           std::to_string(needed) + " nodes");
}

}  // namespace a2a
