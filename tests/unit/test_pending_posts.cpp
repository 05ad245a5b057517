// The scale engine's table of posts waiting to be matched (sim/scale/pending_posts.hpp): how full
// it stays. A linear exchange matched in time order holds its P² - P receives there at once
// (docs/performance.md, stop 62), so the table's load decides much of such a run's peak memory.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "sim/scale/pending_posts.hpp"

namespace a2a::sim::scale {

namespace {

PendingMap empty_table() {
  PendingMap table;
  table.max_load_factor(kPendingLoad);
  return table;
}

}  // namespace

TEST_CASE("a waiting post is 24 bytes beside its 8-byte key") {
  CHECK(sizeof(Pending) == 24);
  CHECK(sizeof(PendingMap::value_type) == 32);
}

TEST_CASE("a waiting post's key gives back its source and destination") {
  for (const int source : {0, 1, 131071, 1048575})
    for (const int destination : {0, 2, 131070, 1048574}) {
      const std::uint64_t key = pending_key(source, destination, Kind::values);
      CHECK(source_of(key) == source);
      CHECK(destination_of(key) == destination);
      CHECK(key != pending_key(source, destination, Kind::data));
    }
}

// Grown by half, a table just grown is 0.875 / 1.5 = 58 % full; doubled, 44 %.
TEST_CASE("the table of waiting posts never falls much below 58 % full as it grows") {
  PendingMap table = empty_table();
  float least = 1;
  constexpr int kRanks = 1024;
  for (int source = 0; source < kRanks; ++source) {
    for (int destination = 0; destination < kRanks; ++destination) {
      if (source == destination) continue;
      table.emplace(pending_key(source, destination, Kind::data), Pending{});
      if (table.size() >= 1000) least = std::min(least, table.load_factor());
    }
  }
  CHECK(least > 0.55f);
  CHECK(least < kPendingLoad);
}

// P = 1,024: 1,047,552 receives sit just under 2^20, so a doubling table needs 2^21 buckets for
// them (half full) where one grown by half needs about 1.5 times fewer.
TEST_CASE("a linear exchange's receives at P = 1,024 fill the table more than half") {
  PendingMap table = empty_table();
  constexpr int kRanks = 1024;
  for (int source = 0; source < kRanks; ++source)
    for (int destination = 0; destination < kRanks; ++destination)
      if (source != destination)
        table.emplace(pending_key(source, destination, Kind::data), Pending{});
  REQUIRE(table.size() == static_cast<std::size_t>(kRanks) * (kRanks - 1));
  CHECK(table.bucket_count() < (std::size_t{1} << 21));
  CHECK(table.load_factor() > 0.55f);
}

}  // namespace a2a::sim::scale
