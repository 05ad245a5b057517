// The SimGrid platform builders: on every topology, a lone transfer takes the sum of the route's
// latencies plus size / the smallest bandwidth on the route, a transfer between two ranks of one
// node crosses only the node's loopback (intra_node), and flows contend where the model says.
// Presets are built at small scale and at the size 131,072 ranks need.
//
// SimGrid allows one engine per process, so every simulation runs in a forked child that reports
// its results through a pipe; the test process itself never touches SimGrid.
#include <doctest/doctest.h>

#include <simgrid/s4u.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "platforms/dragonfly.hpp"
#include "platforms/platform.hpp"
#include "platforms/simgrid/builder.hpp"

using namespace a2a;
namespace sg4 = simgrid::s4u;

namespace {

struct Transfer {
  int src_node, dst_node;
  double bytes;
};
// Transfers of one batch start together; batches run one after the other.
using Batch = std::vector<Transfer>;

struct Outcome {
  std::vector<std::vector<double>> durations;  // per batch, per transfer: completion − batch start
  int hosts = 0;
  double build_seconds = 0;  // wall time of build_platform
  double peak_rss_mib = 0;   // peak resident memory of the child after building
  std::string error;
};

double peak_rss_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0;
}

// Child side: builds the platform, runs the batches from an actor on node 0, writes the outcome.
void simulate_child(const PlatformSpec& spec, std::int64_t ranks, const std::vector<Batch>& batches,
                    int fd) {
  std::ostringstream out;
  out.precision(17);
  try {
    int argc = 2;
    char name[] = "a2a_sim_tests";
    char log[] = "--log=root.thres:critical";
    char* argv[] = {name, log, nullptr};
    sg4::Engine engine(&argc, argv);
    sg4::Engine::set_config("network/model:CM02");
    sg4::Engine::set_config("network/crosstraffic:0");
    const auto start = std::chrono::steady_clock::now();
    const BuiltPlatform built = build_platform(engine, spec, ranks);
    const double build_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::vector<std::vector<double>> durations(batches.size());
    // One actor per transfer; the driver starts a batch, then joins its actors.
    sg4::Actor::create("driver", built.hosts.at(0), [&] {
      for (size_t b = 0; b < batches.size(); ++b) {
        const double t0 = sg4::Engine::get_clock();
        durations[b].assign(batches[b].size(), -1);
        std::vector<sg4::ActorPtr> actors;
        for (size_t i = 0; i < batches[b].size(); ++i) {
          const Transfer t = batches[b][i];
          double* slot = &durations[b][i];
          actors.push_back(sg4::Actor::create("transfer", built.hosts.at(t.src_node), [&, t, slot] {
            sg4::Comm::sendto_async(built.hosts.at(t.src_node), built.hosts.at(t.dst_node), t.bytes)
                ->wait();
            *slot = sg4::Engine::get_clock() - t0;
          }));
        }
        for (auto& actor : actors)
          actor->join();
      }
    });
    engine.run();
    out << "ok " << built.hosts.size() << " " << build_seconds << " " << peak_rss_mib() << "\n";
    for (const auto& batch : durations) {
      out << batch.size();
      for (double d : batch)
        out << " " << d;
      out << "\n";
    }
  } catch (const std::exception& e) {
    out << "error " << e.what() << "\n";
  }
  const std::string text = out.str();
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) _exit(2);
}

Outcome simulate(const PlatformSpec& spec, std::int64_t ranks, const std::vector<Batch>& batches) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    simulate_child(spec, ranks, batches, fds[1]);
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Outcome outcome;
  std::istringstream in(text);
  std::string word;
  in >> word;
  if (word != "ok") {
    outcome.error = text.empty() ? "child died (status " + std::to_string(status) + ")" : text;
    return outcome;
  }
  in >> outcome.hosts >> outcome.build_seconds >> outcome.peak_rss_mib;
  for (size_t b = 0; b < batches.size(); ++b) {
    size_t count = 0;
    in >> count;
    outcome.durations.emplace_back(count);
    for (double& d : outcome.durations.back())
      in >> d;
  }
  return outcome;
}

// One transfer per batch, so each runs alone.
std::vector<Batch> alone(const std::vector<Transfer>& transfers) {
  std::vector<Batch> batches;
  for (const Transfer& t : transfers)
    batches.push_back({t});
  return batches;
}

void check_time(double simulated, double expected) {
  CAPTURE(simulated);
  CAPTURE(expected);
  CHECK(std::fabs(simulated - expected) <= 1e-9 * expected + 1e-15);
}

