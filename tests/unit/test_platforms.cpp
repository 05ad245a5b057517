// Platform descriptions without SimGrid: the presets, units, every class of loader error (each
// must name the origin, the 1-based line and the key), check_fits, and the dragonfly wiring.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "algorithms/errors.hpp"
#include "platforms/dragonfly.hpp"
#include "platforms/placement.hpp"
#include "platforms/platform.hpp"
#include "platforms/units.hpp"

using namespace a2a;

namespace {

// A minimal valid star description; tests edit one line at a time.
const char* const kStar =
    "name: s\n"                                  // 1
    "topology:\n"                                // 2
    "  kind: star\n"                             // 3
    "  nodes: 4\n"                               // 4
    "link: {bandwidth: 10GBps, latency: 1us}\n"  // 5
    "ranks_per_node: 2\n"                        // 6
    "intra_node:\n"                              // 7
    "  bandwidth: 20GBps\n"                      // 8
    "  latency: 100ns\n";                        // 9

// The message of the InputError that parsing `yaml` throws ("" when it parses).
std::string error_of(const std::string& yaml) {
  try {
    parse_platform(yaml, "test.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

bool near(double a, double b) {
  return std::fabs(a - b) <= 1e-12 * std::fabs(b);
}

}  // namespace

TEST_CASE("every preset parses and has the documented shape") {
  std::set<std::string> names;
  for (const auto& preset : platform_presets()) {
    CAPTURE(preset.name);
    names.insert(preset.name);
    CHECK_FALSE(preset.description.empty());
    const PlatformSpec spec = parse_platform(preset.yaml, "preset " + preset.name);
    CHECK(spec.name == preset.name);
    CHECK(spec.source == "preset " + preset.name);
    CHECK_FALSE(spec.description.empty());
    CHECK(spec.intra_node.bandwidth > 0);
    CHECK(load_platform(preset.name).name == preset.name);
  }
  CHECK(names == std::set<std::string>{"fugaku", "fugaku_full", "laptop", "polaris",
                                       "polaris_scaled", "small_dragonfly", "theta", "tiny"});

  // Polaris as built (Fan et al., HPDC 2025, §5; ALCF): 560 nodes, 32 ranks per node, adaptive
  // routing, and the MPI and node costs that only the scale engine models.
  const PlatformSpec polaris = load_platform("polaris");
  CHECK(polaris.topology == Topology::dragonfly);
  CHECK(polaris.ranks_per_node == 32);
  CHECK(polaris.node_count() == 560);
  CHECK(polaris.routing == "ugal");
  CHECK(polaris.match_time == 0);  // the NIC matches receives in hardware
  CHECK(polaris.has_scale_terms());
  CHECK(polaris.link.bandwidth == 25e9);  // 200Gbps
  CHECK(polaris.dragonfly_groups - 1 <=
        polaris.dragonfly_routers_per_group * polaris.dragonfly_global_links_per_router);
  const PlatformSpec scaled = load_platform("polaris_scaled");
  CHECK(scaled.max_ranks() >= 131072);
  CHECK(scaled.nic_message_time == polaris.nic_message_time);
  CHECK(scaled.match_time == polaris.match_time);
  CHECK(scaled.injection.latency == polaris.injection.latency);

  const PlatformSpec fugaku = load_platform("fugaku");
  CHECK(fugaku.topology == Topology::torus);
  CHECK(fugaku.torus_dims.size() == 6);
  CHECK(fugaku.ranks_per_node == 32);
  CHECK(fugaku.node_count() >= 4096);
  CHECK(fugaku.max_ranks() >= 131072);
  CHECK(near(fugaku.injection.bandwidth, 6 * fugaku.link.bandwidth));
  const PlatformSpec full = load_platform("fugaku_full");
  CHECK(full.node_count() == 158976);  // 24 x 23 x 24 x 2 x 3 x 2
  CHECK(full.ranks_per_node == 48);

  const PlatformSpec theta = load_platform("theta");
  CHECK(theta.topology == Topology::dragonfly);
  CHECK(theta.ranks_per_node == 64);
  CHECK(theta.node_count() >= 4392);

  const PlatformSpec tiny = load_platform("tiny");
  CHECK(tiny.ranks_per_node == 4);
  CHECK(tiny.node_count() == 64);

  const PlatformSpec small = load_platform("small_dragonfly");
  CHECK(small.topology == Topology::dragonfly);
  CHECK(small.max_ranks() == 256);

  const PlatformSpec laptop = load_platform("laptop");
  CHECK(laptop.topology == Topology::single_node);
  CHECK(laptop.node_count() == 1);
  CHECK(laptop.max_ranks() == 8);
}

TEST_CASE("a full description fills every field and optional keys take their defaults") {
  const PlatformSpec spec = parse_platform(kStar, "star.yaml");
  CHECK(spec.name == "s");
  CHECK(spec.source == "star.yaml");
  CHECK(spec.topology == Topology::star);
  CHECK(spec.node_count() == 4);
  CHECK(spec.link.bandwidth == 10e9);
  CHECK(near(spec.link.latency, 1e-6));
  CHECK(spec.ranks_per_node == 2);
  CHECK(spec.intra_node.bandwidth == 20e9);
  CHECK(near(spec.intra_node.latency, 100e-9));
  CHECK(spec.routing == "minimal");
  CHECK(spec.message_overhead == 0);
  CHECK(spec.memory_copy_bandwidth == 0);  // copies free
  CHECK(spec.group_launch_overhead == 0);
  CHECK(spec.max_ranks() == 8);

  const PlatformSpec dragonfly = parse_platform(
      "name: d\n"
      "topology: {kind: dragonfly, groups: 5, routers_per_group: 2, nodes_per_router: 3,\n"
      "           global_links_per_router: 2}\n"
      "link: {bandwidth: 1GBps, latency: 1us}\n"
      "ranks_per_node: 1\n"
      "intra_node: {bandwidth: 1GBps, latency: 0}\n"
      "message_overhead: 2us\n"
      "memory_copy_bandwidth: 3GBps\n"
      "group_launch_overhead: 5us\n",
      "d.yaml");
  CHECK(dragonfly.node_count() == 30);
  CHECK(dragonfly.global_link.bandwidth == 1e9);  // defaults to link
  CHECK(dragonfly.injection.bandwidth == 1e9);    // defaults to link
  CHECK(near(dragonfly.message_overhead, 2e-6));
  CHECK(dragonfly.memory_copy_bandwidth == 3e9);
  CHECK(near(dragonfly.group_launch_overhead, 5e-6));
  CHECK(dragonfly.intra_node.latency == 0);
  CHECK(dragonfly.dragonfly_local_links_per_router_pair == 1);  // the default
  CHECK(dragonfly.pack_bandwidth == 0);                         // packing free by default

  // Parallel local cables: a positive integer, named with its line when it is not.
  const std::string cabled =
      "name: d\n"
      "topology: {kind: dragonfly, groups: 2, routers_per_group: 2, nodes_per_router: 1,\n"
      "           global_links_per_router: 1, local_links_per_router_pair: LINKS}\n"
      "link: {bandwidth: 1GBps, latency: 1us}\n"
      "ranks_per_node: 1\n"
      "intra_node: {bandwidth: 1GBps, latency: 0}\n"
      "pack_bandwidth: 2GBps\n";
  const PlatformSpec three = parse_platform(replace(cabled, "LINKS", "3"), "c.yaml");
  CHECK(three.dragonfly_local_links_per_router_pair == 3);
  CHECK(three.pack_bandwidth == 2e9);
  CHECK(error_of(replace(cabled, "LINKS", "0"))
            .find("key 'topology.local_links_per_router_pair': must be a positive integer") !=
        std::string::npos);

  const PlatformSpec tree = parse_platform(
      "name: f\n"
      "topology: {kind: fat_tree, levels: 2, down: [4, 3], up: [1, 2], parallel: [1, 2]}\n"
      "link: {bandwidth: 1GBps, latency: 1us}\n"
      "ranks_per_node: 1\n"
      "intra_node: {bandwidth: 1GBps, latency: 0}\n",
      "f.yaml");
  CHECK(tree.node_count() == 12);
  CHECK(tree.fat_tree_parallel == std::vector<int>{1, 2});

  const PlatformSpec torus = parse_platform(
      "name: t\n"
      "topology: {kind: torus, dims: [2, 3, 4]}\n"
      "link: {bandwidth: 1GBps, latency: 1us}\n"
      "injection: {bandwidth: 4GBps, latency: 2us}\n"
      "ranks_per_node: 3\n"
      "intra_node: {bandwidth: 1GBps, latency: 0}\n",
      "t.yaml");
  CHECK(torus.node_count() == 24);
  CHECK(torus.injection.bandwidth == 4e9);
  CHECK(torus.max_ranks() == 72);
}

TEST_CASE("torus_block_dims: the leading dimensions that hold the first nodes") {
  const std::vector<int> dims = {24, 23, 24, 2, 3, 2};
  CHECK(torus_block_dims(dims, 1) == std::vector<int>{24});
  CHECK(torus_block_dims(dims, 24) == std::vector<int>{24});
  CHECK(torus_block_dims(dims, 25) == std::vector<int>{24, 23});
  CHECK(torus_block_dims(dims, 5462) == std::vector<int>{24, 23, 24});
  CHECK(torus_block_dims(dims, 21846) == std::vector<int>{24, 23, 24, 2});
  CHECK(torus_block_dims(dims, 158976) == dims);
  CHECK(torus_block_dims({4, 4, 4}, 64) == std::vector<int>{4, 4, 4});
}

TEST_CASE(
    "machine terms: NIC, matching, eager threshold, inject size, node memory, adaptive routing") {
  const std::string terms = std::string(kStar) +
                            "nic_message_time: 200ns\n"
                            "match_time: 10ns\n"
                            "eager_threshold: 4KiB\n"
                            "inject_size: 192B\n"
                            "node_memory_bandwidth: 100GBps\n";
  const PlatformSpec spec = parse_platform(terms, "t.yaml");
  CHECK(near(spec.nic_message_time, 200e-9));
  CHECK(near(spec.match_time, 10e-9));
  CHECK(spec.eager_threshold == 4096);
  CHECK(spec.inject_size == 192);
  CHECK(spec.node_memory_bandwidth == 100e9);
  CHECK(spec.has_scale_terms());
  CHECK(scale_term_keys(spec) ==
        "nic_message_time, match_time, eager_threshold, inject_size, node_memory_bandwidth");
  CHECK(parse_platform(std::string(kStar) + "inject_size: 0B\n", "t.yaml").has_scale_terms());
  const PlatformSpec plain = without_scale_terms(spec);
  CHECK_FALSE(plain.has_scale_terms());
  CHECK(scale_term_keys(plain).empty());
  CHECK_FALSE(parse_platform(kStar, "s.yaml").has_scale_terms());
  CHECK(parse_platform(std::string(kStar) + "eager_threshold: 0\n", "t.yaml").eager_threshold == 0);

  CHECK(error_of(std::string(kStar) + "nic_message_time: -1us\n") ==
        "test.yaml:10: key 'nic_message_time': must not be negative, got '-1us'");
  CHECK(spec.nic_engines == 1);
  CHECK_FALSE(spec.nic_pipelined);
  const PlatformSpec engines = parse_platform(
      std::string(kStar) + "nic_message_time: 2us\nnic_engines: 6\nnic_pipelined: true\n",
      "e.yaml");
  CHECK(engines.nic_engines == 6);
  CHECK(engines.nic_pipelined);
  CHECK(without_scale_terms(engines).nic_engines == 1);
  CHECK_FALSE(without_scale_terms(engines).nic_pipelined);
  CHECK_FALSE(engines.nic_backpressure);
  const PlatformSpec held = parse_platform(
      std::string(kStar) + "nic_message_time: 2us\nnic_backpressure: true\n", "b.yaml");
  CHECK(held.nic_backpressure);
  CHECK_FALSE(without_scale_terms(held).nic_backpressure);
  CHECK(error_of(std::string(kStar) + "nic_backpressure: true\n") ==
        "test.yaml:10: key 'nic_backpressure': needs a positive nic_message_time (the time each "
        "engine takes a message)");
  const PlatformSpec buffered =
      parse_platform(std::string(kStar) +
                         "nic_message_time: 2us\nnic_backpressure: true\nnic_receive_buffers: 64\n",
                     "r.yaml");
  CHECK(buffered.nic_receive_buffers == 64);
  CHECK(held.nic_receive_buffers == 0);
  CHECK(without_scale_terms(buffered).nic_receive_buffers == 0);
  CHECK(error_of(std::string(kStar) + "nic_message_time: 2us\nnic_receive_buffers: 64\n") ==
        "test.yaml:11: key 'nic_receive_buffers': needs nic_backpressure: true (a sender held for "
        "a buffer)");
  CHECK(error_of(std::string(kStar) +
                 "nic_message_time: 2us\nnic_backpressure: true\nnic_receive_buffers: -1\n") ==
        "test.yaml:12: key 'nic_receive_buffers': must be a non-negative integer, got '-1'");
  // 0 is the default (no slack), so it may be written.
  CHECK(
      parse_platform(std::string(kStar) +
                         "nic_message_time: 2us\nnic_backpressure: true\nnic_receive_buffers: 0\n",
                     "z.yaml")
          .nic_receive_buffers == 0);
  CHECK(error_of(std::string(kStar) + "nic_message_time: 2us\nnic_backpressure: 1\n") ==
        "test.yaml:11: key 'nic_backpressure': must be true or false, got '1'");
  CHECK(error_of(std::string(kStar) + "nic_engines: 6\n") ==
        "test.yaml:10: key 'nic_engines': needs a positive nic_message_time (the time each engine "
        "takes a message)");
  CHECK(error_of(std::string(kStar) + "nic_pipelined: true\n") ==
        "test.yaml:10: key 'nic_pipelined': needs a positive nic_message_time (the time each "
        "engine takes a message)");
  CHECK(error_of(std::string(kStar) + "nic_engines:\nnic_message_time: 0us\n") ==
        "test.yaml:10: key 'nic_engines': needs a positive nic_message_time (the time each engine "
        "takes a message)");
  CHECK(error_of(std::string(kStar) + "nic_message_time: 2us\nnic_engines: 65\n") ==
        "test.yaml:11: key 'nic_engines': must be at most 64, got '65'");
  CHECK(error_of(std::string(kStar) + "nic_message_time: 2us\nnic_engines: 0\n") ==
        "test.yaml:11: key 'nic_engines': must be a positive integer, got '0'");
  CHECK(error_of(std::string(kStar) + "nic_message_time: 2us\nnic_pipelined: yes\n") ==
        "test.yaml:11: key 'nic_pipelined': must be true or false, got 'yes'");
  CHECK(engines.nic_engine_choice == NicEngineChoice::peer_node);
  const PlatformSpec by_rank = parse_platform(
      std::string(kStar) + "nic_message_time: 2us\nnic_engines: 6\nnic_engine_choice: rank\n",
      "r.yaml");
  CHECK(by_rank.nic_engine_choice == NicEngineChoice::rank);
  CHECK(without_scale_terms(by_rank).nic_engine_choice == NicEngineChoice::peer_node);
  CHECK(parse_platform(std::string(kStar) + "nic_message_time: 2us\nnic_engine_choice: peer_node\n",
                       "p.yaml")
            .nic_engine_choice == NicEngineChoice::peer_node);
  CHECK(error_of(std::string(kStar) + "nic_message_time: 2us\nnic_engine_choice: random\n") ==
        "test.yaml:11: key 'nic_engine_choice': 'random' is not supported (supported: peer_node, "
        "rank)");
  CHECK(error_of(std::string(kStar) + "nic_engine_choice: rank\n") ==
        "test.yaml:10: key 'nic_engine_choice': needs a positive nic_message_time (the time each "
        "engine takes a message)");
  // Rank 9 of 4 per node (node 2, place 1) with rank 22 (node 5, place 2), 3 engines.
  CHECK(nic_engine_of(3, 4, NicEngineChoice::peer_node, 9, 22) == 2);  // peer node 5 mod 3
  CHECK(nic_engine_of(3, 4, NicEngineChoice::rank, 9, 22) == 1);       // place 1 mod 3
  CHECK(nic_engine_of(3, 4, NicEngineChoice::rank, 22, 9) == 2);       // place 2 mod 3
  CHECK(error_of(std::string(kStar) + "eager_threshold: 4 furlongs\n")
            .find("test.yaml:10: key 'eager_threshold': unknown unit 'furlongs'") == 0);
  CHECK(
      error_of(std::string(kStar) + "routing: ugal\n") ==
      "test.yaml:10: key 'routing': 'ugal' is for dragonflies only; topology star routes minimal");
  CHECK(
      error_of(std::string(kStar) + "routing: random\n") ==
      "test.yaml:10: key 'routing': 'random' is not supported (supported: minimal, ugal, valiant)");
  CHECK(parse_bytes("8KiB") == 8192);
  CHECK(parse_bytes("2 MB") == 2e6);
  CHECK(parse_bytes("100") == 100);
}

TEST_CASE("bandwidth and time units") {
  CHECK(parse_bandwidth("25GBps") == 25e9);
  CHECK(parse_bandwidth("25 GBps") == 25e9);
  CHECK(parse_bandwidth("200Gbps") == 25e9);
  CHECK(parse_bandwidth("1.5e9") == 1.5e9);
  CHECK(parse_bandwidth("1e9Bps") == 1e9);
  CHECK(parse_bandwidth("3kBps") == 3e3);
  CHECK(parse_bandwidth("3KBps") == 3e3);
  CHECK(parse_bandwidth("2MBps") == 2e6);
  CHECK(parse_bandwidth("1TBps") == 1e12);
  CHECK(parse_bandwidth("1KiBps") == 1024);
  CHECK(parse_bandwidth("2MiBps") == 2 * 1048576.0);
  CHECK(parse_bandwidth("1GiBps") == 1073741824.0);
  CHECK(parse_bandwidth("8bps") == 1);
  CHECK(parse_bandwidth("8kbps") == 1e3);
  CHECK(parse_bandwidth("8Mbps") == 1e6);
  CHECK(parse_bandwidth("1Tbps") == 1e12 / 8);
  CHECK(near(parse_time("1us"), 1e-6));
  CHECK(near(parse_time("1\xC2\xB5s"), 1e-6));
  CHECK(near(parse_time("0.5ms"), 0.5e-3));
  CHECK(near(parse_time("3ns"), 3e-9));
  CHECK(parse_time("2s") == 2);
  CHECK(parse_time("2e-6") == 2e-6);
  CHECK(parse_time("0") == 0);
  for (const char* bad : {"25GB", "GBps", "", "fast", "inf", "nan", "25 G Bps", "1us"})
    CHECK_THROWS_AS(parse_bandwidth(bad), std::invalid_argument);
  for (const char* bad : {"1 sec", "us", "1h", "1GBps", "inf"})
    CHECK_THROWS_AS(parse_time(bad), std::invalid_argument);
}

TEST_CASE("loader errors name the file, the line and the key") {
  CHECK(error_of(kStar).empty());
  struct Case {
    std::string yaml;
    std::string expected;  // a prefix "FILE:LINE: key 'x'" plus part of the reason
  };
  const std::vector<Case> cases = {
      // Unknown keys, at top level and nested.
      {std::string(kStar) + "bandwith: 3GBps\n", "test.yaml:10: key 'bandwith': unknown key"},
      {replace(kStar, "  latency: 100ns", "  latancy: 100ns"),
       "test.yaml:9: key 'intra_node.latancy': unknown key"},
      {replace(kStar, "  nodes: 4", "  nodes: 4\n  dims: [2]"),
       "test.yaml:5: key 'topology.dims': unknown key"},
      // Missing keys: the line of the enclosing map.
      {replace(kStar, "name: s\n", ""), "test.yaml:1: key 'name': missing"},
      {replace(kStar, "ranks_per_node: 2\n", ""), "test.yaml:1: key 'ranks_per_node': missing"},
      {replace(kStar, "  latency: 100ns\n", ""), "test.yaml:8: key 'intra_node.latency': missing"},
      {replace(kStar, "  nodes: 4\n", ""), "test.yaml:3: key 'topology.nodes': missing"},
      {replace(kStar, "  kind: star\n", ""), "test.yaml:3: key 'topology.kind': missing"},
      {replace(kStar, "link: {bandwidth: 10GBps, latency: 1us}\n", ""),
       "test.yaml:1: key 'link': missing"},
      // Bad units and values.
      {replace(kStar, "bandwidth: 10GBps", "bandwidth: 10GB"),
       "test.yaml:5: key 'link.bandwidth': unknown unit 'GB'"},
      {replace(kStar, "latency: 1us", "latency: 1 sec"),
       "test.yaml:5: key 'link.latency': unknown unit 'sec'"},
      {replace(kStar, "  bandwidth: 20GBps", "  bandwidth: fast"),
       "test.yaml:8: key 'intra_node.bandwidth': 'fast' is not a bandwidth"},
      {replace(kStar, "  bandwidth: 20GBps", "  bandwidth: 0GBps"),
       "test.yaml:8: key 'intra_node.bandwidth': must be positive"},
      {replace(kStar, "  latency: 100ns", "  latency: -1ns"),
       "test.yaml:9: key 'intra_node.latency': must not be negative"},
      {replace(kStar, "ranks_per_node: 2", "ranks_per_node: 0"),
       "test.yaml:6: key 'ranks_per_node': must be a positive integer, got '0'"},
      {replace(kStar, "ranks_per_node: 2", "ranks_per_node: 2.5"),
       "test.yaml:6: key 'ranks_per_node': must be a positive integer, got '2.5'"},
      {replace(kStar, "  nodes: 4", "  nodes: -4"),
       "test.yaml:4: key 'topology.nodes': must be a positive integer"},
      {replace(kStar, "  nodes: 4", "  nodes: 99999999999999999999"),
       "test.yaml:4: key 'topology.nodes': '99999999999999999999' is too large"},
      {std::string(kStar) + "message_overhead: -1us\n",
       "test.yaml:10: key 'message_overhead': must not be negative"},
      {std::string(kStar) + "memory_copy_bandwidth: 0\n",
       "test.yaml:10: key 'memory_copy_bandwidth': must be positive"},
      {std::string(kStar) + "pack_bandwidth: fast\n",
       "test.yaml:10: key 'pack_bandwidth': 'fast' is not a bandwidth"},
      {replace(kStar, "  nodes: 4", "  nodes: 4\n  local_links_per_router_pair: 2"),
       "test.yaml:5: key 'topology.local_links_per_router_pair': unknown key"},
      {replace(kStar, "ranks_per_node: 2", "ranks_per_node:"),
       "test.yaml:6: key 'ranks_per_node': has no value"},
      {std::string(kStar) + "message_overhead:\n",
       "test.yaml:10: key 'message_overhead': has no value"},
      {replace(kStar, "link: {bandwidth: 10GBps, latency: 1us}", "link:"),
       "test.yaml:5: key 'link': has no value"},
      {replace(kStar, "topology:\n  kind: star\n  nodes: 4", "topology:"),
       "test.yaml:2: key 'topology': has no value"},
      {std::string(kStar) + "group_launch_overhead: [1us]\n",
       "test.yaml:10: key 'group_launch_overhead': must be a single value"},
      {replace(kStar, "link: {bandwidth: 10GBps, latency: 1us}", "link: 10GBps"),
       "test.yaml:5: key 'link': must be a map of keys"},
      {std::string(kStar) + "routing: adaptive\n",
       "test.yaml:10: key 'routing': 'adaptive' is not supported"},
      {replace(kStar, "kind: star", "kind: mesh"),
       "test.yaml:3: key 'topology.kind': unknown topology 'mesh'"},
      {replace(kStar, "name: s", "name: s\nname: t"),
       "test.yaml:2: key 'name' given twice (first at line 1)"},
      // Keys the topology does not use.
      {std::string(kStar) + "global_link: {bandwidth: 1GBps, latency: 1us}\n",
       "test.yaml:10: key 'global_link': only for dragonfly"},
      {std::string(kStar) + "injection: {bandwidth: 1GBps, latency: 1us}\n",
       "test.yaml:10: key 'injection': only for torus and dragonfly"},
      {"name: l\ntopology: {kind: single_node}\nlink: {bandwidth: 1GBps, latency: 0}\n"
       "ranks_per_node: 2\nintra_node: {bandwidth: 1GBps, latency: 0}\n",
       "test.yaml:3: key 'link': not used by topology single_node"},
      // Impossible shapes.
      {replace(kStar, "  kind: star\n  nodes: 4", "  kind: torus\n  dims: [2, 2, 2, 2, 2, 2, 2]"),
       "test.yaml:4: key 'topology.dims': 7 dimensions; a torus has 1 to 6"},
      {replace(kStar, "  kind: star\n  nodes: 4", "  kind: torus\n  dims: []"),
       "test.yaml:4: key 'topology.dims': 0 dimensions"},
      {replace(kStar, "  kind: star\n  nodes: 4", "  kind: torus\n  dims: [4, 0, 2]"),
       "test.yaml:4: key 'topology.dims[1]': must be a positive integer, got '0'"},
      {replace(kStar, "  kind: star\n  nodes: 4", "  kind: torus\n  dims: 4"),
       "test.yaml:4: key 'topology.dims': must be a list of positive integers"},
      {replace(kStar, "  kind: star\n  nodes: 4", "  kind: torus\n  dims: [2048, 2048, 2048]"),
       "test.yaml:4: key 'topology.dims': the shape has more than 1073741824 nodes"},
      {replace(
           kStar, "  kind: star\n  nodes: 4",
           "  kind: fat_tree\n  levels: 2\n  down: [4, 4]\n  up: [1, 4, 2]\n  parallel: [1, 1]"),
       "test.yaml:6: key 'topology.up': has 3 entries but levels is 2"},
      {replace(kStar, "  kind: star\n  nodes: 4",
               "  kind: fat_tree\n  levels: 2\n  down: [4, 4]\n  up: [1, 4]\n  parallel: [1]"),
       "test.yaml:7: key 'topology.parallel': has 1 entries but levels is 2"},
      {replace(kStar, "  kind: star\n  nodes: 4",
               "  kind: dragonfly\n  groups: 10\n  routers_per_group: 4\n  nodes_per_router: 2\n"
               "  global_links_per_router: 2"),
       "test.yaml:7: key 'topology.global_links_per_router': 4 routers x 2 = 8 global links per "
       "group cannot reach the 9 other groups"},
      {replace(kStar, "  kind: star\n  nodes: 4",
               "  kind: dragonfly\n  groups: 3\n  routers_per_group: 0\n  nodes_per_router: 2\n"
               "  global_links_per_router: 2"),
       "test.yaml:5: key 'topology.routers_per_group': must be a positive integer, got '0'"},
      // Not YAML, or not a map.
      {"name: [unclosed\n", "test.yaml:2: YAML syntax error"},
      {"- a\n- b\n", "test.yaml:1: the platform description must be a map of keys"},
      {"", "test.yaml:1: empty platform description"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.yaml);
    const std::string message = error_of(c.yaml);
    CAPTURE(message);
    CHECK(message.rfind(c.expected, 0) == 0);
  }
}

TEST_CASE("load_platform reads files and names them in errors, unknown names list the presets") {
  const std::string path = "/tmp/a2a_test_platform_" + std::to_string(::getpid()) + ".yaml";
  {
    std::ofstream out(path);
    out << replace(kStar, "  nodes: 4", "  nodes: 4\n  extra: 1");
  }
  try {
    load_platform(path);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).rfind(path + ":5: key 'topology.extra': unknown key", 0) == 0);
  }
  {
    std::ofstream out(path);
    out << kStar;
  }
  CHECK(load_platform(path).source == path);
  std::remove(path.c_str());

  try {
    load_platform("/no/such/platform.yaml");
    FAIL("expected an InvalidParameter");
  } catch (const InvalidParameter& e) {
    const std::string message = e.what();
    CHECK(message.find("/no/such/platform.yaml") != std::string::npos);
    CHECK(message.find("polaris") != std::string::npos);
  }
}

TEST_CASE("check_fits names the nodes available and needed") {
  const PlatformSpec spec = parse_platform(kStar, "star.yaml");  // 4 nodes x 2 ranks
  CHECK_NOTHROW(check_fits(spec, 1));
  CHECK_NOTHROW(check_fits(spec, 8));
  try {
    check_fits(spec, 9);
    FAIL("expected an InvalidParameter");
  } catch (const InvalidParameter& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find("has 4 nodes") != std::string::npos);
    CHECK(message.find("9 ranks") != std::string::npos);
    CHECK(message.find("need 5 nodes") != std::string::npos);
  }
  CHECK_THROWS_AS(check_fits(spec, 0), InvalidParameter);
  CHECK_NOTHROW(check_fits(load_platform("polaris"), 17920));
  CHECK_THROWS_AS(check_fits(load_platform("polaris"), 17921), InvalidParameter);
  CHECK_NOTHROW(check_fits(load_platform("polaris_scaled"), 131072));
  CHECK_NOTHROW(check_fits(load_platform("fugaku"), 131072));
}

