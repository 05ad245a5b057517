// Index arithmetic of the Bruck-style radix-r exchange shared by two_phase_bruck (r = 2), parlogna
// and the intra-node phase of ParLinNa (seed 001 §3.1, §3.3, Alg. 1; seed 000 §3.2, Alg. 1).
// Inline, integer only, no MPI: the algorithms and the unit tests call the same functions.
//
// Vocabulary. A group of Q ranks exchanges "columns" (one block for parlogna, a set of blocks for
// ParLinNa). A column is named by its distance o = (source − destination) mod Q, written in base r.
// Round (x, z) — digit position x, place = r^x, digit value z, for z·place < Q — moves every column
// whose digit x is z by z·place ranks downwards: the holder sends to (g − z·place) mod Q and
// receives from (g + z·place) mod Q. Rounds run x ascending, z ascending within x, so the digits of
// a distance are travelled from the least significant one; at any time a rank holds exactly one
// column per distance o, which is why buffers can be indexed by o.
#pragma once

#include <algorithm>
#include <cstdint>

#include "algorithms/digits.hpp"

namespace a2a::radix {

// One communication round (x, z).
struct Round {
  int x = 0;               // digit position
  std::int64_t place = 1;  // r^x
  int z = 1;               // digit value, 1 ≤ z < r
  std::int64_t distance() const { return z * place; }
};

// Calls f(Round) for every round of a group of Q ranks in radix r, in order. K ≤ w·(r−1) rounds,
// w = num_digits(Q − 1, r); none when Q ≤ 1.
template <typename F>
void for_each_round(int Q, int r, F&& f) {
  int x = 0;
  for (std::int64_t place = 1; place < Q; place *= r, ++x) {
    for (int z = 1; z < r && z * place < Q; ++z) f(Round{x, place, z});
  }
}

// K, the number of rounds.
inline int num_rounds(int Q, int r) {
  int rounds = 0;
  for_each_round(Q, r, [&](const Round&) { ++rounds; });
  return rounds;
}

// Calls f(o) for every distance 0 < o < Q whose digit x is z — the columns round (x, z) moves —
// in ascending order. o = a·r^(x+1) + z·r^x + b with 0 ≤ b < r^x.
template <typename F>
void for_each_moved_distance(int Q, int r, const Round& round, F&& f) {
  const std::int64_t span = round.place * r;
  for (std::int64_t high = round.distance(); high < Q; high += span) {
    const std::int64_t end = std::min<std::int64_t>(high + round.place, Q);
    for (std::int64_t o = high; o < end; ++o) f(static_cast<int>(o));
  }
}

// Local index of the source of the column at distance o that `holder` holds when round `round`
// moves it: the digits below x have been travelled already (holder = source − (o mod r^x)).
inline int column_source(int holder, int o, const Round& round, int Q) {
  return static_cast<int>(mod(holder + o % round.place, Q));
}

// Local index of the destination of the column from `source` at distance o.
inline int column_destination(int source, int o, int Q) {
  return static_cast<int>(mod(source - o, Q));
}

// True while the column has not moved yet (no non-zero digit below x): it is still in the
// caller's send buffer. This is seed 000's "status" flag, computed instead of stored.
inline bool still_in_send_buffer(int o, const Round& round) { return o % round.place == 0; }

// True when round `round` is the column's last hop (no non-zero digit above x): the receiver is
// its destination.
inline bool is_last_hop(int o, const Round& round, int r) { return o < round.place * r; }

// A "direct" distance has a single non-zero digit: it travels once, from the send buffer straight
// to its destination, and never needs temporary storage (seed 001 §3.3). One per round.
inline bool is_direct(int o, int r) {
  if (o <= 0) return false;
  while (o % r == 0) o /= r;
  return o < r;
}

// B = Q − (K + 1): the temporary slots a rank needs — one per distance that is neither direct nor
// the self distance 0 (seed 001 §3.3).
inline int temp_slots(int Q, int r) { return Q <= 1 ? 0 : Q - 1 - num_rounds(Q, r); }

// The temporary slot of a non-direct distance o: t = o − 1 − dx·(r−1) − dz, dx the position and dz
// the value of o's highest non-zero digit (seed 001 §3.3). It subtracts from o the self distance
// and the direct distances below o (all z·r^x with x < dx, and z·r^dx with z ≤ dz), so it maps the
// non-direct distances of 1..Q−1 one to one onto 0..B−1. dx is found with integers, never with
// ceil(log_r o) (which is wrong when o is a power of r).
inline int temp_slot(int o, int r) {
  int dx = 0;
  std::int64_t place = 1;
  while (place * r <= o) {
    place *= r;
    ++dx;
  }
  const int dz = static_cast<int>(o / place);
  return o - 1 - dx * (r - 1) - dz;
}

}  // namespace a2a::radix