constexpr double kBytes = 1e6;

PlatformSpec star_spec() {
  return parse_platform(
      "name: star4\n"
      "topology: {kind: star, nodes: 4}\n"
      "link: {bandwidth: 10GBps, latency: 1us}\n"
      "ranks_per_node: 2\n"
      "intra_node: {bandwidth: 20GBps, latency: 100ns}\n",
      "star4.yaml");
}

// Hops of SimGrid's torus routing: shortest way round each ring.
int torus_hops(const std::vector<int>& dims, int a, int b) {
  int hops = 0;
  for (int dim : dims) {
    const int delta = std::abs(a % dim - b % dim);
    hops += std::min(delta, dim - delta);
    a /= dim;
    b /= dim;
  }
  return hops;
}

// Checks a far and a same-node transfer on a torus preset built for `ranks`.
void check_torus(const PlatformSpec& spec, std::int64_t ranks, int far_node) {
  const Outcome o = simulate(
      spec, ranks,
      alone({{0, far_node, kBytes}, {0, 1, kBytes}, {0, 0, kBytes}, {far_node, far_node, 0}}));
  REQUIRE(o.error.empty());
  MESSAGE(spec.name << " at " << ranks << " ranks: " << o.hosts << " hosts built in "
                    << o.build_seconds << " s, peak RSS " << o.peak_rss_mib << " MiB");
  const double link_bw = std::min(spec.link.bandwidth, spec.injection.bandwidth);
  const int hops = torus_hops(spec.torus_dims, 0, far_node);
  CAPTURE(hops);
  check_time(o.durations[0][0],
             2 * spec.injection.latency + hops * spec.link.latency + kBytes / link_bw);
  check_time(o.durations[1][0], 2 * spec.injection.latency + spec.link.latency + kBytes / link_bw);
  check_time(o.durations[2][0], spec.intra_node.latency + kBytes / spec.intra_node.bandwidth);
  check_time(o.durations[3][0], spec.intra_node.latency);
}

// Expected lone-transfer time between two nodes of a dragonfly, from the hop kinds of its route.
double dragonfly_time(const PlatformSpec& spec, int src, int dst, double bytes) {
  const DragonflyLayout layout(spec);
  DragonflyLayout::Hop hops[5];
  const int count = layout.route(src, dst, hops);
  double latency = 0, bandwidth = spec.injection.bandwidth;
  for (int h = 0; h < count; ++h) {
    const LinkSpec& link = hops[h].kind == DragonflyLayout::Hop::Kind::node    ? spec.injection
                           : hops[h].kind == DragonflyLayout::Hop::Kind::local ? spec.link
                                                                               : spec.global_link;
    latency += link.latency;
    bandwidth = std::min(bandwidth, link.bandwidth);
  }
  return latency + bytes / bandwidth;
}

void check_dragonfly(const PlatformSpec& spec, std::int64_t ranks) {
  const DragonflyLayout layout(spec);
  const int built = static_cast<int>((ranks + spec.ranks_per_node - 1) / spec.ranks_per_node);
  const int far = built - 1;
  const int next_router = std::min(far, layout.nodes_per_router());  // same group, router 1
  std::vector<Transfer> transfers = {{0, far, kBytes}, {far, 0, kBytes}, {0, next_router, kBytes},
                                     {0, 0, kBytes},   {far, far, 0},    {0, far, 0}};
  const Outcome o = simulate(spec, ranks, alone(transfers));
  REQUIRE(o.error.empty());
  CHECK(o.hosts == built);
  MESSAGE(spec.name << " at " << ranks << " ranks: " << o.hosts << " hosts built in "
                    << o.build_seconds << " s, peak RSS " << o.peak_rss_mib << " MiB");
  for (size_t i = 0; i < transfers.size(); ++i) {
    const Transfer& t = transfers[i];
    CAPTURE(t.src_node);
    CAPTURE(t.dst_node);
    const double expected = t.src_node == t.dst_node
                                ? spec.intra_node.latency + t.bytes / spec.intra_node.bandwidth
                                : dragonfly_time(spec, t.src_node, t.dst_node, t.bytes);
    check_time(o.durations[i][0], expected);
  }
}

}  // namespace

