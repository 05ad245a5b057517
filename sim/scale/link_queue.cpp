#include "sim/scale/link_queue.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

namespace a2a::sim::scale {

void LinkQueue::clear() {
  sorted_.clear();
  next_ = 0;
  raised_.clear();
}

// By level, ties by `seq` (the order added), in two steps:
//  * a least-significant-digit radix sort, a byte a pass, on the levels rounded to float precision
//    (non-negative floats order as their bit patterns): four passes at most instead of a double's
//    eight (3.93 against 7.04 on average at P = 131,072, docs/performance.md), a pass in which
//    every key has the same byte there skipped;
//  * then each run of equal keys, still in the order added, is put in exact order (one check when
//    its levels are equal, the common case on symmetric networks).
// Below 64 links, where the radix sort's 1,024 counters cost more than the links, the links go into
// the heap instead, which gives them in the same order: the small solves of a change reaching a few
// routes (solve per change, as in a pairwise exchange) saturate a link or two of tens before every
// route is fixed, so sorting them all was most of their cost (13 % of such a run at P = 2,048 on
// fugaku, docs/performance.md, stop 59). (The radix sort started at 256 before: a linear exchange
// at P = 2,048 on fugaku, whose solves meet 64-255 links, spent 31 % of its run sorting them by
// comparison; stop 53.)
void LinkQueue::sort() {
  constexpr int kBytes = 4;
  constexpr std::size_t kRadixFrom = 64;
  const std::size_t n = sorted_.size();
  if (n < kRadixFrom) {
    for (const LinkLevel& link : sorted_)
      raised_.push(link);
    sorted_.clear();
    return;
  }
  // Rounding to nearest never reverses two levels, so the keys order as the levels do, up to ties.
  auto key_of = [](const LinkLevel& link) {
    return std::bit_cast<std::uint32_t>(static_cast<float>(link.level));
  };
  auto byte_of = [&](const LinkLevel& link, int b) { return (key_of(link) >> (8 * b)) & 0xFF; };
  std::array<std::array<std::uint32_t, 256>, kBytes> counts{};
  for (const LinkLevel& link : sorted_) {
    for (int b = 0; b < kBytes; ++b)
      ++counts[b][byte_of(link, b)];
  }
  scratch_.resize(n);
  for (int b = 0; b < kBytes; ++b) {
    std::array<std::uint32_t, 256>& count = counts[b];
    if (count[byte_of(sorted_.front(), b)] == n) continue;
    std::uint32_t offset = 0;
    for (std::uint32_t& c : count)
      offset += std::exchange(c, offset);
    for (const LinkLevel& link : sorted_)
      scratch_[count[byte_of(link, b)]++] = link;
    sorted_.swap(scratch_);
  }
  for (auto run = sorted_.begin(); run != sorted_.end();) {
    const std::uint32_t key = key_of(*run);
    const auto end = std::find_if(run + 1, sorted_.end(),
                                  [&](const LinkLevel& link) { return key_of(link) != key; });
    if (!std::is_sorted(run, end)) std::sort(run, end);
    run = end;
  }
}

}  // namespace a2a::sim::scale