namespace {

struct Place {
  int group, router;
  bool operator==(const Place&) const = default;
};

// Checks the wiring of one dragonfly shape and walks every route hop by hop.
void check_dragonfly(int G, int R, int N, int g, int L = 1) {
  CAPTURE(G);
  CAPTURE(R);
  CAPTURE(N);
  CAPTURE(g);
  CAPTURE(L);
  const DragonflyLayout layout(G, R, N, g, L);

  // Global ports: every pair of groups linked, symmetric counts, no router over its port budget,
  // the first link to each other group on distinct routers while there are enough routers.
  std::map<int, int> ports_per_router;
  std::int64_t ports = 0;
  std::set<int> first_routers;
  for (int d = 1; d < G; ++d) {
    CHECK(layout.links_at_offset(d) >= 1);
    CHECK(layout.links_at_offset(d) == layout.links_at_offset(G - d));
    for (int c = 0; c < layout.links_at_offset(d); ++c) {
      const int r = layout.router_holding(d, c);
      CHECK(r >= 0);
      CHECK(r < R);
      ++ports_per_router[r];
      ++ports;
    }
    first_routers.insert(layout.router_holding(d, 0));
  }
  for (const auto& [router, count] : ports_per_router)
    CHECK(count <= g);
  CHECK(ports <= std::int64_t{R} * g);
  if (G > 1) CHECK(ports >= std::int64_t{R} * g - 1);  // at most one dark port per group
  if (G - 1 <= R) CHECK(static_cast<int>(first_routers.size()) == G - 1);

  // Dense numbering; endpoints of every link.
  std::map<std::int64_t, std::pair<Place, Place>> global_ends, local_ends;
  for (int a = 0; a < G; ++a)
    for (int b = a + 1; b < G; ++b)
      for (int c = 0; c < layout.links_at_offset(b - a); ++c)
        CHECK(global_ends
                  .emplace(layout.global_link(a, b, c),
                           std::pair{Place{a, layout.router_holding(b - a, c)},
                                     Place{b, layout.router_holding(G - (b - a), c)}})
                  .second);
  CHECK(static_cast<std::int64_t>(global_ends.size()) == layout.global_link_count());
  if (!global_ends.empty()) CHECK(global_ends.rbegin()->first == layout.global_link_count() - 1);
  for (int grp = 0; grp < G; ++grp)
    for (int i = 0; i < R; ++i)
      for (int j = i + 1; j < R; ++j)
        for (int c = 0; c < L; ++c)
          CHECK(
              local_ends
                  .emplace(layout.local_link(grp, i, j, c), std::pair{Place{grp, i}, Place{grp, j}})
                  .second);
  CHECK(static_cast<std::int64_t>(local_ends.size()) == layout.local_link_count());

  // Every route is a connected minimal walk from the source's router to the destination's.
  const std::int64_t nodes = layout.nodes();
  CHECK(nodes == std::int64_t{G} * R * N);
  for (std::int64_t s = 0; s < nodes; ++s) {
    for (std::int64_t t = 0; t < nodes; ++t) {
      DragonflyLayout::Hop hops[5];
      const int count = layout.route(s, t, hops);
      if (s == t) {
        CHECK(count == 0);
        continue;
      }
      CAPTURE(s);
      CAPTURE(t);
      REQUIRE(count >= 2);
      REQUIRE(count <= 5);
      CHECK((hops[0].kind == DragonflyLayout::Hop::Kind::node && hops[0].link == s &&
             hops[0].forward));
      CHECK((hops[count - 1].kind == DragonflyLayout::Hop::Kind::node &&
             hops[count - 1].link == t && !hops[count - 1].forward));
      Place at{layout.group_of(s), layout.router_of(s)};
      int globals = 0, locals = 0;
      for (int h = 1; h < count - 1; ++h) {
        const bool global = hops[h].kind == DragonflyLayout::Hop::Kind::global;
        REQUIRE((global || hops[h].kind == DragonflyLayout::Hop::Kind::local));
        const auto& ends = global ? global_ends : local_ends;
        REQUIRE(ends.count(hops[h].link) == 1);
        const auto& [low, high] = ends.at(hops[h].link);
        const Place from = hops[h].forward ? low : high;
        const Place to = hops[h].forward ? high : low;
        CHECK(from == at);
        at = to;
        (global ? globals : locals) += 1;
      }
      CHECK(at == Place{layout.group_of(t), layout.router_of(t)});
      const bool same_group = layout.group_of(s) == layout.group_of(t);
      CHECK(globals == (same_group ? 0 : 1));
      CHECK(locals <= (same_group ? 1 : 2));
      if (!same_group) {  // both directions of a node pair share one cable
        DragonflyLayout::Hop back[5];
        const int back_count = layout.route(t, s, back);
        for (int h = 0; h < back_count; ++h)
          if (back[h].kind == DragonflyLayout::Hop::Kind::global)
            for (int k = 0; k < count; ++k)
              if (hops[k].kind == DragonflyLayout::Hop::Kind::global)
                CHECK(back[h].link == hops[k].link);
      }
    }
  }
}

}  // namespace

