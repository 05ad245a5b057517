// The memory guard of `a2a run` (docs/reliability.md): before a simulation starts, its engine's
// memory model estimates what the run will need, and a run that will not fit in the bound (the
// machine's available memory, or --max-memory) is refused with one line instead of being killed by
// the kernel's OOM killer hours later, or dragging the machine into swap.
//
// Each engine plugs in its own model: estimate_memory() dispatches on the engine name, and a model
// returns a MemoryEstimate (bytes, and the terms it added up, for the refusal message).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/machine_memory.hpp"
#include "platforms/platform.hpp"
#include "sim/simulation.hpp"
#include "workloads/plan.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

struct MemoryEstimate {
  std::int64_t bytes = 0;
  std::string what;  // the main terms, e.g. "4096 ranks x 24 KiB + 4096^2 x 4 B + ..."
};

// What `a2a run` is about to simulate, for the models.
struct RunShape {
  const PlatformSpec& platform;
  int ranks;
  const SimOptions& options;
  const Workload& workload;
  const std::vector<Planned>& planned;  // the configurations, run one after another
};

// The estimate of `engine`'s model; engines without a model estimate nothing (bytes = 0).
MemoryEstimate estimate_memory(const std::string& engine, const RunShape& run);

struct MemoryLimit {
  std::int64_t bytes = 0;  // 0: unknown, no check
  std::string source;      // "--max-memory 8G" or "available memory"
};

// The bound: `max_memory` ("8G", "512M", "1.5GiB", "1000000"; empty: the available memory of
// /proc/meminfo). Throws InvalidParameter naming --max-memory for text that is not a size.
MemoryLimit memory_limit(const std::string& max_memory);

// "8G" -> 8 GiB (K, M, G, T are powers of 1024, with or without "iB"/"B"; no suffix: bytes).
// Throws InvalidParameter naming `option`.
std::int64_t parse_memory_size(const std::string& text, const std::string& option);

using a2a::available_memory_from;  // MemAvailable of a /proc/meminfo text (machine_memory.hpp)

// Throws InputError "simulation needs about X (...) but the limit is Y (...)" when the estimate
// exceeds the limit.
void check_memory(const MemoryEstimate& estimate, const MemoryLimit& limit,
                  const std::string& engine);

}  // namespace a2a::sim
