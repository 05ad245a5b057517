// The memory guard of `a2a run` (sim/resource_guard.hpp, sim/simgrid/memory_model.hpp): sizes
// and limits are parsed strictly, the SimGrid model grows with what costs memory (P, messages in
// flight, the platform shape, payload bytes), and a refusal is one line naming estimate and limit.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "algorithms/errors.hpp"
#include "platforms/platform.hpp"
#include "sim/resource_guard.hpp"
#include "sim/simgrid/memory_model.hpp"
#include "tests/approx.hpp"
#include "workloads/plan.hpp"

using namespace a2a;
using namespace a2a::sim;

namespace {

constexpr std::int64_t KiB = 1024, MiB = KiB * KiB, GiB = KiB * MiB;

std::vector<Planned> planned(const std::vector<std::string>& specs, int ranks) {
  std::vector<Planned> out;
  for (const std::string& spec : specs)
    out.push_back({configure(spec, ranks, 32), LayoutStyle::gaps, std::nullopt});
  return out;
}

std::int64_t simgrid_bytes(const std::string& platform_name, int ranks,
                           const std::vector<std::string>& specs, bool payload = false,
                           const std::string& workload_spec = "uniform") {
  const PlatformSpec platform = load_platform(platform_name);
  SimOptions options;
  options.payload = payload;
  const auto workload = make_workload(workload_spec, ranks);
  const std::vector<Planned> configs = planned(specs, ranks);
  return estimate_memory("simgrid", {platform, ranks, options, *workload, configs}).bytes;
}

}  // namespace

TEST_CASE("memory sizes: units of 1024, with or without B/iB; anything else names --max-memory") {
  CHECK(parse_memory_size("8G", "--max-memory") == 8 * GiB);
  CHECK(parse_memory_size("8GiB", "--max-memory") == 8 * GiB);
  CHECK(parse_memory_size("512m", "--max-memory") == 512 * MiB);
  CHECK(parse_memory_size("1.5GB", "--max-memory") == 3 * GiB / 2);
  CHECK(parse_memory_size("1000000", "--max-memory") == 1000000);
  CHECK(parse_memory_size("2T", "--max-memory") == 2 * KiB * GiB);
  for (const char* bad : {"", "8Q", "G", "-1G", "0", "8 G", "1e30T", "nan", "8GG"}) {
    CAPTURE(bad);
    const std::string expected = "--max-memory '" + std::string(bad) + "'";
    CHECK_THROWS_WITH_AS(parse_memory_size(bad, "--max-memory"),
                         doctest::Contains(expected.c_str()), InvalidParameter);
  }
}

TEST_CASE("available memory is MemAvailable of /proc/meminfo, 0 when absent") {
  CHECK(available_memory_from("MemTotal:       24000000 kB\nMemFree:        1000 kB\n"
                              "MemAvailable:   23000000 kB\n") == 23000000LL * 1024);
  CHECK(available_memory_from("MemTotal: 1000 kB\n") == 0);
  CHECK(memory_limit("").bytes > 0);  // this machine has a /proc/meminfo
  CHECK(memory_limit("4G").bytes == 4 * GiB);
  CHECK(memory_limit("4G").source == "--max-memory 4G");
}

TEST_CASE("a refusal is one line with the estimate and the limit; within the limit nothing") {
  const MemoryEstimate estimate{3 * GiB, "1000 ranks"};
  CHECK_NOTHROW(check_memory(estimate, {4 * GiB, "--max-memory 4G"}, "simgrid"));
  CHECK_NOTHROW(check_memory(estimate, {0, "unknown"}, "simgrid"));
  try {
    check_memory(estimate, {2 * GiB, "--max-memory 2G"}, "simgrid");
    FAIL("expected a refusal");
  } catch (const InputError& error) {
    const std::string text = error.what();
    CHECK(text ==
          "the simgrid simulation needs about 3.0 GiB (1000 ranks) but the limit is 2.0 GiB "
          "(--max-memory 2G)");
  }
}

