// The scale engine's flow network (sim/scale/flow_network.hpp) on links small enough to work out
// by hand: flows slowed by a solve end when their new rate says, not when their old one did; and
// between batched solves a route shares the bandwidth its solve gave it among the flows it carries.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/scale/flow_network.hpp"
#include "tests/approx.hpp"

namespace a2a::sim::scale {

namespace {

// Link 0 (1 B/s) is shared by routes 1 and 2; link 1 (1 B/s) carries route 0 alone. Every route
// has a latency of 1 s and no bound of its own.
struct TwoLinks {
  std::vector<double> capacities{1.0, 1.0};
  std::vector<std::uint32_t> hops{1, 0, 0};
  std::vector<Route> routes{
      {0, 0, 1, 1.0, 1e9, false}, {1, 1, 1, 1.0, 1e9, false}, {2, 2, 1, 1.0, 1e9, false}};
};

struct Completion {
  double time;
  std::vector<std::uint64_t> tokens;
};

std::vector<Completion> run_to_end(FlowNetwork& network) {
  std::vector<Completion> completions;
  while (!network.idle()) {
    std::vector<std::uint64_t> done;
    const double time = network.step(done);
    if (done.empty()) continue;
    std::sort(done.begin(), done.end());
    completions.push_back({time, done});
  }
  return completions;
}

}  // namespace

// Each 1-byte flow starts at 1 s (after its latency) at the rate a route alone on its link gets,
// 1 B/s, so it is first due at 2 s. The solve that follows halves the rate of the two sharing
// link 0: they end at 3 s. The event queued for 2 s must be moved, not taken as their end.
TEST_CASE("FlowNetwork: flows slowed by a solve end at their new time") {
  TwoLinks links;
  FlowNetwork network(links.capacities, links.hops, links.routes, 0.0);
  network.start(0, links.routes[1], 1, 11);
  network.start(0, links.routes[2], 1, 12);
  const std::vector<Completion> completions = run_to_end(network);
  REQUIRE(completions.size() == 1);
  CHECK(completions[0].time == a2a::testing::approx(3.0).epsilon(1e-12));
  CHECK(completions[0].tokens == std::vector<std::uint64_t>{11, 12});
}

// The same, with a flow alone on link 1 due at 2 s: the slowed flows' outdated events come up
// at that same time, behind an event that is due, and must still be moved.
TEST_CASE("FlowNetwork: slowed flows queued at the time another flow ends, end later") {
  TwoLinks links;
  FlowNetwork network(links.capacities, links.hops, links.routes, 0.0);
  network.start(0, links.routes[0], 1, 10);
  network.start(0, links.routes[1], 1, 11);
  network.start(0, links.routes[2], 1, 12);
  const std::vector<Completion> completions = run_to_end(network);
  REQUIRE(completions.size() == 2);
  CHECK(completions[0].time == a2a::testing::approx(2.0).epsilon(1e-12));
  CHECK(completions[0].tokens == std::vector<std::uint64_t>{10});
  CHECK(completions[1].time == a2a::testing::approx(3.0).epsilon(1e-12));
  CHECK(completions[1].tokens == std::vector<std::uint64_t>{11, 12});
}

// The time next_time() announces is one at which something happens: after the flows of the first
// case start (1 s) and the solve halves their rates, the events queued for 2 s are early, and the
// next time is 3 s, not 2 s (an empty step at 2 s would move the clock, and any batched solve, to
// a time at which nothing changed).
TEST_CASE("FlowNetwork: the next time skips events a solve made early") {
  TwoLinks links;
  FlowNetwork network(links.capacities, links.hops, links.routes, 0.0);
  network.start(0, links.routes[1], 1, 11);
  network.start(0, links.routes[2], 1, 12);
  std::vector<std::uint64_t> done;
  CHECK(network.step(done) == a2a::testing::approx(1.0).epsilon(1e-12));
  CHECK(done.empty());
  CHECK(network.next_time() == a2a::testing::approx(3.0).epsilon(1e-12));
  CHECK(network.step(done) == a2a::testing::approx(3.0).epsilon(1e-12));
  std::sort(done.begin(), done.end());
  CHECK(done == std::vector<std::uint64_t>{11, 12});
}

// Flows of one route that end at the same moment come back in one step, in the order they
// started (by flow, not by token): which of them wakes its rank first must not depend on the
// tokens the event loop chose. Each hands back its own token.
TEST_CASE("FlowNetwork: flows of one route that end together come back in the order they started") {
  TwoLinks links;
  FlowNetwork network(links.capacities, links.hops, links.routes, 0.0);
  network.start(0, links.routes[0], 1, 20);
  network.start(0, links.routes[0], 1, 10);
  network.start(0, links.routes[0], 1, 30);
  std::vector<std::uint64_t> done;
  while (done.empty() && !network.idle())
    network.step(done);
  CHECK(done == std::vector<std::uint64_t>{20, 10, 30});
  CHECK(network.idle());
}

// Between batched solves, a route that its saturated link limits keeps the bandwidth the last
// solve gave it, shared by the flows it carries now. Route 0 is alone on link 1 (1 B/s); with
// tolerance 1 the solve at 1 s (two flows in flight) is not repeated before two more changes.
// A 1-byte flow joining at 2 s gets a third of the link, as an exact solve would give it, not the
// half the others got (which would load the link at 1.5 B/s and end it at 4 s): it ends at 5 s.
// The two 10-byte flows then share the link again: 1.5 bytes moved by 5 s, 8.5 more at 0.5 B/s.
TEST_CASE("FlowNetwork: a flow joining between solves shares its route's bandwidth") {
  TwoLinks links;
  for (const double tolerance : {0.0, 1.0}) {
    CAPTURE(tolerance);
    FlowNetwork network(links.capacities, links.hops, links.routes, tolerance);
    network.start(0, links.routes[0], 10, 1);
    network.start(0, links.routes[0], 10, 2);
    network.start(1, links.routes[0], 1, 3);
    const std::vector<Completion> completions = run_to_end(network);
    REQUIRE(completions.size() == 2);
    CHECK(completions[0].time == a2a::testing::approx(5.0).epsilon(1e-12));
    CHECK(completions[0].tokens == std::vector<std::uint64_t>{3});
    CHECK(completions[1].time == a2a::testing::approx(22.0).epsilon(1e-12));
    CHECK(completions[1].tokens == std::vector<std::uint64_t>{1, 2});
  }
}

// And a flow that ends between solves leaves its bandwidth to its route-mates: two flows share
// link 1 at 0.5 B/s from 1 s; the 1-byte one ends at 3 s, and the 10-byte one, 1 byte moved,
// moves the other 9 at the link's full 1 B/s (ending at 12 s), not at 0.5 B/s until 21 s.
TEST_CASE("FlowNetwork: a flow ending between solves leaves its bandwidth to its route-mates") {
  TwoLinks links;
  for (const double tolerance : {0.0, 1.0}) {
    CAPTURE(tolerance);
    FlowNetwork network(links.capacities, links.hops, links.routes, tolerance);
    network.start(0, links.routes[0], 10, 1);
    network.start(0, links.routes[0], 1, 2);
    const std::vector<Completion> completions = run_to_end(network);
    REQUIRE(completions.size() == 2);
    CHECK(completions[0].time == a2a::testing::approx(3.0).epsilon(1e-12));
    CHECK(completions[1].time == a2a::testing::approx(12.0).epsilon(1e-12));
    CHECK(completions[1].tokens == std::vector<std::uint64_t>{1});
  }
}

}  // namespace a2a::sim::scale
