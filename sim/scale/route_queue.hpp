// The flow network's queue of routes by when their next flow ends: an indexed 4-ary min-heap with
// one entry per route, whose key moves when a solve changes the route's rate.
//
// It replaced route events left in the general event queue when they went out of date (a route
// sped up got a second event, a route slowed kept its early one and had it moved when it came up):
// parlinna_coalesced r = 4 batch 8 at P = 32,768 on polaris_scaled pushed 141.7 million route
// events and popped 103 million of them unused (67.9 million outdated, 35.3 million early) for
// 34.3 million routes whose flow ended (docs/performance.md, stop 54). Here a route's entry is
// moved in place instead, so the queue holds each route once and never yields one that is not due.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/scale/dary_heap.hpp"

namespace a2a::sim::scale {

class RouteQueue {
 public:
  struct Entry {
    double time;
    std::uint32_t route;
    // Routes due at one time are taken in the order of their slots, as the event queue ordered
    // events of one kind by id: the order decides which rank wakes first.
    bool operator<(const Entry& o) const {
      return time != o.time ? time < o.time : route < o.route;
    }
  };

  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const Entry& top() const { return items_.front(); }
  bool contains(std::uint32_t route) const { return route < at_.size() && at_[route] != kAbsent; }

  // Queues `route` at `time`, or moves it there if it is queued already.
  void set(std::uint32_t route, double time) {
    if (route >= at_.size()) at_.resize(route + 1, kAbsent);
    const std::uint32_t at = at_[route];
    if (at == kAbsent) {
      items_.push_back({time, route});
      sift_up(items_.size() - 1);
      return;
    }
    const Entry old = items_[at];
    items_[at].time = time;
    if (items_[at] < old) {
      sift_up(at);
    } else {
      sift_down(at);
    }
  }
  // Takes `route` out of the queue; nothing if it is not queued.
  void erase(std::uint32_t route) {
    if (!contains(route)) return;
    const std::uint32_t at = at_[route];
    at_[route] = kAbsent;
    const Entry last = items_.back();
    items_.pop_back();
    if (at == items_.size()) return;
    const Entry removed = items_[at];
    place(at, last);
    if (last < removed) {
      sift_up(at);
    } else {
      sift_down(at);
    }
  }
  void pop() { erase(top().route); }

 private:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFF;

  void place(std::size_t i, const Entry& entry) {
    items_[i] = entry;
    at_[entry.route] = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    const Entry entry = items_[i];
    while (i > 0) {
      const std::size_t parent = (i - 1) / kHeapArity;
      if (!(entry < items_[parent])) break;
      place(i, items_[parent]);
      i = parent;
    }
    place(i, entry);
  }
  void sift_down(std::size_t i) {
    const std::size_t n = items_.size();
    const Entry entry = items_[i];
    for (;;) {
      const std::size_t first = i * kHeapArity + 1;
      if (first >= n) break;
      const std::size_t last = first + kHeapArity < n ? first + kHeapArity : n;
      std::size_t least = first;
      for (std::size_t c = first + 1; c < last; ++c) {
        if (items_[c] < items_[least]) least = c;
      }
      if (!(items_[least] < entry)) break;
      place(i, items_[least]);
      i = least;
    }
    place(i, entry);
  }

  std::vector<Entry> items_;
  std::vector<std::uint32_t> at_;  // by route slot: its position in items_, or kAbsent
};

}  // namespace a2a::sim::scale
