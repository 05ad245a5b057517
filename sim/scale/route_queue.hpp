// The flow network's queue of routes by when their next flow ends: an indexed 4-ary min-heap with
// one entry per route, whose key moves when a solve changes the route's rate (dary_heap.hpp, told
// where each entry sits).
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

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  const Entry& top() const { return heap_.top(); }
  bool contains(std::uint32_t route) const {
    const std::vector<std::uint32_t>& at = heap_.on_place().at;
    return route < at.size() && at[route] != kAbsent;
  }

  // Queues `route` at `time`, or moves it there if it is queued already.
  void set(std::uint32_t route, double time) {
    std::vector<std::uint32_t>& at = heap_.on_place().at;
    if (route >= at.size()) at.resize(route + 1, kAbsent);
    if (at[route] == kAbsent) {
      heap_.push({time, route});
    } else {
      heap_.replace_at(at[route], {time, route});
    }
  }
  // Takes `route` out of the queue; nothing if it is not queued.
  void erase(std::uint32_t route) {
    if (!contains(route)) return;
    std::uint32_t& at = heap_.on_place().at[route];
    const std::uint32_t position = at;
    at = kAbsent;
    heap_.erase_at(position);
  }
  void pop() { erase(top().route); }

 private:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFF;

  // The heap's hook: where each route's entry is, kept up to date as the heap moves entries.
  struct Positions {
    std::vector<std::uint32_t> at;  // by route slot: its position in the heap, or kAbsent
    void operator()(const Entry& entry, std::size_t i) {
      at[entry.route] = static_cast<std::uint32_t>(i);
    }
  };

  DaryHeap<Entry, std::less<>, Positions> heap_;
};

}  // namespace a2a::sim::scale
