// A 4-ary min-heap for the scale engine's event queue (and the links a solve raises,
// link_queue.hpp): half the depth of a binary heap, and a node's children side by side in one or
// two cache lines. At 10^5-10^6 ranks the event queue holds hundreds of thousands of events, so
// each level of a pop is a cache miss: std::pop_heap's sift-downs took 13 % of a run at
// P = 262,144 (docs/performance.md, stop 28).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace a2a::sim::scale {

inline constexpr std::size_t kHeapArity = 4;

// A min-heap of T ordered by `Less` (a strict weak order; the top is the least item).
template <class T, class Less = std::less<>>
class DaryHeap {
 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& top() const { return items_.front(); }

  void push(const T& item) {
    items_.push_back(item);
    sift_up(items_.size() - 1);
  }
  void clear() { items_.clear(); }
  void pop() {
    items_.front() = items_.back();
    items_.pop_back();
    if (!items_.empty()) sift_down(0);
  }

 private:
  void sift_up(std::size_t i) {
    const T item = items_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kHeapArity;
      if (!less_(item, items_[parent])) break;
      items_[i] = items_[parent];
      i = parent;
    }
    items_[i] = item;
  }
  void sift_down(std::size_t i) {
    const std::size_t n = items_.size();
    if (i >= n) return;
    const T item = items_[i];
    for (;;) {
      const std::size_t first = i * kHeapArity + 1;
      if (first >= n) break;
      const std::size_t last = std::min(first + kHeapArity, n);
      std::size_t least = first;
      for (std::size_t c = first + 1; c < last; ++c) {
        if (less_(items_[c], items_[least])) least = c;
      }
      if (!less_(items_[least], item)) break;
      items_[i] = items_[least];
      i = least;
    }
    items_[i] = item;
  }

  std::vector<T> items_;
  [[no_unique_address]] Less less_;
};

}  // namespace a2a::sim::scale
