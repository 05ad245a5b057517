#include <doctest/doctest.h>

#include <set>

#include "algorithms/errors.hpp"
#include "algorithms/registry.hpp"

using namespace a2a;

TEST_CASE("the catalog holds every algorithm of docs/algorithms.md exactly once, fully described") {
  const std::set<std::string> expected = {
      "spread_out",          "scattered",          "ompi_linear",
      "ompi_pairwise",       "xor_pairwise",       "vendor",
      "bruck_basic",         "bruck_modified",     "bruck_zero_copy",
      "bruck_zero_rotation", "bruck_radix",        "padded_alltoall",
      "padded_bruck",        "two_phase_bruck",    "parlogna",
      "parlinna_coalesced",  "parlinna_staggered", "hierarchical_bruck",
      "bitonic_inplace"};
  std::set<std::string> names;
  for (const auto& info : catalog()) {
    CAPTURE(info.name);
    CHECK(names.insert(info.name).second);
    CHECK_FALSE(info.description.empty());
    CHECK(info.description.find("PLACEHOLDER") == std::string::npos);
    CHECK_FALSE(info.source.empty());
    CHECK(static_cast<bool>(info.run));
    for (const auto& spec : info.params) {
      CHECK_FALSE(spec.meaning.empty());
      CHECK(spec.min >= 0);
    }
  }
  CHECK(names == expected);
}

TEST_CASE("configure parses specs, fills defaults and names the parameter on errors") {
  Configuration config = configure("parlogna:radix=4", 16, 4);
  CHECK(config.algorithm->name == "parlogna");
  CHECK(config.params.get("radix") == 4);
  CHECK(config.label() == "parlogna radix=4");

  CHECK(configure("parlogna", 16, 4).params.get("radix") == 2);
  CHECK(configure("scattered", 4, 4).params.get("batch") == 32);  // unbounded: not clamped
  CHECK_THROWS_WITH_AS(configure("parlogna:radix=1", 8, 8),
                       doctest::Contains("radix=1 is out of range [2, 8 = P]"), InvalidParameter);
  CHECK_THROWS_WITH_AS(configure("parlogna:radix=9", 8, 8), doctest::Contains("radix=9"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(configure("scattered:batch=0", 8, 8), doctest::Contains("batch=0"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(configure("parlogna:r=2", 8, 8), doctest::Contains("no parameter 'r'"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(configure("parlogna:radix=x", 8, 8), doctest::Contains("not an integer"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(configure("parlogna:radix", 8, 8), doctest::Contains("key=value"),
                       InvalidParameter);
  CHECK_THROWS_WITH_AS(configure("bruk", 8, 8), doctest::Contains("unknown algorithm 'bruk'"),
                       InvalidParameter);
}

TEST_CASE("a switch added later shows in labels and specs only when set") {
  const Configuration plain = configure("parlogna:radix=4", 16, 4);
  CHECK(plain.params.get("barrier") == 0);
  CHECK(plain.spec() == "parlogna:radix=4");
  const Configuration synced = configure("parlogna:radix=4,barrier=1", 16, 4);
  CHECK(synced.label() == "parlogna radix=4 barrier=1");
  CHECK(synced.spec() == "parlogna:radix=4,barrier=1");
  CHECK(configure(synced.spec(), 16, 4).params.get("barrier") == 1);
  CHECK_THROWS_WITH_AS(configure("parlogna:barrier=2", 8, 8),
                       doctest::Contains("barrier=2 is out of range [0, 1]"), InvalidParameter);
}

TEST_CASE("a radix of a one-rank exchange is accepted: the range (2, P) would be empty") {
  CHECK(configure("bruck_radix", 1, 1).params.get("radix") == 2);
  CHECK(configure("parlogna", 2, 1).params.get("radix") == 2);
  CHECK_THROWS_AS(configure("parlogna:radix=3", 2, 1), InvalidParameter);
}

TEST_CASE("expand: explicit lists, all, and unknown names") {
  const AlgorithmInfo& parlogna = find_algorithm("parlogna");
  auto all = expand(parlogna, {{"radix", "all"}}, 7, 7);
  REQUIRE(all.size() == 6);  // radix 2..7
  for (int i = 0; i < 6; ++i)
    CHECK(all[i].params.get("radix") == i + 2);
  auto some = expand(parlogna, {{"radix", "2,5"}}, 7, 7);
  REQUIRE(some.size() == 2);
  CHECK(some[1].params.get("radix") == 5);
  CHECK_THROWS_AS(expand(parlogna, {{"radix", "9"}}, 7, 7), InvalidParameter);
  // Parameters the algorithm lacks are ignored (they may belong to another selected algorithm).
  CHECK(expand(parlogna, {{"batch", "3"}}, 7, 7).size() == 1);
  CHECK_THROWS_AS(expand(find_algorithm("scattered"), {{"batch", "all"}}, 7, 7),
                  InvalidParameter);  // unbounded
}

TEST_CASE("uniform-only algorithms are not applicable to alltoallv") {
  ExchangeShape shape;
  shape.ranks = 8;
  shape.uniform = false;
  auto reason = not_applicable_reason(configure("bruck_basic", 8, 8), shape);
  REQUIRE(reason);
  CHECK(reason->find("uniform only") != std::string::npos);
  shape.uniform = true;
  CHECK_FALSE(not_applicable_reason(configure("bruck_basic", 8, 8), shape));
  CHECK_FALSE(not_applicable_reason(configure("spread_out", 8, 8), shape));
}
