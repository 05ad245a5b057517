// The flow network's queue of routes by when their next flow ends (sim/scale/route_queue.hpp):
// against an ordered set doing the same insertions, moves and removals, the top is always the
// least (time, route) and every route is queued at most once.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "sim/scale/route_queue.hpp"

namespace a2a::sim::scale {

namespace {

// The same operations on the queue and on a reference: an ordered set of (time, route) and each
// route's time in it.
struct Reference {
  std::set<std::pair<double, std::uint32_t>> order;
  std::map<std::uint32_t, double> time_of;

  void set(std::uint32_t route, double time) {
    erase(route);
    order.insert({time, route});
    time_of[route] = time;
  }
  void erase(std::uint32_t route) {
    const auto found = time_of.find(route);
    if (found == time_of.end()) return;
    order.erase({found->second, route});
    time_of.erase(found);
  }
};

void check_same(const RouteQueue& queue, const Reference& reference) {
  REQUIRE(queue.size() == reference.order.size());
  if (reference.order.empty()) {
    CHECK(queue.empty());
    return;
  }
  CHECK(queue.top().time == reference.order.begin()->first);
  CHECK(queue.top().route == reference.order.begin()->second);
}

}  // namespace

TEST_CASE("RouteQueue: the least time first, ties by route, each route once") {
  RouteQueue queue;
  queue.set(7, 2.0);
  queue.set(3, 2.0);
  queue.set(5, 1.0);
  CHECK(queue.size() == 3);
  CHECK(queue.top().route == 5);
  queue.set(5, 3.0);  // slowed: moved behind the others, not queued twice
  CHECK(queue.size() == 3);
  CHECK(queue.top().route == 3);  // 3 and 7 tie at 2.0: the lower slot first
  queue.pop();
  CHECK(queue.top().route == 7);
  queue.set(5, 0.5);  // sped up
  CHECK(queue.top().route == 5);
  queue.erase(5);
  queue.erase(5);  // not queued: nothing
  CHECK_FALSE(queue.contains(5));
  CHECK(queue.top().route == 7);
  queue.pop();
  CHECK(queue.empty());
  CHECK_FALSE(queue.contains(1000));  // never seen
}

TEST_CASE("RouteQueue: random insertions, moves, removals and pops match an ordered set") {
  for (const std::uint32_t seed : {1u, 2u, 3u}) {
    std::mt19937 random(seed);
    // Few distinct times (many ties) or many; few routes (mostly moves) or many.
    for (const int times : {4, 1000000}) {
      for (const std::uint32_t routes : {8u, 2000u}) {
        RouteQueue queue;
        Reference reference;
        std::uniform_int_distribution<std::uint32_t> route(0, routes - 1);
        std::uniform_int_distribution<int> time(0, times - 1);
        std::uniform_int_distribution<int> op(0, 9);
        for (int step = 0; step < 20000; ++step) {
          const int kind = op(random);
          if (kind < 6) {
            const std::uint32_t r = route(random);
            const double t = 0.25 * time(random);
            queue.set(r, t);
            reference.set(r, t);
          } else if (kind < 8) {
            const std::uint32_t r = route(random);
            queue.erase(r);
            reference.erase(r);
          } else if (!reference.order.empty()) {
            const std::uint32_t r = reference.order.begin()->second;
            REQUIRE(queue.top().route == r);
            queue.pop();
            reference.erase(r);
          }
          check_same(queue, reference);
        }
        for (const auto& [r, t] : reference.time_of)
          CHECK(queue.contains(r));
        // Emptied by pops, in order.
        while (!reference.order.empty()) {
          REQUIRE(queue.top().route == reference.order.begin()->second);
          REQUIRE(queue.top().time == reference.order.begin()->first);
          reference.erase(queue.top().route);
          queue.pop();
        }
        CHECK(queue.empty());
      }
    }
  }
}

}  // namespace a2a::sim::scale
