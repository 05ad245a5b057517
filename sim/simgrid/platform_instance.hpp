// The SimGrid engine of this process and the platform built into it. SimGrid allows one engine and
// one platform per process; both simulation engines use them — the SimGrid engine to run actors,
// the scale engine only to ask routes, latencies and link bandwidths.
#pragma once

#include "platforms/platform.hpp"
#include "platforms/simgrid/builder.hpp"
#include "sim/simulation.hpp"

namespace a2a::sim {

// Creates the engine on first use (configured from `options`) and builds `spec` for `ranks` ranks.
// A second call for the same platform name and rank count returns the same platform; any other
// throws Error (one platform per process).
// `node_links`: builder.hpp (the scale engine adds torus nodes' injection links itself).
const BuiltPlatform& simgrid_platform(const PlatformSpec& spec, int ranks,
                                      const SimOptions& options,
                                      NodeLinks node_links = NodeLinks::in_platform);

}  // namespace a2a::sim
