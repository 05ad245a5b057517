// The message footprints the catalog's algorithms share (registry.hpp, MessageFootprint), written
// with the catalog's own round arithmetic so a declaration follows the code it describes.
#pragma once

#include <algorithm>
#include <cstdint>

#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/registry.hpp"

namespace a2a::footprint {

// Distinct partners of radix-r rounds over `ranks` ranks: r − 1 per digit position (an upper
// bound of round_count, which is smaller when the top digit of P − 1 is below r − 1), and never
// more than the ranks − 1 others (a radix above `ranks`, e.g. ParLogNa's across few nodes).
inline std::int64_t radix_peers(int ranks, int radix) {
  return std::min<std::int64_t>(ranks - 1,
                                std::int64_t{radix - 1} * bruck::digit_positions(ranks, radix));
}

// Direct exchanges with every other rank, `in_flight` messages posted at once.
inline MessageFootprint direct(const ExchangeShape& shape, std::int64_t in_flight) {
  return {.in_flight = in_flight, .data_peers = shape.ranks - 1, .metadata_peers = 0};
}

// Radix-r rounds over the whole communicator, `in_flight` messages per round; with `metadata`,
// each round's sizes go to the same partner first (the two-phase radix exchange).
inline MessageFootprint radix_rounds(const ExchangeShape& shape, int radix, std::int64_t in_flight,
                                     bool metadata) {
  const std::int64_t peers = radix_peers(shape.ranks, radix);
  return {.in_flight = in_flight, .data_peers = peers, .metadata_peers = metadata ? peers : 0};
}

// What Comm::barrier adds in simulation (sim/smp_barrier.hpp): a node's first rank has a flag
// from each other rank of its node in flight at once, and talks to them and to the first ranks of
// two other nodes per dissemination step.
inline MessageFootprint with_barrier(MessageFootprint f, const ExchangeShape& shape) {
  const std::int64_t per_node = std::min(shape.ranks_per_node, shape.ranks);
  const std::int64_t nodes = (shape.ranks + per_node - 1) / per_node;
  std::int64_t steps = 0;
  for (std::int64_t distance = 1; distance < nodes; distance *= 2)
    ++steps;
  f.in_flight = std::max(f.in_flight, per_node - 1);
  f.metadata_peers += per_node - 1 + 2 * steps;
  return f;
}

}  // namespace a2a::footprint
