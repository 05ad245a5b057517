// The order in which the scale engine's solve takes links (sim/scale/link_queue.hpp): the least
// level first, ties by the order added, whether the links were sorted by radix or by comparison
// and whether they were raised since.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/scale/link_queue.hpp"

namespace a2a::sim::scale {

namespace {

// Levels of three kinds: a few values only (many ties, several exponents); spread over many
// magnitudes; or one magnitude, differing in the last two bytes only (where a radix sort's first
// passes decide).
enum class Spread { few, magnitudes, last_bytes };

std::vector<LinkLevel> random_links(std::size_t n, Spread spread, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> few(0, 7);
  std::uniform_real_distribution<double> exponent(-6, 12);
  std::uniform_int_distribution<std::uint64_t> last_bytes(0, 0xFFFF);
  std::vector<LinkLevel> links;
  for (std::uint32_t i = 0; i < n; ++i) {
    double level = 0;
    switch (spread) {
      case Spread::few:
        level = 0.5 * few(random);
        break;
      case Spread::magnitudes:
        level = std::pow(10.0, exponent(random));
        break;
      case Spread::last_bytes:
        level = std::bit_cast<double>(std::bit_cast<std::uint64_t>(1000.0) + last_bytes(random));
        break;
    }
    links.push_back({level, 1000 + 7 * i, i});
  }
  return links;
}

std::vector<LinkLevel> drain(LinkQueue& queue) {
  std::vector<LinkLevel> taken;
  while (!queue.empty()) {
    taken.push_back(queue.top());
    queue.pop();
  }
  return taken;
}

bool same(const LinkLevel& a, const LinkLevel& b) {
  return a.level == b.level && a.link == b.link && a.seq == b.seq;
}

}  // namespace

TEST_CASE("LinkQueue: links come out by level, ties in the order added") {
  for (const std::size_t n : {0u, 1u, 2u, 63u, 64u, 255u, 256u, 5000u}) {
    for (const Spread spread : {Spread::few, Spread::magnitudes, Spread::last_bytes}) {
      CAPTURE(n);
      CAPTURE(static_cast<int>(spread));
      const std::vector<LinkLevel> links = random_links(n, spread, static_cast<std::uint32_t>(n));
      LinkQueue queue;
      queue.clear();
      for (const LinkLevel& link : links)
        queue.add(link);
      queue.sort();
      std::vector<LinkLevel> expected = links;
      std::stable_sort(expected.begin(), expected.end(),
                       [](const LinkLevel& a, const LinkLevel& b) { return a.level < b.level; });
      const std::vector<LinkLevel> taken = drain(queue);
      REQUIRE(taken.size() == expected.size());
      for (std::size_t i = 0; i < taken.size(); ++i)
        CHECK(same(taken[i], expected[i]));
    }
  }
}

TEST_CASE("LinkQueue: a raised link comes out at its new level among the others") {
  // Every third link, when it comes up, is raised once by a factor: it must come out again after
  // every link of a lower level, sorted or raised, as a single sorted list of the final levels
  // would give them.
  for (const std::size_t n : {40u, 3000u}) {
    CAPTURE(n);
    const std::vector<LinkLevel> links =
        random_links(n, n < 100 ? Spread::few : Spread::last_bytes, 11);
    LinkQueue queue;
    queue.clear();
    for (const LinkLevel& link : links)
      queue.add(link);
    queue.sort();
    std::vector<bool> raised(n, false);
    std::vector<LinkLevel> taken;
    while (!queue.empty()) {
      const LinkLevel top = queue.top();
      queue.pop();
      if (top.seq % 3 == 0 && !raised[top.seq]) {
        raised[top.seq] = true;
        queue.raise({top.level * 3 + 1, top.link, top.seq});
        continue;
      }
      taken.push_back(top);
    }
    REQUIRE(taken.size() == n);
    CHECK(std::is_sorted(taken.begin(), taken.end()));
    for (const LinkLevel& link : taken)
      CHECK(raised[link.seq] == (link.seq % 3 == 0));
  }
}

TEST_CASE("LinkQueue: cleared, it holds nothing of the last solve") {
  LinkQueue queue;
  queue.add({1.0, 1, 0});
  queue.add({2.0, 2, 1});
  queue.sort();
  queue.pop();
  queue.raise({5.0, 1, 0});
  queue.clear();
  CHECK(queue.empty());
  queue.add({3.0, 3, 0});
  queue.sort();
  REQUIRE_FALSE(queue.empty());
  CHECK(queue.top().link == 3);
  queue.pop();
  CHECK(queue.empty());
}

}  // namespace a2a::sim::scale
