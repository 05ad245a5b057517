// The scale engine's rank fibers (sim/scale/fibers.hpp) and batches (sim/scale/rank_batch.hpp):
// a rank that overflows its stack is reported by name, finished ranks' stacks go back without
// harm to the others', and a batch resumes every rank exactly once
// per call, in order on one thread, whatever it prefetches ahead, and on two threads whether the
// worker was spinning or asleep when the batch came.
#include <doctest/doctest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "algorithms/errors.hpp"
#include "sim/scale/fibers.hpp"
#include "sim/scale/rank_batch.hpp"

namespace a2a::sim::scale {

namespace {

constexpr std::size_t kStack = 16 * 1024;

// Writes `bytes` of its own stack frame, so that the compiler cannot drop the array.
[[gnu::noinline]] void use_stack(std::size_t bytes) {
  std::vector<char> pattern(bytes, 'x');
  char* frame = static_cast<char*>(__builtin_alloca(bytes));
  std::memcpy(frame, pattern.data(), bytes);
  asm volatile("" : : "r"(frame) : "memory");
}

}  // namespace

TEST_CASE("a rank that overflows its stack is an error naming the rank and simulation.stack_kib") {
  // Rank 1 overflows into the top of rank 0's stack, which never runs: the region stays mapped.
  RankFibers fibers(2, kStack, [](int rank) {
    if (rank == 1) use_stack(kStack + 2048);
  });
  std::string message;
  try {
    fibers.resume(1);
  } catch (const Error& e) {
    message = e.what();
  }
  CHECK(message == "rank 1 overflowed its 16 KiB stack; raise simulation.stack_kib");
}

TEST_CASE("a rank within its stack runs to the end") {
  RankFibers fibers(2, kStack, [](int) { use_stack(kStack / 2); });
  fibers.resume(1);
  fibers.resume(0);
  CHECK(fibers.finished(0));
  CHECK(fibers.finished(1));
}

TEST_CASE("stacks given back by finished ranks leave the next ranks' stacks whole") {
  // Each rank's top shares a page with the next rank's canary (sim/scale/fibers.cpp), so giving
  // back the pages of ranks 0 and 1 must keep the page of rank 2's canary; ranks 2 and 3 then
  // run deep into their stacks, right under each other's canaries, and finish without an error.
  constexpr int kRanks = 4;
  RankFibers* self = nullptr;
  RankFibers fibers(kRanks, kStack, [&](int rank) {
    use_stack(512);
    self->suspend(rank);
    use_stack(kStack - 4096);
  });
  self = &fibers;
  for (int r = 0; r < kRanks; ++r)
    fibers.resume(r);
  fibers.resume(0);
  fibers.resume(1);
  fibers.release_finished_prefix();
  CHECK_NOTHROW(fibers.resume(3));
  CHECK_NOTHROW(fibers.resume(2));
  for (int r = 0; r < kRanks; ++r)
    CHECK(fibers.finished(r));
  fibers.release_finished_prefix();
}

TEST_CASE("a batch resumes each rank once per call, in order on one thread") {
  constexpr int kRanks = 40;
  constexpr int kRounds = 3;
  std::vector<int> order;
  RankFibers* self = nullptr;
  RankFibers fibers(kRanks, kStack, [&](int rank) {
    for (int round = 0; round < kRounds; ++round) {
      order.push_back(rank);
      self->suspend(rank);
    }
  });
  self = &fibers;
  RankBatch batch(fibers, 1);
  std::vector<int> ranks;
  for (int r = kRanks - 1; r >= 0; r -= 3)
    ranks.push_back(r);
  std::vector<int> expected;
  for (int round = 0; round <= kRounds; ++round) {
    batch.resume(ranks);
    if (round < kRounds) expected.insert(expected.end(), ranks.begin(), ranks.end());
  }
  CHECK(order == expected);
  for (const int r : ranks)
    CHECK(fibers.finished(r));
}

TEST_CASE("two threads resume each rank of a batch exactly once, after a spin or a sleep") {
  constexpr int kRanks = 3000;
  constexpr int kRounds = 12;
  // Each resume works a few microseconds. Batches of 3,000 ranks are always shared; the smaller
  // ones on some of their first batches, while RankBatch measures both ways.
  std::vector<int> resumed(kRanks, 0);
  std::vector<std::thread::id> ran_on(kRanks);
  RankFibers* self = nullptr;
  RankFibers fibers(kRanks, kStack, [&](int rank) {
    for (int round = 0; round < kRounds; ++round) {
      ++resumed[static_cast<std::size_t>(rank)];
      ran_on[static_cast<std::size_t>(rank)] = std::this_thread::get_id();
      volatile double spin = 0;
      for (int i = 0; i < 4000; ++i)
        spin = spin + 1.0;
      self->suspend(rank);
    }
  });
  self = &fibers;
  RankBatch batch(fibers, 2);
  bool worker_ran = false;
  // Batch sizes from all ranks down to two, some after a pause long enough for the worker to sleep.
  const std::vector<int> sizes = {kRanks, 2, 3, 5, 64, 2, 700, 2, 9, kRanks, 4, 2};
  for (int round = 0; round < kRounds; ++round) {
    if (round % 3 == 2) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const int size = sizes[static_cast<std::size_t>(round)];
    std::vector<int> ranks;
    for (int r = 0; r < kRanks && static_cast<int>(ranks.size()) < size; r += kRanks / size)
      ranks.push_back(r);
    std::vector<int> expected = resumed;
    for (const int r : ranks)
      ++expected[static_cast<std::size_t>(r)];
    batch.resume(ranks);
    CHECK(resumed == expected);
    for (const int r : ranks)
      worker_ran = worker_ran || ran_on[static_cast<std::size_t>(r)] != std::this_thread::get_id();
  }
  CHECK(worker_ran);
}

}  // namespace a2a::sim::scale
