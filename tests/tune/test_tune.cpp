// Unit tests of `a2a tune`'s pieces (sim/tune/): workload templates, the best configuration per
// cell (failed checks ignored, missing cells kept), midpoint ranges, block sizes, the tuning table
// and the Open MPI / MPICH choices, on hand-made rows whose answers are known.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "algorithms/errors.hpp"
#include "sim/tune/library_rules.hpp"
#include "sim/tune/table_writer.hpp"
#include "sim/tune/tuning_map.hpp"
#include "tests/approx.hpp"

namespace a2a::tune {

namespace {

SweepRow row(int ranks, std::int64_t block, const std::string& config, double seconds,
             const std::string& check = "pass") {
  SweepRow r;
  r.platform = "tiny";
  r.engine = "scale";
  r.ranks = ranks;
  r.ranks_per_node = 2;
  r.workload = "uniform:max=" + std::to_string(block);
  r.block_bytes = block;
  r.vendor = "openmpi";
  r.algorithm = config.substr(0, config.find(':'));
  r.config = config;
  r.predicted_seconds = seconds;
  r.check = check;
  r.where = "test";
  return r;
}

const Cell& cell(const TuningMap& map, int ranks, std::int64_t block) {
  for (const Cell& c : map.cells) {
    if (c.ranks == ranks && c.block == block) return c;
  }
  FAIL("no cell P=" << ranks << " S=" << block);
  return map.cells.front();
}

}  // namespace

TEST_CASE("workload templates: S becomes {S} except in elem and seed") {
  CHECK(workload_template("uniform:max=1024", 1024) == "uniform:max={S}");
  CHECK(workload_template("uniform:max=8,elem=8,seed=8", 8) == "uniform:max={S},elem=8,seed=8");
  CHECK(workload_template("normal:mean=512,stddev=512", 512) == "normal:mean={S},stddev={S}");
  CHECK(workload_template("powerlaw", 64) == "powerlaw");
  CHECK(workload_template("uniform:max=1024", std::nullopt) == "uniform:max=1024");
  CHECK(substitute_block("normal:mean={S},stddev={S}", 96) == "normal:mean=96,stddev=96");
}

TEST_CASE("short configuration labels") {
  CHECK(short_config("parlogna:radix=4") == "parlogna r=4");
  CHECK(short_config("parlinna_coalesced:ranks_per_node=4,radix=2,batch=32") ==
        "parlinna_coalesced q=4 r=2 b=32");
  CHECK(short_config("vendor") == "vendor");
}

TEST_CASE("best per cell: lowest predicted time, failed checks ignored, missing cells kept") {
  const std::vector<SweepRow> rows = {
      row(4, 16, "vendor", 3e-5),
      row(4, 16, "parlogna:radix=2", 1e-5),
      row(4, 16, "parlogna:radix=4", 0.5e-5, "FAIL: rank 1 differs"),  // fastest, but failed
      row(4, 64, "vendor", 2e-5),
      row(4, 64, "spread_out", 2e-5),         // a tie goes to the vendor's own call
      row(16, 16, "parlogna:radix=4", 2e-5),  // no vendor row: no speed-up
      row(16, 64, "vendor", 1e-3, "FAIL: rank 3 differs"),
  };
  const std::vector<TuningMap> maps = build_maps(rows, {});
  REQUIRE(maps.size() == 1);
  const TuningMap& map = maps.front();
  CHECK(map.key.workload == "uniform:max={S}");
  CHECK(map.ranks == std::vector<int>{4, 16});
  REQUIRE(map.blocks.size() == 2);

  const Cell& small = cell(map, 4, 16);
  REQUIRE_FALSE(small.missing());
  CHECK(small.best->config == "parlogna:radix=2");
  CHECK(small.failed == 1);
  CHECK(*small.speedup() == a2a::testing::approx(3.0));
  CHECK(cell(map, 4, 64).best->config == "vendor");
  CHECK_FALSE(cell(map, 16, 16).speedup().has_value());
  CHECK(cell(map, 16, 64).missing());
  CHECK(cell(map, 16, 64).failed == 1);
}

TEST_CASE("runner-up per cell: the next best passing configuration and how far the best leads") {
  const std::vector<SweepRow> rows = {
      row(4, 16, "parlogna:radix=4", 1.1e-5),
      row(4, 16, "parlogna:radix=2", 1e-5),
      row(4, 16, "parlogna:radix=8", 0.5e-5, "FAIL: rank 1 differs"),  // ignored
      row(4, 16, "spread_out", 1.05e-5),
      row(16, 16, "parlogna:radix=2", 2e-5),  // alone: no runner-up
      row(4, 64, "parlogna:radix=2", 2e-5),   // best until spread_out, then the runner-up
      row(4, 64, "spread_out", 1e-5),
  };
  const TuningMap map = build_maps(rows, {}).front();
  const Cell& shared = cell(map, 4, 16);
  CHECK(shared.best->config == "parlogna:radix=2");
  REQUIRE(shared.runner_up != nullptr);
  CHECK(shared.runner_up->config == "spread_out");
  CHECK(*shared.lead() == a2a::testing::approx(1.05));
  REQUIRE(cell(map, 4, 64).runner_up != nullptr);
  CHECK(cell(map, 4, 64).runner_up->config == "parlogna:radix=2");
  CHECK(*cell(map, 4, 64).lead() == a2a::testing::approx(2.0));
  CHECK(cell(map, 16, 16).runner_up == nullptr);
  CHECK_FALSE(cell(map, 16, 16).lead().has_value());
}

TEST_CASE("a configuration listed again: the first row is kept, as a2a sweep --merge does") {
  const std::vector<SweepRow> rows = {row(4, 16, "vendor", 3e-5), row(4, 16, "spread_out", 5e-5),
                                      row(4, 16, "spread_out", 1e-5)};
  const TuningMap map = build_maps(rows, {}).front();
  CHECK(map.cells.front().best->config == "vendor");
  CHECK(map.cells.front().measured.size() == 2);
}

TEST_CASE("groups: one map per machine and workload; filters choose") {
  std::vector<SweepRow> rows = {row(4, 16, "vendor", 1e-5), row(4, 16, "vendor", 2e-5)};
  rows[1].ranks_per_node = 4;
  CHECK(build_maps(rows, {}).size() == 2);
  GroupFilter filter;
  filter.ranks_per_node = 4;
  const std::vector<TuningMap> chosen = build_maps(rows, filter);
  REQUIRE(chosen.size() == 1);
  CHECK(chosen.front().key.ranks_per_node == 4);
  filter.workload = "uniform";  // the family name selects too
  CHECK(build_maps(rows, filter).size() == 1);
  filter.platform = "polaris";
  CHECK_THROWS_AS(build_maps(rows, filter), InputError);
}

TEST_CASE("groups: each MPI library of a sweep (vendor a grid key) is its own map") {
  std::vector<SweepRow> rows = {row(4, 16, "vendor", 1e-5), row(4, 16, "spread_out", 2e-5),
                                row(4, 16, "vendor", 4e-5), row(4, 16, "spread_out", 2e-5)};
  rows[2].vendor = rows[3].vendor = "mpich";
  const std::vector<TuningMap> maps = build_maps(rows, {});
  REQUIRE(maps.size() == 2);
  GroupFilter filter;
  filter.vendor = "mpich";
  const std::vector<TuningMap> mpich = build_maps(rows, filter);
  REQUIRE(mpich.size() == 1);
  CHECK(mpich.front().key.describe().ends_with(", vendor mpich"));
  // Against MPICH's own call (4e-5) spread_out is the best, twice as fast; against Open MPI's
  // (1e-5) the vendor stays.
  CHECK(mpich.front().cells.front().best->config == "spread_out");
  CHECK(*mpich.front().cells.front().speedup() == a2a::testing::approx(2.0));
  filter.vendor = "openmpi";
  CHECK(build_maps(rows, filter).front().cells.front().best->config == "vendor");
}

TEST_CASE("groups: rows simulated at different tolerances are different maps") {
  std::vector<SweepRow> rows = {row(4, 16, "vendor", 1e-5), row(4, 16, "vendor", 1.1e-5)};
  rows[0].tolerance = 0.05;
  rows[1].tolerance = 0.01;
  const std::vector<TuningMap> maps = build_maps(rows, {});
  REQUIRE(maps.size() == 2);
  CHECK(maps[0].key.describe().ends_with(", vendor openmpi, tolerance 0.01"));
  CHECK(maps[1].key.describe().ends_with(", vendor openmpi, tolerance 0.05"));
  GroupFilter filter;
  filter.tolerance = 0.05;
  const std::vector<TuningMap> chosen = build_maps(rows, filter);
  REQUIRE(chosen.size() == 1);
  CHECK(chosen.front().cells.front().best->predicted_seconds == 1e-5);
  filter.tolerance = 0.2;
  CHECK_THROWS_AS(build_maps(rows, filter), InputError);
}

TEST_CASE("geometric midpoints between grid values") {
  CHECK(geometric_bounds({4, 16}) == std::vector<std::int64_t>{8});
  CHECK(geometric_bounds({64, 256, 1024}) == std::vector<std::int64_t>{128, 512});
  CHECK(geometric_bounds({8, 32768}) == std::vector<std::int64_t>{512});
  CHECK(geometric_bounds({0, 16}) == std::vector<std::int64_t>{0});
  CHECK(geometric_bounds({5, 6}) == std::vector<std::int64_t>{5});
  CHECK(geometric_bounds({7}).empty());
}

TEST_CASE("block shapes: the run-time mean block and uniformity") {
  const BlockShape constant = block_shape("constant:size=1024", 16);
  CHECK(constant.mean_bytes == 1024);
  CHECK(constant.uniform);
  const BlockShape random = block_shape("uniform:max=4096", 64);
  CHECK_FALSE(random.uniform);
  CHECK(random.mean_bytes > 1500);
  CHECK(random.mean_bytes < 2600);
  CHECK_THROWS_AS(block_shape("uniform:max=x", 4), InputError);
}

TEST_CASE("tuning table: MPI_Alltoall rows for a uniform workload, ranges at the midpoints") {
  std::vector<SweepRow> rows;
  for (int p : {4, 16}) {
    for (std::int64_t s : {64, 4096}) {
      rows.push_back(row(p, s, "vendor", 1e-4));
      rows.push_back(row(p, s, p == 4 ? "bruck_radix:radix=2" : "spread_out", 5e-5));
    }
  }
  for (SweepRow& r : rows)
    r.workload = "constant:size=" + std::to_string(*r.block_bytes);
  const std::string text = tuning_table_text(build_maps(rows, {}).front(), "test.csv");
  CHECK(text.find("alltoall      1-8     *            bruck_radix:radix=2\n") != std::string::npos);
  CHECK(text.find("alltoall      9-*     *            spread_out\n") != std::string::npos);
}

TEST_CASE("tuning table: a workload whose mean block does not grow with S is refused") {
  std::vector<SweepRow> rows = {row(4, 16, "vendor", 1e-5), row(4, 32, "vendor", 1e-5)};
  for (SweepRow& r : rows)
    r.workload = "constant:size=64";  // S not used: the cells cannot be told apart
  CHECK_THROWS_AS(tuning_table_text(build_maps(rows, {}).front(), "test.csv"), InputError);
}

TEST_CASE("Open MPI: per P the lowest geometric mean over S of its algorithms") {
  const std::vector<SweepRow> rows = {
      row(4, 16, "ompi_linear", 4e-5),       row(4, 65536, "ompi_linear", 3e-4),
      row(4, 16, "ompi_pairwise", 5e-5),     row(4, 65536, "ompi_pairwise", 2.6e-4),
      row(16, 16, "ompi_linear", 9e-5),      row(16, 16, "ompi_pairwise", 7e-5),
      row(16, 16, "parlogna:radix=2", 1e-6),  // not an Open MPI algorithm: never chosen
  };
  const LibraryRules rules = open_mpi_rules(build_maps(rows, {}).front(), "test.csv");
  // linear: sqrt(4e-5 * 3e-4) = 1.10e-4 < pairwise: sqrt(5e-5 * 2.6e-4) = 1.14e-4.
  CHECK(rules.text.find("1           # communicator size 1 to 8: basic_linear\n") !=
        std::string::npos);
  CHECK(rules.text.find("9           # communicator size 9 and up: pairwise\n") !=
        std::string::npos);
  CHECK(rules.text.find("0 1 0 0") != std::string::npos);
  CHECK(rules.text.find("0 2 0 0") != std::string::npos);
  CHECK(rules.text.find("by communicator size only") != std::string::npos);

  const std::vector<SweepRow> none = {row(4, 16, "vendor", 1e-5)};
  CHECK_THROWS_AS(open_mpi_rules(build_maps(none, {}).front(), "test.csv"), InputError);
}

TEST_CASE("MPICH: scattered everywhere, one global throttle") {
  const std::vector<SweepRow> rows = {
      row(4, 16, "scattered:batch=8", 3e-5),
      row(4, 16, "spread_out", 2e-5),
      row(16, 16, "scattered:batch=8", 6e-5),
      row(16, 16, "spread_out", 1.2e-4),
  };
  const LibraryRules rules = mpich_rules(build_maps(rows, {}).front());
  const nlohmann::json doc = nlohmann::json::parse(rules.text);
  CHECK(doc["collective=alltoallv"]["comm_type=intra"]["is_sendbuf_inplace=no"].contains(
      "algorithm=MPIR_Alltoallv_intra_scattered"));
  // batch 8: sqrt(3e-5 * 6e-5) = 4.2e-5 < spread_out (throttle 0): sqrt(2e-5 * 1.2e-4) = 4.9e-5.
  bool throttle_noted = false;
  for (const std::string& note : rules.notes)
    throttle_noted =
        throttle_noted || note.find("MPIR_CVAR_ALLTOALL_THROTTLE=8") != std::string::npos;
  CHECK(throttle_noted);
}

}  // namespace a2a::tune
