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

void LinkQueue::pop() {
  if (from_sorted()) {
    ++next_;
  } else {
    raised_.pop();
  }
}

// By level, ties by `seq` (the order added): a least-significant-digit radix sort on the levels'
// bits (non-negative doubles order as their bit patterns), a byte a pass; a pass in which every
// level has the same byte there (most of the exponent's) is skipped. Below a few hundred links,
// where the radix sort's 2,048 counters cost more than the links, a comparison sort gives the same
// order.
void LinkQueue::sort() {
  constexpr int kBytes = 8;
  constexpr std::size_t kRadixFrom = 256;
  const std::size_t n = sorted_.size();
  if (n < kRadixFrom) {
    std::sort(sorted_.begin(), sorted_.end());
    return;
  }
  auto byte_of = [](const LinkLevel& link, int b) {
    return (std::bit_cast<std::uint64_t>(link.level) >> (8 * b)) & 0xFF;
  };
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
}

}  // namespace a2a::sim::scale
