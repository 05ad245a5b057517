// A 4-ary min-heap for the scale engine's event queue, the links a solve raises (link_queue.hpp)
// and the routes by when their next flow ends (route_queue.hpp): half the depth of a binary heap,
// and a node's children side by side in one or two cache lines. At 10^5-10^6 ranks the event queue
// holds hundreds of thousands of events, so each level of a pop is a cache miss: std::pop_heap's
// sift-downs took 13 % of a run at P = 262,144 (docs/performance.md, stop 28).
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <vector>

namespace a2a::sim::scale {

inline constexpr std::size_t kHeapArity = 4;

// The default of DaryHeap's OnPlace: nobody needs to know where an item sits.
struct IgnorePlacement {
  template <class T>
  void operator()(const T&, std::size_t) const {}
};

// A min-heap of T ordered by `Less` (a strict weak order; the top is the least item). `OnPlace` is
// called with an item and its new position whenever the heap puts an item somewhere, so that an
// indexed heap (route_queue.hpp) can find its items again to move or erase them; it may hold that
// index itself (on_place()), which saves a load per placement over a pointer to it.
//
// push, replace_at and the sifts are always inlined into their callers, as the route queue's own
// copy of these loops was: GCC kept them out of line once two heaps used them, 1.0 % more
// instructions in a scale-engine run; inlined, 0.25 % fewer than that copy (callgrind,
// parlinna_coalesced at P = 4,096; docs/performance.md, stop 55).
template <class T, class Less = std::less<>, class OnPlace = IgnorePlacement>
class DaryHeap {
 public:
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const T& top() const { return items_.front(); }
  OnPlace& on_place() { return on_place_; }
  const OnPlace& on_place() const { return on_place_; }

  [[gnu::always_inline]] void push(const T& item) {
    items_.push_back(item);
    sift_up(items_.size() - 1);
  }
  void clear() { items_.clear(); }
  void pop() {
    items_.front() = items_.back();
    items_.pop_back();
    if (!items_.empty()) sift_down(0);
  }
  // Puts `item` in place of the one at position i and restores the order.
  [[gnu::always_inline]] void replace_at(std::size_t i, const T& item) {
    const bool rises = less_(item, items_[i]);
    items_[i] = item;
    if (rises) {
      sift_up(i);
    } else {
      sift_down(i);
    }
  }
  // Takes out the item at position i.
  void erase_at(std::size_t i) {
    const T last = items_.back();
    items_.pop_back();
    if (i < items_.size()) replace_at(i, last);
  }

 private:
  void place(std::size_t i, const T& item) {
    items_[i] = item;
    on_place_(item, i);
  }
  [[gnu::always_inline]] void sift_up(std::size_t i) {
    const T item = items_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kHeapArity;
      if (!less_(item, items_[parent])) break;
      place(i, items_[parent]);
      i = parent;
    }
    place(i, item);
  }
  [[gnu::always_inline]] void sift_down(std::size_t i) {
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
      place(i, items_[least]);
      i = least;
    }
    place(i, item);
  }

  std::vector<T> items_;
  [[no_unique_address]] Less less_;
  [[no_unique_address]] OnPlace on_place_;
};

}  // namespace a2a::sim::scale