TEST_CASE("star: private links, contention only on a node's own link") {
  const PlatformSpec spec = star_spec();
  const double lone = 2e-6 + kBytes / 10e9;
  const double shm = 100e-9 + kBytes / 20e9;
  const Outcome o = simulate(spec, 8,
                             {{{0, 3, kBytes}},
                              {{0, 0, kBytes}},
                              {{0, 2, kBytes}, {1, 2, kBytes}},  // share node 2's down link
                              {{0, 1, kBytes}, {0, 2, kBytes}},  // share node 0's up link
                              {{0, 1, kBytes}, {2, 3, kBytes}},  // disjoint
                              {{0, 1, kBytes}, {1, 0, kBytes}},  // split duplex: no sharing
                              {{0, 0, kBytes}, {0, 0, kBytes}},  // loopback is a fatpipe
                              {{1, 2, 0}}});
  REQUIRE(o.error.empty());
  CHECK(o.hosts == 4);
  check_time(o.durations[0][0], lone);
  check_time(o.durations[1][0], shm);
  for (int b : {2, 3}) {
    check_time(o.durations[b][0], 2e-6 + 2 * kBytes / 10e9);
    check_time(o.durations[b][1], 2e-6 + 2 * kBytes / 10e9);
  }
  for (int b : {4, 5}) {
    check_time(o.durations[b][0], lone);
    check_time(o.durations[b][1], lone);
  }
  check_time(o.durations[6][0], shm);
  check_time(o.durations[6][1], shm);
  check_time(o.durations[7][0], 2e-6);
}

TEST_CASE("star: only the nodes the run needs are built") {
  const Outcome o = simulate(star_spec(), 3, alone({{0, 1, kBytes}}));
  REQUIRE(o.error.empty());
  CHECK(o.hosts == 2);
  check_time(o.durations[0][0], 2e-6 + kBytes / 10e9);
}

TEST_CASE("single node (laptop preset): loopback only") {
  const PlatformSpec spec = load_platform("laptop");
  const Outcome o = simulate(spec, 8, {{{0, 0, kBytes}}, {{0, 0, kBytes}, {0, 0, 1e3}}});
  REQUIRE(o.error.empty());
  CHECK(o.hosts == 1);
  const double shm = spec.intra_node.latency + kBytes / spec.intra_node.bandwidth;
  check_time(o.durations[0][0], shm);
  check_time(o.durations[1][0], shm);
  check_time(o.durations[1][1], spec.intra_node.latency + 1e3 / spec.intra_node.bandwidth);
}

TEST_CASE("torus (tiny preset): dimension-order routes through the injection links") {
  const PlatformSpec tiny = load_platform("tiny");
  check_torus(tiny, 256, 2 + 2 * 4 + 2 * 16);  // 6 hops: the far corner
  check_torus(tiny, 8, 1);                     // 2 nodes built, the other 62 leaves are routers

  // Two flows leaving one node share its injection link (2 GB/s), which carries both at the full
  // rate of their torus links (1 GB/s): 0 -> 1 and 0 -> 4 leave on different torus links.
  // 0 -> 1 and 0 -> 2 share the torus link 0 -> 1: it stays saturated from the moment the first
  // flow has paid its latency (2 us) until 2 MB have crossed. CM02 shares a link in inverse
  // proportion to route latency (2 us and 3 us: 3:2) once both flows are active.
  const Outcome o =
      simulate(tiny, 256, {{{0, 1, kBytes}, {0, 4, kBytes}}, {{0, 1, kBytes}, {0, 2, kBytes}}});
  REQUIRE(o.error.empty());
  check_time(o.durations[0][0], 2e-6 + kBytes / 1e9);
  check_time(o.durations[0][1], 2e-6 + kBytes / 1e9);
  check_time(o.durations[1][1], 2e-6 + 2 * kBytes / 1e9);
  // Alone at 1 GB/s from 2 us to 3 us (1,000 bytes), then 3/5 of the link.
  check_time(o.durations[1][0], 3e-6 + (kBytes - 1e3) / 0.6e9);
}

