// The SimGrid engine's memory model for the guard of `a2a run` (sim/resource_guard.hpp): peak
// resident memory of a SimGrid simulation from the platform it builds, P, the configurations'
// messages in flight and, in payload mode, the bytes it carries. Calibrated on measured peak RSS
// (/usr/bin/time -v; the figures are in docs/reliability.md, "Memory guard").
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/registry.hpp"
#include "sim/resource_guard.hpp"

namespace a2a::sim {

MemoryEstimate estimate_simgrid_memory(const RunShape& run);

// The SimGrid platform of `spec` as built for a run on `nodes_used` nodes (links and routers of
// the whole shape for tori and fat-trees, of the used groups for dragonflies, a host per used
// node): both engines build it (the scale engine routes over it).
std::int64_t simgrid_platform_bytes(const PlatformSpec& spec, std::int64_t nodes_used);

// "vendor (ompi: basic_linear)" for the vendor, the label otherwise: what the memory guard names
// as the configuration that needs the most.
std::string guarded_label(const Configuration& config, int ranks, int ranks_per_node,
                          const std::string& vendor);

// Upper bound of the messages one rank of `config` has posted and not yet completed at any time:
// P − 1 for linear exchanges that post everything at once (spread_out, ompi_linear), the batch of
// batched ones, radix − 1 for Bruck radix rounds, 1 for pairwise exchanges, radix-2 rounds and the
// two-phase radix exchange (one message per round); `vendor` as the modeled MPI's choice
// (sim/vendor_model.hpp).
std::int64_t messages_in_flight(const Configuration& config, int ranks, int ranks_per_node,
                                const std::string& vendor);

// Upper bound of the peers one rank of `config` exchanges messages with over the whole run (each
// pair keeps a SimGrid mailbox): P − 1 for linear exchanges, (r − 1)·ceil(log_r P) for radix
// rounds, the radix rounds inside a node plus one peer per other node for hierarchical ones.
std::int64_t distinct_peers(const Configuration& config, int ranks, int ranks_per_node,
                            const std::string& vendor);

}  // namespace a2a::sim
