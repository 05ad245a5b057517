// The SimGrid engine's memory model for the guard of `a2a run` (sim/resource_guard.hpp): peak
// resident memory of a SimGrid simulation from the platform it builds, P, the configurations'
// messages in flight and, in payload mode, the bytes it carries. Calibrated on measured peak RSS
// (/usr/bin/time -v; the figures are in docs/reliability.md, "Memory guard").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "sim/resource_guard.hpp"

namespace a2a::sim {

MemoryEstimate estimate_simgrid_memory(const RunShape& run);

// The SimGrid platform of `spec` as built for a run on `nodes_used` nodes (links and routers of
// the whole shape for tori and fat-trees, of the used groups for dragonflies, a host per used
// node): both engines build it (the scale engine routes over it).
std::int64_t simgrid_platform_bytes(const PlatformSpec& spec, std::int64_t nodes_used);
// The nodes a run builds: the job's under contiguous placement, every node of the machine under
// another (platforms/simgrid/builder.hpp).
std::int64_t nodes_built(const PlatformSpec& spec, std::int64_t ranks,
                         const std::string& placement);

// "vendor (ompi: basic_linear)" for the vendor, the label otherwise: what the memory guard names
// as the configuration that needs the most.
std::string guarded_label(const Configuration& config, int ranks, int ranks_per_node,
                          const std::string& vendor);

// One rank's messages under `config` as the algorithm declares them (AlgorithmInfo::footprint),
// clamped to P − 1; `vendor` as the modeled MPI's choice (sim/vendor_model.hpp); a Comm::
// vendor_alltoall call adds the engine's linear exchange (32 in flight, every peer). An algorithm
// that declares nothing gets P − 1 of everything: an estimate too high, never one too low.
MessageFootprint message_footprint(const Configuration& config, int ranks, int ranks_per_node,
                                   const std::string& vendor);
// Its messages posted and not yet completed at any time, and its distinct data peers.
std::int64_t messages_in_flight(const Configuration& config, int ranks, int ranks_per_node,
                                const std::string& vendor);
std::int64_t distinct_peers(const Configuration& config, int ranks, int ranks_per_node,
                            const std::string& vendor);
// The planned configurations' largest declared heap per rank (MessageFootprint::rank_heap_bytes)
// and, for the estimate's text, " + P ranks x N of bookkeeping (label)", or "" when none
// declares any.
struct RankHeap {
  std::int64_t bytes = 0;
  std::string what;
};
RankHeap rank_heap(const std::vector<Planned>& planned, int ranks, int ranks_per_node,
                   const std::string& vendor);
// "; no message footprint declared by x, y: ..." for the estimate's text, or "" when every planned
// configuration declares one.
std::string undeclared_footprints(const std::vector<Planned>& planned);

}  // namespace a2a::sim
