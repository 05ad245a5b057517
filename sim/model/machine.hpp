// The machine as the analytic models see it (docs/models.md, "Machine parameters"): Hockney's α
// and β, LogGP's o, and the node costs of docs/simulation.md, read from a platform.
//
// Choices, made once here so every model uses the same numbers:
//  * α, inter-node latency of one message: the mean route latency (sum of the latencies of the
//    links crossed, i.e. link latency × hop count) over ordered pairs of the nodes the run uses;
//  * β, seconds per byte of one inter-node message alone: the mean over the same pairs of 1 / the
//    slowest link of the route (SimGrid's bound on a lone flow);
//  * β_nic, seconds per byte of a node's own network link (the first and last link of every route:
//    the star's private link, the torus and dragonfly injection link), which concurrent messages
//    leaving (entering) a node share — the only shared link a machine without routes knows;
//  * α_intra, β_intra: the node's shared-memory path; concurrent intra-node messages do not share
//    it (the simulators' loopback is a fatpipe);
//  * o (LogGP overhead): CPU time per posted send or receive; g = o (the CPU posts back to back),
//    G = β;
//  * copy β: 1 / memory-copy bandwidth (0 when copies are free); launch: seconds per group.
// The routes come from the SimGrid platform the simulators run on (sim/scale/routes.hpp), so the
// models and the simulators read the same links.
//
// Beyond those single numbers, a machine read from a platform keeps its routes: then a step's
// latency is the longest route latency among its messages and its contention term the most loaded
// link (cost.hpp). Without routes (a hand-made Machine) only the nodes' own links are known.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "platforms/platform.hpp"
#include "platforms/simgrid/builder.hpp"

namespace a2a::model {

// The route between two nodes as the models use it.
struct Path {
  double latency = 0;                    // seconds, sum over its links
  double seconds_per_byte = 0;           // 1 / the bound of a lone flow (slowest link)
  std::span<const std::uint32_t> links;  // shared links crossed (indices into capacities())
};

class Routes {
 public:
  virtual ~Routes() = default;
  // Valid until the next call.
  virtual Path between(int src_node, int dst_node) = 0;
  // Bytes per second of every shared link, by index.
  virtual const std::vector<double>& capacities() const = 0;
};

struct Machine {
  double alpha = 0;
  double beta = 0;
  double beta_nic = 0;
  double alpha_intra = 0;
  double beta_intra = 0;
  double overhead = 0;
  double copy_beta = 0;
  double launch = 0;
  double nic = 0;       // seconds a node's NIC spends per message, sending or receiving
  int nic_engines = 1;  // engines per node and direction (nic_engine_of)
  a2a::NicEngineChoice nic_engine_choice = a2a::NicEngineChoice::peer_node;
  bool nic_pipelined = false;  // a message waits only for its engine, not for its own time
  double match = 0;            // seconds per posted receive searched when a receive is posted
  double inject = -1;      // bytes: larger inter-node sends complete one latency after arrival (the
                           // receiver's acknowledgement); negative: sends complete on arrival
  int ranks_per_node = 1;  // Q: rank r runs on node r / Q
  std::shared_ptr<Routes> routes;  // null: only α, β, β_nic are known

  int node_of(int rank) const { return rank / ranks_per_node; }
};

// The parameters of `spec` for a run of `ranks` ranks on `built` (built for at least that many).
Machine machine_of(const BuiltPlatform& built, const PlatformSpec& spec, int ranks);

// The node-local parameters only (α_intra, β_intra, o, copy β, launch, Q), with α = β = β_nic = 0:
// for callers that set the network terms themselves (unit tests with hand-computed values).
Machine node_costs_of(const PlatformSpec& spec);

}  // namespace a2a::model
