// Index arithmetic of the Bruck family (Fan et al., HPDC 2022, §2.1; Fan et al., HPDC 2025, §3.1):
// which rounds run, which relative block indices a round moves, and the identity (source,
// destination) of the block that sits at a relative index at a given moment. Everything is computed
// from (P, p, r, i) on demand, so an algorithm keeps O(1) state across a wait instead of O(P) index
// arrays (docs/design.md, "What scale demands"). No MPI, no bytes:
// tests/unit/test_bruck_indices.cpp checks every function here against brute force and against a
// plain-array simulation of the block movement.
//
// Vocabulary. Rank p names its P blocks by a relative index i in [0, P). Written in base r, i has
// w = num_digits(P - 1, r) digits. Round (x, z) moves every block whose x-th digit is z by the
// distance z·r^x; a block therefore travels i in total, one hop per non-zero digit, lowest digit
// first. The rounds are the pairs x = 0..w-1, z = 1..r-1 with z·r^x < P (exactly the pairs some
// i < P has), so K <= w·(r - 1).
//
// Two orientations occur:
//  * "modified" (Träff et al.; zero-copy, zero-rotation, radix r): send to p - d, receive from
//    p + d. Relative index i on rank p starts as block (p, p - i) and lives at position (p + i) mod
//    P, so after the last round position j holds the block from source j: no final rotation.
//  * "basic" (Bruck et al.): send to p + d, receive from p - d. Relative index i starts as block
//    (p, p + i) at position i; after the last round it holds the block from p - i, hence the final
//    inverse rotation out[j] = R[(p - j) mod P].
#pragma once

#include <algorithm>
#include <cstdint>

#include "algorithms/comm.hpp"
#include "algorithms/digits.hpp"

