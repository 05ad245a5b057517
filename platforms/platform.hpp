// Machine models (docs/design.md, "Platforms"): the YAML description, its loader, and the SimGrid
// builder. The loader needs yaml-cpp only; the builder needs SimGrid
// (platforms/simgrid/builder.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace a2a {

enum class Topology { single_node, star, torus, fat_tree, dragonfly };
const char* topology_name(Topology topology);

// Whether a platform of this topology reads the link section `section` ("link": every topology but
// single_node; "injection": torus and dragonfly; "global_link": dragonfly; "intra_node": all).
bool topology_has_link(Topology topology, const std::string& section);

struct LinkSpec {
  double bandwidth = 0;  // bytes per second
  double latency = 0;    // seconds
};

// Which of a node's NIC engines serves a message (platform key nic_engine_choice):
// - peer_node: the engine its peer node's number selects, modulo nic_engines, at both ends;
// - rank: the sending engine is the sender's place on its node modulo nic_engines, the receiving
//   one the receiver's.
enum class NicEngineChoice { peer_node, rank };

struct PlatformSpec {
  std::string name;
  std::string source;  // file path, or "preset NAME"
  std::string description;
  Topology topology = Topology::star;

  // Shape. single_node: one node. star: `nodes` nodes, each with a private link to one switch that
  // has no capacity limit of its own (contention only at the nodes' links).
  int nodes = 1;                // star (and the node count of single_node: 1)
  std::vector<int> torus_dims;  // torus: 1 to 6 dimensions, nodes = product
  // fat_tree (SimGrid's k-ary n-tree notation): levels, and per level the down-links, up-links and
  // parallel links.
  int fat_tree_levels = 0;
  std::vector<int> fat_tree_down, fat_tree_up, fat_tree_parallel;
  // dragonfly: groups of routers_per_group routers (all-to-all inside a group), nodes_per_router
  // nodes on each router, and global_links_per_router links from each router to other groups,
  // spread over the routers of a group (Aries/Slingshot style): nodes = groups * routers * nodes.
  int dragonfly_groups = 0;
  int dragonfly_routers_per_group = 0;
  int dragonfly_nodes_per_router = 0;
  int dragonfly_global_links_per_router = 0;
  // Parallel cables between each pair of routers of a group (default 1). Small dragonflies wire
  // their spare switch ports this way, which multiplies a group's internal bandwidth.
  int dragonfly_local_links_per_router_pair = 1;

  // star: each node's private link; fat_tree: every link of the tree; torus, dragonfly: the
  // router-to-router links. Unused by single_node.
  LinkSpec link;
  LinkSpec injection;    // torus, dragonfly: node-to-router link (defaults to `link`)
  LinkSpec global_link;  // dragonfly inter-group links (defaults to `link`)
  // minimal (static, the default); dragonflies also: ugal (each message takes the minimal path or
  // a Valiant path through another router, whichever is less loaded when it starts; scale engine
  // only) or valiant (always through another router).
  std::string routing = "minimal";

  int ranks_per_node = 1;
  LinkSpec intra_node;               // shared-memory transfers between ranks of one node
  double message_overhead = 0;       // seconds of CPU per message posted (send or receive)
  double memory_copy_bandwidth = 0;  // bytes per second of local copies (0: copies are free)
  double group_launch_overhead = 0;  // seconds per Comm group (NCCL-like kernel launch)

