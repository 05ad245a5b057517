// The scale engine's choice of sharing a batch of ranks with its workers or not
// (sim/scale/sharing_choice.hpp), driven by made-up times instead of a clock: both ways tried in
// the order 0, 1, 1, 0, ..., then the faster, the slower rechecked every 31st batch, each size of
// batch on its own, and a change of conditions followed.
#include <doctest/doctest.h>

#include <vector>

#include "sim/scale/sharing_choice.hpp"
#include "tests/approx.hpp"

using a2a::sim::scale::SharingChoice;

namespace {

// Runs `batches` batches of `ranks` through the choice, each taking `alone` or `shared` seconds a
// rank as it was run, and returns the ways chosen.
std::vector<bool> drive(SharingChoice& choice, std::size_t ranks, int batches, double alone,
                        double shared) {
  std::vector<bool> ways;
  for (int i = 0; i < batches; ++i) {
    const bool share = choice.choose(ranks);
    choice.charge(ranks, share, static_cast<double>(ranks) * (share ? shared : alone));
    ways.push_back(share);
  }
  return ways;
}

}  // namespace

TEST_CASE("SharingChoice: each way tried 4 times in the order 0, 1, 1, 0, then the faster") {
  for (const bool shared_faster : {true, false}) {
    CAPTURE(shared_faster);
    SharingChoice choice;
    const std::vector<bool> ways =
        drive(choice, 100, 70, shared_faster ? 2e-6 : 1e-6, shared_faster ? 1e-6 : 2e-6);
    const std::vector<bool> trials(ways.begin(), ways.begin() + 8);
    CHECK(trials == std::vector<bool>{false, true, true, false, false, true, true, false});
    for (int i = 8; i < 70; ++i) {
      CAPTURE(i);
      const bool recheck = i % SharingChoice::kRecheckEvery == 0;  // batches 31 and 62
      CHECK(ways[i] == (recheck ? !shared_faster : shared_faster));
    }
  }
}

TEST_CASE("SharingChoice: sizes in different powers of two are measured apart") {
  SharingChoice choice;
  drive(choice, 100, 8, 2e-6, 1e-6);  // 64-127 ranks: sharing pays
  drive(choice, 3, 8, 1e-6, 2e-6);    // 2-3 ranks: it does not
  CHECK(choice.choose(64));           // the same power of two as 100
  CHECK_FALSE(choice.choose(2));
  CHECK(choice.per_rank(127, true) == a2a::testing::approx(1e-6));
  CHECK(choice.per_rank(3, false) == a2a::testing::approx(1e-6));
}

TEST_CASE("SharingChoice: the first runs keep their smallest, later ones are averaged and capped") {
  SharingChoice choice;
  for (const double seconds : {5e-6, 3e-6, 4e-6, 6e-6})
    choice.charge(1, false, seconds);
  CHECK(choice.per_rank(1, false) == a2a::testing::approx(3e-6));
  // A cycle that waited on a long solve counts as 4 times the estimate only.
  choice.charge(1, false, 1.0);
  CHECK(choice.per_rank(1, false) == a2a::testing::approx(3e-6 + (12e-6 - 3e-6) / 8));
  // Per rank: 10 ranks in 20 us are 2 us a rank.
  choice.charge(10, true, 20e-6);
  CHECK(choice.per_rank(10, true) == a2a::testing::approx(2e-6));
}

TEST_CASE("SharingChoice: when sharing stops paying, the choice follows") {
  SharingChoice choice;
  const std::vector<bool> before = drive(choice, 100, 40, 2e-6, 1e-6);
  CHECK(before.back());
  // Now shared batches take 5 us a rank: their estimate rises (at most 4x a cycle) until calling
  // thread alone is the faster way.
  const std::vector<bool> after = drive(choice, 100, 40, 2e-6, 5e-6);
  int shared_late = 0;
  for (int i = 20; i < 40; ++i)
    shared_late += after[i] ? 1 : 0;
  CHECK(shared_late <= 1);  // at most a recheck
  CHECK(choice.per_rank(100, true) > choice.per_rank(100, false));
}
