// The scale engine's flow network (sim/scale/flow_network.hpp) on links small enough to work out
// by hand: flows slowed by a solve end when their new rate says, not when their old one did.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/scale/flow_network.hpp"

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
  CHECK(completions[0].time == doctest::Approx(3.0).epsilon(1e-12));
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
  CHECK(completions[0].time == doctest::Approx(2.0).epsilon(1e-12));
  CHECK(completions[0].tokens == std::vector<std::uint64_t>{10});
  CHECK(completions[1].time == doctest::Approx(3.0).epsilon(1e-12));
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
  CHECK(network.step(done) == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(done.empty());
  CHECK(network.next_time() == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(network.step(done) == doctest::Approx(3.0).epsilon(1e-12));
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

}  // namespace a2a::sim::scale
