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

}  // namespace a2a::footprint