TEST_CASE("fat tree: up to the common ancestor and down") {
  const PlatformSpec spec = parse_platform(
      "name: tree16\n"
      "topology: {kind: fat_tree, levels: 2, down: [4, 4], up: [1, 2], parallel: [1, 1]}\n"
      "link: {bandwidth: 5GBps, latency: 1us}\n"
      "ranks_per_node: 2\n"
      "intra_node: {bandwidth: 20GBps, latency: 100ns}\n",
      "tree16.yaml");
  const Outcome o = simulate(spec, 32, alone({{0, 1, kBytes}, {0, 5, kBytes}, {3, 3, kBytes}}));
  REQUIRE(o.error.empty());
  CHECK(o.hosts == 16);
  check_time(o.durations[0][0], 2e-6 + kBytes / 5e9);  // same leaf switch: 2 links
  check_time(o.durations[1][0], 4e-6 + kBytes / 5e9);  // via a top switch: 4 links
  check_time(o.durations[2][0], 100e-9 + kBytes / 20e9);

  const Outcome small = simulate(spec, 3, alone({{0, 1, kBytes}}));
  REQUIRE(small.error.empty());
  CHECK(small.hosts == 2);
  check_time(small.durations[0][0], 2e-6 + kBytes / 5e9);
}

TEST_CASE("dragonfly: hand-checked routes on a small shape") {
  // 3 groups x 2 routers x 2 nodes, 1 global link per router: group pairs (0,1), (1,2), (2,0)
  // have one cable each. Node 0 is on router 0 of group 0, node 11 on router 1 of group 2.
  const PlatformSpec spec = parse_platform(
      "name: df12\n"
      "topology: {kind: dragonfly, groups: 3, routers_per_group: 2, nodes_per_router: 2,\n"
      "           global_links_per_router: 1}\n"
      "link: {bandwidth: 4GBps, latency: 1us}\n"
      "injection: {bandwidth: 8GBps, latency: 500ns}\n"
      "global_link: {bandwidth: 2GBps, latency: 3us}\n"
      "ranks_per_node: 1\n"
      "intra_node: {bandwidth: 20GBps, latency: 100ns}\n",
      "df12.yaml");
  const DragonflyLayout layout(spec);
  // Ports: offset 1 -> port 0 -> router 0; offset 2 -> port 1 -> router 1.
  CHECK(layout.router_holding(1, 0) == 0);
  CHECK(layout.router_holding(2, 0) == 1);
  const Outcome o =
      simulate(spec, 12,
               alone({{0, 1, kBytes},      // same router
                      {0, 2, kBytes},      // same group, other router
                      {0, 4, kBytes},      // group 0 r0 -> group 1 (offset 1: r0 holds it,
                                           // lands on group 1's offset-2 port: r1) -> r0
                      {0, 11, kBytes}}));  // group 0 -> group 2 (offset 2: r1 holds it)
  REQUIRE(o.error.empty());
  check_time(o.durations[0][0], 1e-6 + kBytes / 8e9);
  check_time(o.durations[1][0], 2e-6 + kBytes / 4e9);
  check_time(o.durations[2][0], 1e-6 + 3e-6 + 1e-6 + kBytes / 2e9);         // global, local
  check_time(o.durations[3][0], 1e-6 + 1e-6 + 3e-6 + 1e-6 + kBytes / 2e9);  // local, global, local
}

TEST_CASE("presets at small scale and at 131,072 ranks") {
  SUBCASE("polaris, 64 ranks") {
    check_dragonfly(load_platform("polaris"), 64);
  }
  SUBCASE("polaris, 1,024 ranks") {
    check_dragonfly(load_platform("polaris"), 1024);
  }
  SUBCASE("polaris_scaled, 131,072 ranks (4,096 nodes)") {
    check_dragonfly(load_platform("polaris_scaled"), 131072);
  }
  SUBCASE("small_dragonfly, 256 ranks") {
    check_dragonfly(load_platform("small_dragonfly"), 256);
  }
  SUBCASE("theta, 256 ranks") {
    check_dragonfly(load_platform("theta"), 256);
  }
  SUBCASE("theta, 131,072 ranks") {
    check_dragonfly(load_platform("theta"), 131072);
  }
  SUBCASE("fugaku, 96 ranks") {
    check_torus(load_platform("fugaku"), 96, 1);
  }
  SUBCASE("fugaku, 131,072 ranks (4,096 of 4,608 nodes at 32 per node)") {
    check_torus(load_platform("fugaku"), 131072, 4095);
  }
  SUBCASE("fugaku_full, 28,800 ranks (600 nodes: only the 24 x 23 x 24 block is built)") {
    // Node 599 is at x = 23, y = 1, z = 1: 3 hops, one round the X ring's wrap-around, counted
    // on the whole machine's shape.
    check_torus(load_platform("fugaku_full"), 28800, 599);
  }
}

TEST_CASE("build_platform refuses more ranks than the platform holds") {
  const Outcome o = simulate(star_spec(), 9, alone({}));
  CHECK(o.error.find("has 4 nodes") != std::string::npos);
}
