// An algorithm the engines and models have never heard of (issue 18): registered at start-up, it
// is sized by the memory guards from what it declares — or, declaring nothing, from the P − 1
// upper bound with the reason in the estimate's text — and `a2a model` simulates it and says
// "no model" on its line instead of failing or inventing a figure.
#include <doctest/doctest.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/direct.hpp"
#include "algorithms/registry.hpp"
#include "platforms/platform.hpp"
#include "sim/model/model.hpp"
#include "sim/model/model_command.hpp"
#include "sim/resource_guard.hpp"
#include "sim/simgrid/memory_model.hpp"
#include "workloads/plan.hpp"

using namespace a2a;
using namespace a2a::sim;

namespace {

// One receive and one send at a time, rank by rank: a linear exchange the catalog lacks.
void one_at_a_time(Comm& comm, const Params&) {
  const int P = comm.size();
  const int p = comm.rank();
  direct::copy_self_block(comm);
  for (int i = 1; i < P; ++i) {
    comm.next_round();
    direct::recv_block(comm, (p + i) % P);
    direct::send_block(comm, (p - i + P) % P);
    comm.wait_all();
  }
}

AlgorithmInfo throwaway(const std::string& name) {
  return {.name = name,
          .family = Family::linear,
          .handles = Handles::any,
          .description = "test only: one exchange at a time",
          .source = "tests/sim/guard/test_new_algorithm.cpp",
          .params = {},
          .check = nullptr,
          .run = one_at_a_time,
          .footprint = nullptr};
}

// Registered once for the whole program: one undeclared, one declaring its footprint.
const bool registered = [] {
  register_algorithm(throwaway("throwaway_undeclared"));
  AlgorithmInfo declared = throwaway("throwaway_declared");
  declared.footprint = [](const ExchangeShape& shape, const Params&) {
    return MessageFootprint{.in_flight = 1, .data_peers = shape.ranks - 1, .metadata_peers = 0};
  };
  register_algorithm(declared);
  // The same, with 3 KiB of heap a rank keeps while it waits (as bitonic_inplace declares its
  // runs).
  AlgorithmInfo heap = throwaway("throwaway_heap");
  heap.footprint = [](const ExchangeShape& shape, const Params&) {
    return MessageFootprint{.in_flight = 1,
                            .data_peers = shape.ranks - 1,
                            .metadata_peers = 0,
                            .rank_heap_bytes = 3 * 1024};
  };
  register_algorithm(heap);
  return true;
}();

MemoryEstimate engine_estimate(const std::string& engine, const std::string& spec, int ranks,
                               int threads = 1) {
  const PlatformSpec platform = load_platform("polaris_scaled");
  SimOptions options;
  options.threads = threads;
  const auto workload = make_workload("uniform", ranks);
  const std::vector<Planned> planned = {
      {configure(spec, ranks, 32), LayoutStyle::gaps, std::nullopt}};
  return estimate_memory(engine, {platform, ranks, options, *workload, planned});
}

MemoryEstimate simgrid_estimate(const std::string& spec, int ranks) {
  return engine_estimate("simgrid", spec, ranks);
}

}  // namespace

TEST_CASE("a registered algorithm is found like the catalog's; a taken name is refused") {
  REQUIRE(registered);
  CHECK(find_algorithm("throwaway_undeclared").description == "test only: one exchange at a time");
  CHECK_THROWS_WITH_AS(register_algorithm(throwaway("parlogna")),
                       doctest::Contains("'parlogna' is already in the catalog"), InvalidParameter);
}

