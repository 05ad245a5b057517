// Index arithmetic that ParLogNa adds to the Bruck family's (algorithms/bruck/bruck_indices.hpp,
// whose rounds, per-round index lists and "modified" block identities the radix exchange uses):
// when a hop is a block's last, which blocks are "direct", and the tight temporary buffer of
// Fan et al., HPDC 2025, §3.3. Shared by two_phase_bruck, parlogna and ParLinNa
// (radix_exchange.cpp) and the unit tests. Inline, integer only, no MPI.
//
// A rank names the blocks it holds by their distance o = (source − destination) mod Q within the
// group of Q ranks, written in base r. Round (x, z) moves every block whose digit x is z, lowest
// digit first, so a block makes one hop per non-zero digit, and a rank holds exactly one block per
// distance at any time: buffers can be indexed by o.
#pragma once

#include <cstdint>

#include "algorithms/bruck/bruck_indices.hpp"

namespace a2a::radix {

using bruck::Round;

// True when round `round` is the last hop of the block at distance o (no non-zero digit above x):
// the receiver is its destination.
inline bool is_last_hop(std::int64_t o, const Round& round, int r) {
  return o < round.place * r;
}

// A "direct" distance has a single non-zero digit: the block travels once, from the send buffer
// straight to its destination, and never needs temporary storage (Fan et al., HPDC 2025, §3.3).
// There is one per round (o = z·r^x), K in all.
inline bool is_direct(std::int64_t o, int r) {
  if (o <= 0) return false;
  while (o % r == 0)
    o /= r;
  return o < r;
}

// B = Q − (K + 1): the temporary slots a rank needs — one per distance that is neither direct nor
// the self distance 0 (Fan et al., HPDC 2025, §3.3). Zero when r ≥ Q − 1.
inline int temp_slots(int Q, int r) {
  return Q <= 1 ? 0 : Q - 1 - bruck::round_count(Q, r);
}

// The temporary slot of a non-direct distance o: t = o − 1 − dx·(r−1) − dz, dx the position and dz
// the value of o's highest non-zero digit (Fan et al., HPDC 2025, §3.3). It subtracts from o the
// self distance and the direct distances below o (every z·r^x with x < dx, and z·r^dx for z ≤ dz),
// so it maps the non-direct distances of 1..Q−1 one to one onto 0..B−1. dx is found with integers,
// not with the paper's ceil(log_r o), which is off by one when o is a power of r.
inline int temp_slot(std::int64_t o, int r) {
  int dx = 0;
  std::int64_t place = 1;
  while (place * r <= o) {
    place *= r;
    ++dx;
  }
  const auto dz = static_cast<int>(o / place);
  return static_cast<int>(o) - 1 - dx * (r - 1) - dz;
}

// temp_slot for distances visited in increasing runs, as the radix exchange does: all distances in
// [dz·r^dx, (dz+1)·r^dx) share their highest non-zero digit, so their slots are o minus one
// constant, computed once per such range instead of once per block.
class TempSlots {
 public:
  explicit TempSlots(int radix) : radix_(radix) {}
  int operator()(std::int64_t o) const {
    if (o < low_ || o >= high_) {
      std::int64_t place = 1;
      while (place * radix_ <= o)
        place *= radix_;
      low_ = o / place * place;
      high_ = low_ + place;
      offset_ = o - temp_slot(o, radix_);
    }
    return static_cast<int>(o - offset_);
  }

 private:
  int radix_;
  mutable std::int64_t low_ = 0, high_ = 0, offset_ = 0;
};

}  // namespace a2a::radix