TEST_CASE("messages in flight: P-1 for linear exchanges, batch, Bruck radix-1, 1 for pairwise") {
  const int P = 64;
  auto in_flight = [&](const std::string& spec) {
    return messages_in_flight(configure(spec, P, 4), P, 4, "openmpi");
  };
  CHECK(in_flight("spread_out") == P - 1);
  CHECK(in_flight("ompi_linear") == P - 1);
  CHECK(in_flight("ompi_pairwise") == 1);
  CHECK(in_flight("scattered:batch=8") == 8);
  CHECK(in_flight("scattered:batch=1000") == P - 1);
  CHECK(in_flight("bruck_radix:radix=16") == 15);
  CHECK(in_flight("parlogna:radix=16") == 1);  // one message per round
  CHECK(in_flight("two_phase_bruck") == 1);
  // vendor: the modeled MPI's choice (sim/vendor_model.hpp): Open MPI pairwise at P = 64, basic
  // linear at P = 200; MPICH scattered with a throttle of 32.
  CHECK(in_flight("vendor") == 1);
  CHECK(messages_in_flight(configure("vendor", 200, 4), 200, 4, "openmpi") == 199);
  CHECK(messages_in_flight(configure("vendor", 512, 4), 512, 4, "mpich") == 32);
}

TEST_CASE(
    "distinct peers: P-1 for linear exchanges, (r-1) log_r P rounds, nodes for hierarchical") {
  const int P = 64;
  auto peers = [&](const std::string& spec) {
    return distinct_peers(configure(spec, P, 4), P, 4, "openmpi");
  };
  CHECK(peers("spread_out") == P - 1);
  CHECK(peers("ompi_pairwise") == P - 1);
  CHECK(peers("scattered:batch=8") == P - 1);
  CHECK(peers("parlogna:radix=2") == 6);
  CHECK(peers("parlogna:radix=4") == 9);
  CHECK(peers("two_phase_bruck") == 6);
  // Q = 4: one radix-2 round pair inside the node (2 rounds), then the 15 other nodes.
  CHECK(peers("parlinna_coalesced:ranks_per_node=4,radix=2,batch=2") == 2 + 15);
  CHECK(peers("vendor") == P - 1);
  CHECK(distinct_peers(configure("parlogna", 1, 1), 1, 1, "openmpi") == 0);
}

TEST_CASE("the SimGrid model grows with P, messages in flight, payload, and whole torus shapes") {
  const std::int64_t p1k = simgrid_bytes("polaris_scaled", 1024, {"parlogna:radix=2"});
  const std::int64_t p4k = simgrid_bytes("polaris_scaled", 4096, {"parlogna:radix=2"});
  const std::int64_t p16k = simgrid_bytes("polaris_scaled", 16384, {"parlogna:radix=2"});
  CHECK(p1k < p4k);
  CHECK(p4k < p16k);
  // Calibration points (docs/reliability.md): measured 57 MiB, 172 MiB, 1.3 GiB; the model stays
  // within a factor 1.5 of them.
  CHECK(p1k == a2a::testing::approx(57.0 * MiB).epsilon(0.5));
  CHECK(p4k == a2a::testing::approx(172.0 * MiB).epsilon(0.5));
  CHECK(p16k == a2a::testing::approx(1366.0 * MiB).epsilon(0.5));
  // Every message of spread_out is in flight at once.
  CHECK(simgrid_bytes("polaris_scaled", 1024, {"spread_out"}) > p1k + GiB);
  // A scenario's configurations run one after another: their messages in flight do not add up,
  // the mailboxes they leave do.
  const std::int64_t spread = simgrid_bytes("polaris_scaled", 1024, {"spread_out"});
  const std::int64_t both =
      simgrid_bytes("polaris_scaled", 1024, {"parlogna:radix=2", "spread_out"});
  CHECK(both > spread);
  CHECK(both - spread < 16 * MiB);
  // Payload mode holds the bytes: 64 ranks x 64 blocks x 1 MiB.
  CHECK(simgrid_bytes("tiny", 64, {"parlogna:radix=2"}, true, "constant:size=1048576") >
        simgrid_bytes("tiny", 64, {"parlogna:radix=2"}) + 4 * GiB);
  // A torus is built over the leading dimensions that hold the nodes used (torus_block_dims):
  // Fugaku's 8-node X ring for one node, its 8 x 8 plane for 64, 8 x 8 x 6 from 65, all 4,608
  // nodes for a job placed anywhere (nodes_built: every node).
  const PlatformSpec fugaku = load_platform("fugaku");
  CHECK(simgrid_platform_bytes(fugaku, 1) < simgrid_platform_bytes(fugaku, 64));
  CHECK(simgrid_platform_bytes(fugaku, 64) < simgrid_platform_bytes(fugaku, 65));
  CHECK(simgrid_platform_bytes(fugaku, 4608) > 2 * simgrid_platform_bytes(fugaku, 2304));
}

