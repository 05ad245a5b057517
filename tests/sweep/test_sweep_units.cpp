// Unit tests of `a2a sweep`'s pieces (sim/sweep/): grid expansion of a sweep file, and reading and
// writing sweep outputs (quoting, a line cut short by an interrupt, CSV/JSON round trips).
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "algorithms/errors.hpp"
#include "sim/report.hpp"
#include "sim/sweep/sweep_grid.hpp"
#include "sim/sweep/sweep_rows.hpp"

namespace a2a::sim {

namespace {

std::string temporary(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("a2a_sweep_units_" + name)).string();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

RowCells sample_row(const std::string& config, const std::string& workload) {
  RowCells row = {"tiny", "scale", "8", "4", workload, "64", "openmpi", "0.05", "parlogna", config};
  REQUIRE(row.size() == identity_columns().size());
  for (size_t i = row.size(); i < result_columns().size() - 1; ++i)
    row.push_back(csv_number(static_cast<double>(i) * 0.25e-6));  // as the CSV writes numbers
  row.push_back("-");
  return row;
}

}  // namespace

TEST_CASE("a sweep file expands into every combination, the last grid key fastest") {
  const auto points = parse_sweep(
      "platform: tiny\nranks: [8, 16]\nblock_bytes: [064, 1024]\n"
      "workload: [\"uniform:max={S}\", \"constant:size={S}\"]\nalgorithms: [vendor]\n",
      "s.yaml");
  REQUIRE(points.size() == 8);
  CHECK(points[0].scenario.ranks == 8);
  CHECK(points[0].scenario.workload == "uniform:max=64");  // normalized S, every {S} filled in
  CHECK(points[0].block_bytes == "64");
  CHECK(points[1].scenario.workload == "uniform:max=1024");
  CHECK(points[2].scenario.workload == "constant:size=64");
  CHECK(points[4].scenario.ranks == 16);
  CHECK(points[5].where.at("ranks") == "s.yaml:2");
  CHECK(points[5].where.at("block_bytes") == "s.yaml:3");
  CHECK(points[5].where.at("engine") == "s.yaml");  // absent: the file
}

TEST_CASE("sweep file errors name the file, the line and the key") {
  const auto message = [](const std::string& text) {
    try {
      parse_sweep(text, "s.yaml");
    } catch (const InputError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  CHECK(message("platform: tiny\nranks: []\nalgorithms: [vendor]\n") ==
        "s.yaml:2: key 'ranks': empty list");
  CHECK(message("platform: tiny\nranks: [8, x]\nalgorithms: [vendor]\n")
            .starts_with("s.yaml:2: key 'ranks': expected an integer"));
  CHECK(message("platform: tiny\nranks: 8\nblock_bytes: 8\nalgorithms: [vendor]\n")
            .starts_with("s.yaml:3: key 'block_bytes': needs a workload with {S}"));
  CHECK(message("platform: tiny\nranks: 8\nalgorithms: [vendor]\nbogus: 1\n")
            .starts_with("s.yaml:4: key 'bogus': unknown key"));
}

TEST_CASE("sweep outputs: quoted cells, a line cut short, other files refused") {
  const std::string path = temporary("rows.csv");
  const RowCells quoted = sample_row("parlinna_coalesced:ranks_per_node=4,radix=2,batch=8",
                                     "uniform:max=64,seed=\"3\"");
  {
    RowJournal journal(path, {sample_row("vendor", "uniform:max=64")});
    journal.append(quoted);
    CHECK(journal.rows() == 2);
  }
  std::ofstream(path, std::ios::app) << "tiny,scale,8,4,unif";  // an interrupt mid-line
  const auto rows = read_rows(path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1] == quoted);
  CHECK(row_key(rows[0]) != row_key(rows[1]));
  write_text(path, "algorithm,predicted_seconds\nvendor,1\n");
  CHECK_THROWS_WITH_AS(read_rows(path), doctest::Contains("not an a2a sweep output"), InputError);
  std::filesystem::remove(path);
  CHECK(read_rows(path).empty());  // no file yet: nothing written
}

TEST_CASE("an output of another a2a version is refused with one line saying what differs") {
  const std::string path = temporary("old.csv");
  // The columns a2a wrote before `vendor` was a row's identity and run and sweep shared one schema.
  write_text(path,
             "platform,engine,ranks,ranks_per_node,workload,block_bytes,algorithm,config,"
             "predicted_seconds,check\ntiny,scale,8,4,uniform,,vendor,vendor,1e-05,-\n");
  CHECK_THROWS_WITH_AS(read_rows(path),
                       doctest::Contains(":1: written by another version of a2a (no column "
                                         "vendor, tolerance, fastest_rank_seconds"),
                       InputError);
  std::filesystem::remove(path);
}

TEST_CASE("JSON outputs hold numbers as numbers and read back to the same cells") {
  const std::string path = temporary("rows.json");
  RowCells no_block = sample_row("vendor", "powerlaw");
  no_block[5] = "";  // a sweep without block_bytes
  const std::vector<RowCells> rows = {sample_row("parlogna:radix=4", "uniform:max=64"), no_block};
  write_rows(path, "s.yaml", rows);
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"ranks\":8") != std::string::npos);
  CHECK(text.find("\"block_bytes\":null") != std::string::npos);
  CHECK(text.find("\"check\":\"-\"") != std::string::npos);
  CHECK(read_rows(path) == rows);
  std::filesystem::remove(path);
}

TEST_CASE("a row set keeps the first row of each identity, in grid order first") {
  RowSet set;
  CHECK(set.add(sample_row("vendor", "w")));
  CHECK(!set.add(sample_row("vendor", "w")));
  CHECK(set.add(sample_row("parlogna:radix=2", "w")));
  const auto ordered = set.ordered({row_key(sample_row("parlogna:radix=2", "w"))});
  REQUIRE(ordered.size() == 2);
  const size_t config = identity_columns().size() - 1;
  CHECK(ordered[0][config] == "parlogna:radix=2");
  CHECK(ordered[1][config] == "vendor");
}

}  // namespace a2a::sim
