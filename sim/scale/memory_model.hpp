// The scale engine's memory model for the guard of `a2a run` (sim/resource_guard.hpp): a base
// (SimGrid platform and libraries), a few KiB per rank (the stack pages its fiber touches, its
// state and record), the messages in flight (posted, matched, flowing) and the interned routes.
// Calibrated on measured peak RSS (/usr/bin/time; docs/performance.md, scale engine rows).
#pragma once

#include "sim/resource_guard.hpp"

namespace a2a::sim {

MemoryEstimate estimate_scale_memory(const RunShape& run);

}  // namespace a2a::sim