namespace a2a::bruck {

// One communication round: the blocks whose digit at `place` = r^x equals z travel `distance`.
struct Round {
  int x = 0;                  // digit position
  std::int64_t place = 1;     // r^x
  int z = 1;                  // digit value, 1..r-1
  std::int64_t distance = 1;  // z·r^x, always in [1, P)
};

// Number of base-r digit positions the rounds run over (0 for P = 1: nothing travels).
inline int digit_positions(int P, int radix) {
  return num_digits(P - 1, radix);
}

// Calls f(Round) for every round, in the order the algorithms run them: x ascending, then z.
template <typename F>
void for_each_round(int P, int radix, F&& f) {
  const int w = digit_positions(P, radix);
  std::int64_t place = 1;
  for (int x = 0; x < w; ++x, place *= radix) {
    for (int z = 1; z < radix && z * place < P; ++z)
      f(Round{x, place, z, z * place});
  }
}

// K, the number of rounds (≤ w·(r - 1); smaller when the top digit of P - 1 is below r - 1).
inline int round_count(int P, int radix) {
  int k = 0;
  for_each_round(P, radix, [&](const Round&) { ++k; });
  return k;
}

// How many i in [0, P) have digit z at `round.place`: the number of blocks a round moves. Indices
// repeat the digit pattern every r·place; each period holds `place` of them.
inline std::int64_t blocks_in_round(int P, const Round& round, int radix) {
  const std::int64_t period = round.place * radix;
  const std::int64_t tail = P % period - round.z * round.place;
  return (P / period) * round.place + std::clamp<std::int64_t>(tail, 0, round.place);
}

// The largest blocks_in_round over all rounds: the size, in blocks, of a buffer that receives one
// round's blocks packed back to back ((P + 1) / 2 at most for r = 2, the papers' temp_recv_buffer).
inline std::int64_t max_blocks_per_round(int P, int radix) {
  std::int64_t most = 0;
  for_each_round(P, radix, [&](const Round& round) {
    most = std::max(most, blocks_in_round(P, round, radix));
  });
  return most;
}

// Calls f(i) for every relative index i < P whose digit at round.place is round.z, ascending: i =
// high·r·place + z·place + low with low < place. Both peers of a round enumerate the same list, so
// the message's pieces line up block by block.
template <typename F>
void for_each_index(int P, const Round& round, int radix, F&& f) {
  const std::int64_t period = round.place * radix;
  for (std::int64_t base = round.z * round.place; base < P; base += period) {
    const std::int64_t end = std::min<std::int64_t>(base + round.place, P);
    for (std::int64_t i = base; i < end; ++i)
      f(static_cast<int>(i));
  }
}

// Position of i in for_each_index's list: where a round's packed receive buffer keeps it.
inline std::int64_t slot_in_round(std::int64_t i, const Round& round, int radix) {
  return (i / (round.place * radix)) * round.place + i % round.place;
}

// Whether the block at relative index i has travelled before the rounds at digit `place`: it has
// iff a lower digit of i is non-zero. A block that has not moved is still the rank's own block.
inline bool has_moved(std::int64_t i, std::int64_t place) {
  return i % place != 0;
}

// Number of non-zero base-r digits of i at `place` and above: the hops block i still has to make
// when the rounds at `place` begin (zero-copy Bruck's b).
inline int hops_left(std::int64_t i, std::int64_t place, int radix) {
  int hops = 0;
  for (std::int64_t rest = i / place; rest > 0; rest /= radix)
    hops += rest % radix != 0;
  return hops;
}

// bruck_zero_copy keeps a block in R (the receive buffer) while the number of hops it still has to
// make is even, in T while it is odd: every hop then flips buffers and the last one lands in R.
inline bool zero_copy_keeps_in_r(int hops_to_make) {
  return hops_to_make % 2 == 0;
}

// ---- modified orientation (send to p - d, receive from p + d) ----------------------------------

// Where relative index i lives on rank p: position (p + i) mod P of R (and of T in zero-copy).
inline int modified_position(int P, int p, std::int64_t i) {
  return static_cast<int>(mod(p + i, P));
}

// The block at relative index i on rank p when the rounds at digit `place` begin. It has made the
// hops of its lower digits, each from a rank further up, so it comes from p + (i mod place) and,
// having travelled i in all, is bound for its source minus i. Before any round (place = 1) this is
// (p, p - i); after the last one (place >= P) it is (p + i, p).
// (0 <= p, i < P, so every sum below is within one wrap of [0, P).)
inline BlockId modified_block(int P, int p, std::int64_t i, std::int64_t place) {
  const auto src = static_cast<int>(wrap(p + i % place, P));
  return {src, static_cast<int>(wrap(src - i, P))};
}

// ---- basic orientation (send to p + d, receive from p - d) --------------------------------------

// The block at position i of R on rank p when the rounds at digit `place` begin: from p - (i mod
// place) to its source plus i. Before any round (p, p + i); after the last (p - i, p).
inline BlockId basic_block(int P, int p, std::int64_t i, std::int64_t place) {
  const auto src = static_cast<int>(wrap(p - i % place, P));
  return {src, static_cast<int>(wrap(src + i, P))};
}

// ---- both orientations
// ---------------------------------------------------------------------------

enum class Orientation { basic, modified };

// The rank a round sends to and the rank it receives from.
inline int send_peer(int P, int p, Orientation o, const Round& round) {
  return static_cast<int>(
      mod(o == Orientation::basic ? p + round.distance : p - round.distance, P));
}
inline int recv_peer(int P, int p, Orientation o, const Round& round) {
  return static_cast<int>(
      mod(o == Orientation::basic ? p - round.distance : p + round.distance, P));
}

// Position of relative index i in R on rank p.
inline int position(int P, int p, Orientation o, std::int64_t i) {
  return o == Orientation::basic ? static_cast<int>(i) : modified_position(P, p, i);
}

// The block at relative index i on `rank` when the rounds at digit `place` begin.
inline BlockId block_at(int P, int rank, Orientation o, std::int64_t i, std::int64_t place) {
  return o == Orientation::basic ? basic_block(P, rank, i, place)
                                 : modified_block(P, rank, i, place);
}

// The blocks rank `holder` moves in a round (block_at of every index of for_each_index) as runs of
// whole blocks, `each` bytes per block (BlockRun::kOwnSize for their own sizes), for backends that
// need only a message's size. Index i = low + z·place + high·r·place: its block has travelled
// `low` and is bound for holder ∓ (z·place + high·r·place) — fixed by `high`, whatever `low` is.
// So a fixed high gives a run of sources with one destination (a column), and a fixed low a run of
// destinations from one source (a row); whichever is longer is used, so a round is at most about
// sqrt(P·r) runs instead of up to P/2 blocks.
template <typename F>
void for_each_run(int P, int holder, Orientation o, const Round& round, int radix, Bytes each,
                  F&& f) {
  const std::int64_t period = round.place * radix;
  const std::int64_t first_base = round.z * round.place;  // index of (low, high) = (0, 0)
  const std::int64_t highs = (P - first_base + period - 1) / period;
  const std::int64_t last_lows = std::min(round.place, P - (first_base + (highs - 1) * period));
  const int sign = o == Orientation::basic ? 1 : -1;  // the destination's side of the holder
  auto at = [&](std::int64_t value) { return static_cast<int>(mod(value, P)); };
  if (highs >= round.place) {  // rows: one per low, over the highs
    for (std::int64_t low = 0; low < round.place; ++low) {
      const std::int64_t count = low < last_lows ? highs : highs - 1;
      if (count == 0) continue;
      f(BlockRun{{at(holder - sign * low), at(holder + sign * first_base)},
                 0,
                 at(sign * period),
                 count,
                 each});
    }
  } else {  // columns: one per high, over the lows
    for (std::int64_t high = 0; high < highs; ++high) {
      f(BlockRun{{holder, at(holder + sign * (first_base + high * period))},
                 at(-sign),
                 0,
                 high + 1 < highs ? round.place : last_lows,
                 each});
    }
  }
}

}  // namespace a2a::bruck