TEST_CASE(
    "memory guard: a declared footprint is used, an undeclared one costs P - 1 and is named") {
  const int P = 4096;
  const Configuration undeclared = configure("throwaway_undeclared", P, 32);
  const Configuration declared = configure("throwaway_declared", P, 32);
  CHECK(messages_in_flight(undeclared, P, 32, "openmpi") == P - 1);
  CHECK(messages_in_flight(declared, P, 32, "openmpi") == 1);
  CHECK(distinct_peers(declared, P, 32, "openmpi") == P - 1);

  const MemoryEstimate high = simgrid_estimate("throwaway_undeclared", P);
  const MemoryEstimate low = simgrid_estimate("throwaway_declared", P);
  CHECK(high.bytes > low.bytes);
  CHECK(high.what.find("no message footprint declared by throwaway_undeclared") !=
        std::string::npos);
  CHECK(low.what.find("no message footprint") == std::string::npos);
}

TEST_CASE("both engines charge the heap a rank declares, once a rank, and name it") {
  REQUIRE(registered);
  const int P = 2048;
  const std::int64_t heap = std::int64_t{P} * 3 * 1024;
  for (const std::string engine : {"simgrid", "scale"}) {
    CAPTURE(engine);
    const MemoryEstimate with = engine_estimate(engine, "throwaway_heap", P);
    const MemoryEstimate without = engine_estimate(engine, "throwaway_declared", P);
    CHECK(with.bytes - without.bytes == heap);
    CHECK(with.what.find(" + 2048 ranks x 3.0 KiB of bookkeeping (throwaway_heap)") !=
          std::string::npos);
    CHECK(without.what.find("bookkeeping") == std::string::npos);
    CHECK(with.what.find("arenas") == std::string::npos);
  }
  // The scale engine runs rank code on its threads, each allocating in a malloc arena of its own:
  // a quarter of the heap more for each thread beyond the first (sim/scale/memory_model.cpp).
  const MemoryEstimate two = engine_estimate("scale", "throwaway_heap", P, 2);
  const MemoryEstimate one = engine_estimate("scale", "throwaway_heap", P, 1);
  CHECK(two.bytes - one.bytes == heap / 4);
  CHECK(two.what.find(" + 2 threads' arenas 1.5 MiB") != std::string::npos);
  CHECK(engine_estimate("scale", "throwaway_declared", P, 2).bytes ==
        engine_estimate("scale", "throwaway_declared", P, 1).bytes);
  CHECK(engine_estimate("simgrid", "throwaway_heap", P, 2).bytes ==
        engine_estimate("simgrid", "throwaway_heap", P, 1).bytes);
}

TEST_CASE("a2a model: the new algorithm is simulated and its line says no model") {
  CHECK_FALSE(model::has_model(find_algorithm("throwaway_declared")));
  CHECK(model::has_model(find_algorithm("parlogna")));

  ModelOptions options;
  options.sets = {"ranks=4", "algorithms=[throwaway_declared, parlogna]"};
  std::ostringstream captured;
  {
    // Restores std::cout even if run_model throws (it must not point at a dead buffer after).
    struct Capture {
      std::streambuf* previous;
      ~Capture() { std::cout.rdbuf(previous); }
    } capture{std::cout.rdbuf(captured.rdbuf())};
    run_model(options);
  }

  const std::string out = captured.str();
  CAPTURE(out);
  const auto line_of = [&](const std::string& name) {
    const size_t start = out.find("\n" + name);
    REQUIRE(start != std::string::npos);
    return out.substr(start + 1, out.find('\n', start + 1) - start - 1);
  };
  const std::string throwaway_line = line_of("throwaway_declared");
  // "no model", then its simulated time, then no ratio or terms. (Tokens, not std::regex: GCC 12
  // warns inside <regex> under the sanitizer build's optimisation, and warnings are errors.)
  std::istringstream tokens(throwaway_line);
  std::vector<std::string> words{std::istream_iterator<std::string>(tokens), {}};
  const auto no = std::find(words.begin(), words.end(), "no");
  REQUIRE(words.end() - no >= 5);
  CHECK(no[1] == "model");
  CHECK(no[2].find_first_not_of("0123456789.") == std::string::npos);
  CHECK((no[3] == "us" || no[3] == "ms" || no[3] == "s"));
  CHECK(no[4] == "-");
  CHECK(line_of("parlogna").find("no model") == std::string::npos);
}