  // What real MPI messages pay beyond the wire (docs/platforms.md, "MPI and node costs"). The scale
  // engine models them; the SimGrid engine leaves them out (and says so). 0 / negative: off.
  double nic_message_time = 0;  // seconds a node's NIC spends on each inter-node message it sends
                                // or receives, one message at a time, shared by the node's ranks
  int nic_engines = 1;          // NIC engines per node and direction (Tofu-D's TNIs), each serving
                                // the messages nic_engine_choice gives it
  NicEngineChoice nic_engine_choice = NicEngineChoice::peer_node;  // which engine serves a message
  bool nic_pipelined = false;     // true: a message only waits for its engine to be free, which is
                                  // then busy nic_message_time (the message's own latency is the
                                  // links'); false: the message also leaves nic_message_time later
  bool nic_backpressure = false;  // true: a sending engine is held until the receiving engine
                                  // starts the message (head-of-line blocking at a busy receiver)
  int nic_receive_buffers = 0;    // with nic_backpressure: messages a receiving engine holds
                                  // waiting, so a sender is held only once that many are ahead
  double match_time = 0;          // seconds per receive already posted, charged when a receive is
                                  // posted (the search of MPI's posted-receive queue)
  double eager_threshold = -1;    // bytes: larger messages wait for a rendezvous handshake (one
                                  // round trip) after both sides posted; smaller ones start when
                                  // sent. Negative: every message starts when both posted, no
                                  // handshake
  double inject_size = -1;        // bytes: an inter-node send of at most this completes when posted
                            // (the MPI copies it into the NIC's command); a larger one completes
                            // when the receiver's acknowledgement is back, one route latency
                            // after its data arrived. Negative: every send completes when its
                            // data arrived
  double node_memory_bandwidth = 0;  // bytes/s a node's intra-node messages share (0: unshared)
  double pack_bandwidth = 0;  // bytes/s at which a rank packs a message of several pieces into
                              // one buffer before sending it, and unpacks one on receipt, as
                              // a2a's MPI backend (and a derived datatype) does (0: free)

  // True when any of the terms above is set, or the routing is adaptive: what only the scale
  // engine models.
  bool has_scale_terms() const {
    return nic_message_time > 0 || match_time > 0 || eager_threshold >= 0 || inject_size >= 0 ||
           node_memory_bandwidth > 0 || pack_bandwidth > 0 || routing != "minimal";
  }

  int node_count() const;
  // Largest P this platform can hold.
  std::int64_t max_ranks() const {
    return static_cast<std::int64_t>(node_count()) * ranks_per_node;
  }
};

// The leading dimensions of a torus (dimension 0 numbered fastest) that hold its first `nodes`
// nodes: the fewest d_0, ..., d_{m-1} whose product reaches `nodes` (all of `dims` when none
// does). Dimension-order routing changes only the coordinates in which two nodes differ, so a
// route between two of those nodes never leaves that block: a contiguous job needs only it built.
std::vector<int> torus_block_dims(const std::vector<int>& dims, std::int64_t nodes);

// Loads a platform from a YAML file, or a preset when `name_or_path` names one ("polaris").
// Throws InputError "FILE:LINE: key 'x': ..." for unknown keys, missing keys, bad values and
// impossible shapes.
PlatformSpec load_platform(const std::string& name_or_path);
// Parses YAML text; `origin` names it in error messages.
PlatformSpec parse_platform(const std::string& yaml_text, const std::string& origin);

struct PlatformPreset {
  std::string name;
  std::string description;
  std::string yaml;  // embedded text, with comments citing the source of every number
};
const std::vector<PlatformPreset>& platform_presets();

// The same platform without what only the scale engine models (MPI and node costs, adaptive
// routing): the model both simulation engines share.
PlatformSpec without_scale_terms(PlatformSpec spec);
// The keys of such terms the platform sets, e.g. "nic_message_time, routing" (empty: none).
std::string scale_term_keys(const PlatformSpec& spec);

// Which of its node's nic_engines engines serves rank `rank`'s message with rank `peer`
// (nic_engine_choice): the peer node's number modulo the engines, or the rank's place on its node
// modulo the engines (by_rank). Both engines and the closed forms (sim/model/cost.cpp) use it.
inline int nic_engine_of(int engines, int ranks_per_node, NicEngineChoice choice, int rank,
                         int peer) {
  switch (choice) {
    case NicEngineChoice::rank:
      return rank % ranks_per_node % engines;
    case NicEngineChoice::peer_node:
      break;
  }
  return peer / ranks_per_node % engines;
}

// Throws InvalidParameter when `ranks` ranks do not fit (fewer nodes than ceil(P /
// ranks_per_node)).
void check_fits(const PlatformSpec& spec, std::int64_t ranks);

}  // namespace a2a