TEST_CASE("dragonfly wiring and minimal routes, exhaustively over small shapes") {
  for (int G = 1; G <= 7; ++G)
    for (int R = 1; R <= 4; ++R)
      for (int g = 1; g <= 3; ++g)
        if (G - 1 <= R * g)
          for (int N = 1; N <= 2; ++N)
            check_dragonfly(G, R, N, g);
  for (int L = 2; L <= 3; ++L) {
    check_dragonfly(1, 4, 2, 1, L);
    check_dragonfly(4, 3, 2, 2, L);
  }
}

TEST_CASE("dragonfly: flows between two routers spread over their parallel local cables") {
  // One group of 2 routers with 16 nodes each and 4 cables between them: the 256 node pairs
  // that cross use every cable, none more than twice its fair share.
  const DragonflyLayout layout(1, 2, 16, 1, 4);
  std::map<std::int64_t, int> flows;
  for (std::int64_t s = 0; s < 16; ++s)
    for (std::int64_t t = 16; t < 32; ++t) {
      DragonflyLayout::Hop hops[5];
      REQUIRE(layout.route(s, t, hops) == 3);
      REQUIRE((hops[1].kind == DragonflyLayout::Hop::Kind::local));
      ++flows[hops[1].link];
    }
  CHECK(flows.size() == 4);
  for (const auto& [link, count] : flows)
    CHECK(count <= 2 * 256 / 4);
}

