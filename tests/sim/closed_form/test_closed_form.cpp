// On a contention-free star (every node a private full-duplex link of latency L and bandwidth B to
// a switch without capacity limits; one rank per node; no overheads; free local copies) a message
// of n bytes between two nodes costs alpha + n * beta with alpha = 2L (up and down) and beta = 1/B,
// and flows share a node's link fairly. The SimGrid backend's predictions must equal:
//   spread_out:   alpha + (P-1) n beta  — all P-1 sends start together and share the uplink, so the
//                 latency is paid once (Hockney's (P-1) alpha assumes sends one after another);
//   bruck_basic:  sum over steps k of (alpha + m_k n beta), m_k = |{i < P : bit k of i set}|
//                 (one message per rank per step; ALGORITHMS.md's radix-2 Bruck cost);
//   padded_bruck: ceil(log2 P) (alpha + 8 beta)  [allreduce of the largest block]
//                 + sum over k of (alpha + m_k N beta), N the largest block.
// Both engines must: the SimGrid engine and the scale engine (exact mode, tolerance 0, and its
// default batched mode) share the platform and the model, not the code that evaluates it.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"
#include "sim/simulation.hpp"
#include "workloads/workload.hpp"

using namespace a2a;

namespace {

constexpr int kMaxRanks = 16;
constexpr double kLatency = 1e-6;
constexpr double kBandwidth = 1e9;
constexpr double kAlpha = 2 * kLatency;
constexpr double kBeta = 1 / kBandwidth;

PlatformSpec contention_free_star() {
  PlatformSpec star;
  star.name = "contention-free star";
  star.topology = Topology::star;
  star.nodes = kMaxRanks;
  star.link = {kBandwidth, kLatency};
  star.global_link = star.link;
  star.ranks_per_node = 1;
  star.intra_node = {1e11, 1e-8};
  return star;
}

// The engines under test; one platform per process, shared by all of them.
struct Engine {
  const char* name;
  const char* engine;
  double tolerance;
};
constexpr Engine kEngines[] = {
    {"simgrid", "simgrid", 0}, {"scale exact", "scale", 0}, {"scale batched", "scale", 0.05}};

sim::Simulation& simulation(const Engine& engine) {
  static std::map<std::string, std::unique_ptr<sim::Simulation>> instances;
  auto& instance = instances[engine.name];
  if (!instance) {
    sim::SimOptions options;
    options.tolerance = engine.tolerance;
    instance = sim::make_simulation(engine.engine, contention_free_star(), kMaxRanks, options);
  }
  return *instance;
}

double predicted(const Engine& engine, const std::string& algorithm, const Workload& workload) {
  return simulation(engine).run(configure(algorithm, workload.ranks(), 1), workload).predicted;
}

int log2_ceil(int P) {
  int steps = 0;
  while ((1 << steps) < P)
    ++steps;
  return steps;
}

// Time of the radix-2 Bruck steps with `block` bytes per block.
double bruck_steps(int P, double block) {
  double total = 0;
  for (int k = 0; (1 << k) < P; ++k) {
    int blocks = 0;
    for (int i = 0; i < P; ++i)
      blocks += (i >> k) & 1;
    total += kAlpha + blocks * block * kBeta;
  }
  return total;
}

double largest_block(const Workload& w) {
  std::int64_t largest = 0;
  for (int s = 0; s < w.ranks(); ++s) {
    for (int d = 0; d < w.ranks(); ++d)
      largest = std::max(largest, w.count(s, d));
  }
  return static_cast<double>(largest * w.element_bytes());
}

}  // namespace

TEST_CASE("spread_out, bruck_basic and padded_bruck equal their closed forms within 1%") {
  for (const Engine& engine : kEngines) {
    CAPTURE(engine.name);
    for (int P : {2, 5, 13, 16}) {
      for (int bytes : {8, 800, 80000}) {
        CAPTURE(P);
        CAPTURE(bytes);
        auto constant = make_workload("constant:size=" + std::to_string(bytes), P);
        const double n = bytes;
        CHECK(predicted(engine, "spread_out", *constant) ==
              doctest::Approx(kAlpha + (P - 1) * n * kBeta).epsilon(0.01));
        CHECK(predicted(engine, "bruck_basic", *constant) ==
              doctest::Approx(bruck_steps(P, n)).epsilon(0.01));
        CHECK(
            predicted(engine, "padded_bruck", *constant) ==
            doctest::Approx(log2_ceil(P) * (kAlpha + 8 * kBeta) + bruck_steps(P, n)).epsilon(0.01));
      }
    }
  }
}

TEST_CASE("padded_bruck on unequal blocks pays for the largest block everywhere") {
  for (const Engine& engine : kEngines) {
    CAPTURE(engine.name);
    for (int P : {7, 16}) {
      CAPTURE(P);
      auto uneven = make_workload("uniform:max=4096,seed=5", P);
      const double N = largest_block(*uneven);
      CHECK(predicted(engine, "padded_bruck", *uneven) ==
            doctest::Approx(log2_ceil(P) * (kAlpha + 8 * kBeta) + bruck_steps(P, N)).epsilon(0.01));
    }
  }
}
