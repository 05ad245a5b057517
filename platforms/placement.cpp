// Job placement (platforms/placement.hpp).
#include "platforms/placement.hpp"

#include <cstdint>
#include <numeric>
#include <utility>

#include "algorithms/errors.hpp"
#include "workloads/counter_rng.hpp"

namespace a2a {

Placement parse_placement(const std::string& name) {
  if (name == "contiguous") return Placement::contiguous;
  if (name == "spread") return Placement::spread;
  if (name == "random") return Placement::random;
  throw InvalidParameter("placement: '" + name + "' is not one of contiguous, spread, random");
}

const char* placement_name(Placement placement) {
  switch (placement) {
    case Placement::contiguous:
      return "contiguous";
    case Placement::spread:
      return "spread";
    case Placement::random:
      return "random";
  }
  return "contiguous";
}

std::vector<int> place_nodes(Placement placement, int job_nodes, int machine_nodes) {
  std::vector<int> nodes(static_cast<size_t>(job_nodes));
  switch (placement) {
    case Placement::contiguous:
      std::iota(nodes.begin(), nodes.end(), 0);
      break;
    case Placement::spread:
      for (int i = 0; i < job_nodes; ++i)
        nodes[static_cast<size_t>(i)] =
            static_cast<int>(std::int64_t{i} * machine_nodes / job_nodes);
      break;
    case Placement::random: {
      // The first job_nodes steps of a Fisher-Yates shuffle of all machine nodes.
      std::vector<int> all(static_cast<size_t>(machine_nodes));
      std::iota(all.begin(), all.end(), 0);
      std::uint64_t draw = 0x5eed;
      for (int i = 0; i < job_nodes; ++i) {
        draw = workload_rng::mix64(draw + static_cast<std::uint64_t>(i));
        const auto pick =
            i + static_cast<int>(draw % static_cast<std::uint64_t>(machine_nodes - i));
        std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(pick)]);
        nodes[static_cast<size_t>(i)] = all[static_cast<size_t>(i)];
      }
      break;
    }
  }
  return nodes;
}

}  // namespace a2a