TEST_CASE("dragonfly presets: every group pair linked, parallel links spread over routers") {
  for (const char* name : {"polaris", "theta", "small_dragonfly"}) {
    CAPTURE(name);
    const DragonflyLayout layout(load_platform(name));
    const int G = layout.groups();
    std::int64_t links = 0;
    for (int d = 1; d < G; ++d) {
      CHECK(layout.links_at_offset(d) >= 1);
      std::set<int> routers;
      for (int c = 0; c < layout.links_at_offset(d); ++c)
        routers.insert(layout.router_holding(d, c));
      // Copies of the links to one group sit on distinct routers while there are enough routers
      // (the one spare copy may share a router with a base copy).
      CHECK(static_cast<int>(routers.size()) >=
            std::min(layout.links_at_offset(d), layout.routers()) - 1);
      links += layout.links_at_offset(d);
    }
    CHECK(links * G / 2 == layout.global_link_count());
    CHECK(layout.global_link_count() <=
          std::int64_t{G} * layout.routers() * layout.global_per_router() / 2);
  }
}

TEST_CASE("placement: distinct machine nodes, contiguous in order, spread evenly, random fixed") {
  for (const Placement placement : {Placement::contiguous, Placement::spread, Placement::random}) {
    CAPTURE(placement_name(placement));
    CHECK(parse_placement(placement_name(placement)) == placement);
    for (const auto& [job, machine] : {std::pair{1, 1}, {3, 7}, {256, 560}, {560, 560}}) {
      const std::vector<int> nodes = place_nodes(placement, job, machine);
      REQUIRE(static_cast<int>(nodes.size()) == job);
      CHECK(std::set<int>(nodes.begin(), nodes.end()).size() == nodes.size());
      for (const int n : nodes)
        CHECK((n >= 0 && n < machine));
      CHECK(place_nodes(placement, job, machine) == nodes);  // the same every run
    }
  }
  CHECK(place_nodes(Placement::contiguous, 3, 7) == std::vector<int>{0, 1, 2});
  CHECK(place_nodes(Placement::spread, 3, 7) == std::vector<int>{0, 2, 4});
  // Spread over polaris's 5 groups of 112 nodes: 256 job nodes reach every group.
  std::set<int> groups;
  for (const int n : place_nodes(Placement::spread, 256, 560))
    groups.insert(n / 112);
  CHECK(groups.size() == 5);
  CHECK(place_nodes(Placement::random, 256, 560) != place_nodes(Placement::contiguous, 256, 560));
  CHECK_THROWS_AS(parse_placement("scattered"), InvalidParameter);
}
