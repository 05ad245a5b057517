// Counter-based randomness for the workload generators: every random number is a pure function of
// (seed, stream, src, dst), so count(src, dst) is O(1), needs no state, and comes out the same on
// every rank, every backend and every machine (integer arithmetic only; no std::pow/log/cos, whose
// last bit may differ between libm versions — a sender and a receiver that disagree on one block
// size would break the exchange).
#pragma once

#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>

namespace a2a::workload_rng {

// splitmix64 (Steele, Lea, Flood 2014): add the golden-ratio increment, then its finaliser.
// A bijection of 64-bit words with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// One 64-bit random word for the key (seed, stream, a, b): each field is xored into the state and
// mixed. For fixed (seed, stream, a) the map b -> word is a bijection, so no two receivers of one
// sender ever share a word. `stream` separates independent draws for the same block.
constexpr std::uint64_t stream_key(std::uint64_t seed, std::uint64_t stream) {
  return mix64(mix64(seed) ^ stream);
}
// draw_keyed in two halves, for loops over many b with one a: the row's key once, then each draw.
constexpr std::uint64_t row_key(std::uint64_t key, std::uint64_t a) {
  return mix64(key ^ a);
}
constexpr std::uint64_t draw_in_row(std::uint64_t row, std::uint64_t b) {
  return mix64(row ^ b);
}
constexpr std::uint64_t draw_keyed(std::uint64_t key, std::uint64_t a, std::uint64_t b) {
  return draw_in_row(row_key(key, a), b);
}
constexpr std::uint64_t draw(std::uint64_t seed, std::uint64_t stream, std::uint64_t a,
                             std::uint64_t b) {
  return draw_keyed(stream_key(seed, stream), a, b);
}

// An integer in [0, bound] from a random word (Lemire's multiply-shift; bias below bound / 2^64,
// i.e. below 2^-24 for the bounds workloads allow, 2^40).
constexpr std::int64_t below_or_equal(std::uint64_t word, std::int64_t bound) {
  __extension__ using u128 = unsigned __int128;
  return static_cast<std::int64_t>(
      (static_cast<u128>(word) * static_cast<u128>(static_cast<std::uint64_t>(bound) + 1)) >> 64);
}

// Σ below_or_equal(draw_in_row(rows[src + k·src_step], dst + k·dst_step), bound) over k < n: the
// block sizes of one straight stretch of a run, with rows[s] = row_key(key, s) computed once per
// source (every index stays in [0, 2^31) and inside rows; steps may be negative).
// counter_sums.cpp; vectorised (AVX-512 or AVX2) — the scale engine's hottest loop.
std::int64_t sum_below_or_equal(std::span<const std::uint64_t> rows, std::int64_t src,
                                std::int64_t src_step, std::int64_t dst, std::int64_t dst_step,
                                std::int64_t n, std::int64_t bound);

// out[k] += below_or_equal(draw_in_row(row, dst + k·dst_step), bound) for k < n, modulo 2^32
// (exact when every out[k] stays below 2^32): a row's draws added into running sums, one per
// column. bound + 1 < 2^32; the destinations stay in [0, 2^31). counter_sums.cpp; vectorised.
void add_draws(std::uint64_t row, std::int64_t dst, std::int64_t dst_step, std::int64_t n,
               std::int64_t bound, std::uint32_t* out);

// True with probability `probability` in [0, 1]: the word's top 53 bits against probability·2^53
// (an exact product for a double; probability 1 is always true, 0 never).
constexpr bool bernoulli(std::uint64_t word, double probability) {
  constexpr double two53 = 9007199254740992.0;
  return static_cast<double>(word >> 11) < probability * two53;
}

// A keyed pseudo-random permutation of [0, n) without any O(n) table: a 4-round balanced Feistel
// network on the smallest even number of bits (at least 2) covering n, restricted to [0, n) by
// cycle walking (apply the network again while the value is >= n). The network is a bijection of
// [0, 2^bits), so the walk from a start below n ends below n and the induced map is a bijection;
// 2^bits < 4n makes the expected walk shorter than 4 steps.
class KeyedPermutation {
 public:
  KeyedPermutation(std::uint64_t n, std::uint64_t seed, std::uint64_t key) : n_(n) {
    const std::uint64_t keyed = mix64(mix64(seed) ^ key);
    // Distinct words per round; the round function mixes them with the half block anyway.
    for (int round = 0; round < kRounds; ++round) {
      round_keys_[round] = keyed + 0xD1B54A32D192ED03ull * static_cast<std::uint64_t>(round);
    }
    const int bits = n <= 4 ? 2 : std::bit_width(n - 1);
    half_bits_ = (bits + 1) / 2;
    half_mask_ = (std::uint64_t{1} << half_bits_) - 1;
  }

  // The image of x in [0, n). Outside [0, n) the walk would never end: a bug of the caller's,
  // reported rather than hung on.
  std::uint64_t operator()(std::uint64_t x) const {
    if (x >= n_) throw std::out_of_range("KeyedPermutation: argument outside [0, n)");
    do {
      x = network(x);
    } while (x >= n_);
    return x;
  }

 private:
  static constexpr int kRounds = 4;

  std::uint64_t network(std::uint64_t x) const {
    std::uint64_t left = x >> half_bits_;
    std::uint64_t right = x & half_mask_;
    for (int round = 0; round < kRounds; ++round) {
      const std::uint64_t next = left ^ (mix64(round_keys_[round] ^ right) & half_mask_);
      left = right;
      right = next;
    }
    return (left << half_bits_) | right;
  }

  std::uint64_t n_;
  std::uint64_t round_keys_[kRounds];
  int half_bits_ = 1;
  std::uint64_t half_mask_ = 1;
};

}  // namespace a2a::workload_rng