TEST_CASE("engines without a memory model estimate nothing") {
  const PlatformSpec platform = load_platform("tiny");
  const SimOptions options;
  const auto workload = make_workload("uniform", 16);
  const std::vector<Planned> configs = planned({"spread_out"}, 16);
  const MemoryEstimate estimate =
      estimate_memory("no_such_engine", {platform, 16, options, *workload, configs});
  CHECK(estimate.bytes == 0);
  CHECK(estimate.what.find("no memory model") != std::string::npos);
}

TEST_CASE("the scale engine's estimate counts the workload's run-sum caches in full") {
  const PlatformSpec platform = load_platform("polaris");
  const SimOptions options;
  const int P = 4096;
  const std::vector<Planned> configs = planned({"parlogna:radix=2"}, P);
  const auto uniform = make_workload("uniform", P);
  const auto constant = make_workload("constant", P);
  REQUIRE(uniform->cache_bytes() > 0);  // residue sums both ways and column sums
  CHECK(constant->cache_bytes() == 0);
  const MemoryEstimate with = estimate_memory("scale", {platform, P, options, *uniform, configs});
  const MemoryEstimate without =
      estimate_memory("scale", {platform, P, options, *constant, configs});
  CHECK(with.bytes - without.bytes == uniform->cache_bytes());
  CHECK(with.what.find("workload's run sums") != std::string::npos);
  CHECK(without.what.find("workload's run sums") == std::string::npos);
}

TEST_CASE("a message in flight costs 128 B a side, with NIC time or without") {
  // With NIC time the posts are matched in time order, so every receive of a linear exchange
  // waits in the table before any send comes; since a waiting post takes 24 B in a table grown
  // by half, that fits in the same 128 B (memory_model.cpp).
  PlatformSpec platform = load_platform("fugaku");
  platform.nic_engines = 1;  // no engine term either way
  const SimOptions options;
  const int P = 1024;
  const std::vector<Planned> configs = planned({"ompi_linear"}, P);
  const auto workload = make_workload("constant", P);
  const MemoryEstimate timed = estimate_memory("scale", {platform, P, options, *workload, configs});
  platform.nic_message_time = 0;
  const MemoryEstimate plain = estimate_memory("scale", {platform, P, options, *workload, configs});
  const std::int64_t messages = std::int64_t{P} * (P - 1) * 2;  // both sides
  CHECK(timed.bytes == plain.bytes);
  CHECK(timed.what.find(std::to_string(messages) + " messages in flight") != std::string::npos);
  CHECK(timed.what.find(" x 128 B + ") != std::string::npos);
  CHECK(plain.what.find(" x 128 B + ") != std::string::npos);
}

TEST_CASE("the scale engine's estimate counts each NIC engine beyond a node's first") {
  // fugaku has a NIC time, so its nodes keep a sending and a receiving calendar per engine.
  PlatformSpec platform = load_platform("fugaku");
  REQUIRE(platform.nic_message_time > 0);
  const SimOptions options;
  const int P = 4096;  // 128 nodes of 32 ranks
  const std::vector<Planned> configs = planned({"parlogna:radix=2"}, P);
  const auto workload = make_workload("constant", P);
  platform.nic_engines = 1;
  const MemoryEstimate one = estimate_memory("scale", {platform, P, options, *workload, configs});
  platform.nic_engines = 6;
  const MemoryEstimate six = estimate_memory("scale", {platform, P, options, *workload, configs});
  CHECK(six.bytes - one.bytes == 128 * 5 * 2 * 96);
  CHECK(six.what.find("+ NIC engines 120.0 KiB") != std::string::npos);
  CHECK(one.what.find("NIC engines") == std::string::npos);
}
