// Working memory (SimResult::working_bytes, docs/scenarios.md "working_bytes"): the caller's send
// and receive blocks plus the temporaries at their peak, per rank, the maximum over ranks; an
// in-place algorithm holds the send and receive data in one array, so its blocks count once.
// On an equal-block exchange the test computes what the definition gives from the workload itself
// (N, the bytes a rank sends, summed block by block here) and the temporaries each run reports, and
// checks that bitonic_inplace's in-place advantage over the vendor and spread_out shows — while its
// peak temporary memory alone (the transfer buffer, against none) says the opposite.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"
#include "platforms/platform.hpp"
#include "sim/simulation.hpp"
#include "workloads/plan.hpp"
#include "workloads/workload.hpp"

using namespace a2a;

namespace {

constexpr int kRanks = 8;

// N: the bytes rank `rank` sends, block by block (every rank sends and receives N here).
std::int64_t sent_bytes(const Workload& workload, int rank) {
  std::int64_t total = 0;
  for (int dst = 0; dst < workload.ranks(); ++dst)
    total += workload.count(rank, dst) * workload.element_bytes();
  return total;
}

sim::SimResult simulate(const std::string& spec, const Workload& workload) {
  const PlatformSpec platform = load_platform("tiny");
  const auto simulation =
      sim::make_simulation("scale", platform, kRanks, sim::SimOptions{.tolerance = 0});
  const Configuration config = configure(spec, kRanks, platform.ranks_per_node);
  const auto planned =
      plan(Selection{{config.algorithm->name}, {}}, workload, platform.ranks_per_node);
  REQUIRE(!planned.empty());
  REQUIRE(!planned.front().skip);
  return simulation->run(config, workload, planned.front().layout);
}

}  // namespace

TEST_CASE("working memory: buffers plus temporaries; an in-place algorithm's buffers count once") {
  const auto workload = make_workload("constant:size=4096", kRanks);
  const std::int64_t n = sent_bytes(*workload, 0);
  for (int rank = 1; rank < kRanks; ++rank)
    REQUIRE(sent_bytes(*workload, rank) == n);

  const sim::SimResult bitonic = simulate("bitonic_inplace:chunk=1024", *workload);
  const sim::SimResult spread = simulate("spread_out", *workload);
  const sim::SimResult vendor = simulate("vendor", *workload);

  REQUIRE(bitonic.working_bytes.has_value());
  REQUIRE(spread.working_bytes.has_value());
  REQUIRE(vendor.working_bytes.has_value());
  // The definition: send blocks + receive blocks (once for in place) + peak temporaries.
  CHECK(bitonic.working_bytes == n + bitonic.max_per_rank.temp_peak);
  CHECK(spread.working_bytes == 2 * n + spread.max_per_rank.temp_peak);
  CHECK(vendor.working_bytes == 2 * n + vendor.max_per_rank.temp_peak);
  // bitonic_inplace's temporary is its transfer buffer, less than N: it works in less memory than
  // either, though its peak temporary memory alone is the larger.
  CHECK(bitonic.max_per_rank.temp_peak > 0);
  CHECK(bitonic.max_per_rank.temp_peak < n);
  CHECK(bitonic.max_per_rank.temp_peak > spread.max_per_rank.temp_peak);
  CHECK(bitonic.working_bytes < spread.working_bytes);
  CHECK(bitonic.working_bytes < vendor.working_bytes);
}

TEST_CASE("working memory on unequal blocks: the largest rank's sends plus receives") {
  const auto workload = make_workload("uniform:max=4096", kRanks);
  const sim::SimResult spread = simulate("spread_out", *workload);
  std::int64_t most = 0;
  for (int rank = 0; rank < kRanks; ++rank) {
    std::int64_t received = 0;
    for (int src = 0; src < kRanks; ++src)
      received += workload->count(src, rank) * workload->element_bytes();
    most = std::max(most, sent_bytes(*workload, rank) + received);
  }
  CHECK(spread.max_per_rank.temp_peak == 0);
  CHECK(spread.working_bytes == most);
}

TEST_CASE("buffer bytes: every rank's row and column, as the blocks one by one add up") {
  // The sums are run sums (vectorised for the random workloads); each rank's send and receive
  // totals must equal its row and its column added block by block, on workloads whose rows and
  // columns differ (P = 37: prime, no power of two).
  constexpr int kP = 37;
  for (const char* spec :
       {"uniform:max=4096", "sparse:density=0.3,max=1024", "normal:mean=500", "fft_n1"}) {
    CAPTURE(spec);
    const auto workload = make_workload(spec, kP);
    const sim::BufferBytes bytes = sim::buffer_bytes(*workload);
    REQUIRE(bytes.send.size() == static_cast<size_t>(kP));
    bool rows_differ_from_columns = false;
    for (int rank = 0; rank < kP; ++rank) {
      std::int64_t sent = 0, received = 0;
      for (int peer = 0; peer < kP; ++peer) {
        sent += workload->count(rank, peer) * workload->element_bytes();
        received += workload->count(peer, rank) * workload->element_bytes();
      }
      CHECK(bytes.send[static_cast<size_t>(rank)] == sent);
      CHECK(bytes.receive[static_cast<size_t>(rank)] == received);
      rows_differ_from_columns = rows_differ_from_columns || sent != received;
    }
    CHECK(rows_differ_from_columns);
  }
}

TEST_CASE(
    "working memory at scale: balanced workloads in O(P), others not summed beyond the bound") {
  constexpr int kLarge = sim::kMaxSummedRanks * 2;
  const auto balanced = make_workload("constant:size=64", kLarge);
  const sim::BufferBytes known = sim::buffer_bytes(*balanced);
  REQUIRE(known.send.size() == static_cast<size_t>(kLarge));
  CHECK(known.of(kLarge - 1, false) == 2 * std::int64_t{64} * kLarge);
  CHECK(known.of(kLarge - 1, true) == std::int64_t{64} * kLarge);
  // P² = 1.1·10^9 block sizes would take minutes: not summed, the column left empty.
  const auto random = make_workload("uniform:max=64", kLarge);
  CHECK(sim::buffer_bytes(*random).send.empty());
}
