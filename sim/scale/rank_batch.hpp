// Runs a batch of ranks' fibers until each suspends or returns, on several threads when sharing
// batches of its size has been measured to pay (each way tried a few times first; rank_batch.cpp
// says how), or, while the workers sleep on a busy machine, when the batch's expected work (its
// size times the measured time of a resume) pays for waking one. Workers
// wait for the next batch spinning for a while, then asleep: a hand-off to a spinning worker
// costs a cache line, so batches of a few ranks (most of them in a many-rank Bruck round) can be
// shared too. On a machine busy with other work, where spinning hurts, they sleep at once. Rank
// code touches only its own state (run_state.hpp), so ranks of one batch may run in any order and
// on any thread; the event loop reads their posts afterwards in the batch's order, so results do
// not depend on the thread count.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "sim/scale/fibers.hpp"
#include "sim/scale/sharing_choice.hpp"

namespace a2a::sim::scale {

class RankBatch {
 public:
  // threads = 0: one per core.
  RankBatch(RankFibers& fibers, int threads);
  // The threads that a RankBatch given `threads` runs rank code on.
  static int thread_count(int threads);
  ~RankBatch();
  RankBatch(const RankBatch&) = delete;
  RankBatch& operator=(const RankBatch&) = delete;

  // Resumes every rank of `ranks` once. Rethrows the first error a resume threw. After a Ctrl-C
  // (sim/interrupt.hpp) it stops between chunks of ranks, some never resumed: a round of 10^5
  // ranks that each sum long rows takes seconds, and the caller abandons the configuration.
  void resume(const std::vector<int>& ranks);

 private:
  // Whether to share a batch of `ranks`: what the runs of batches of that size measured
  // (sharing_choice.hpp), or the expected work of a resume while workers sleep.
  bool choose_sharing(std::size_t ranks);
  bool worth_sharing(std::size_t ranks) const;
  // Charges the time from the previous batch's start to `now` (the batch and the event loop's work
  // on what its ranks posted) to the way that batch ran.
  void note_cycle(std::chrono::steady_clock::time_point now);
  void share(const std::vector<int>& ranks);
  void work();
  void worker_loop();
  // Until the next batch is published (true) or the batch is being torn down (false): spinning
  // first, then asleep on `start_`.
  bool await_batch(std::size_t seen);
  // After a shared batch: how long the calling thread waited for the workers once its own part was
  // done. Decides whether workers spin between batches.
  void note_lateness(std::chrono::steady_clock::duration waited);

  RankFibers& fibers_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;  // guards error_ and the sleep on start_
  std::condition_variable start_;
  const std::vector<int>* batch_ = nullptr;
  std::atomic<std::size_t> next_{0};
  std::size_t chunk_ = 1;
  double seconds_per_resume_ = 0;           // estimated, from the batches run so far
  std::atomic<std::size_t> generation_{0};  // bumped to publish a batch
  std::atomic<int> busy_{0};                // workers still on the current batch
  std::atomic<int> sleepers_{0};            // workers asleep on start_
  std::atomic<bool> stop_{false};
  std::atomic<bool> spinning_{true};  // workers spin between batches (else they sleep at once)
  double late_share_ = 0;             // of recent shared batches, those whose workers were late
  std::chrono::steady_clock::time_point asleep_since_;  // when spinning_ last went false
  std::exception_ptr error_;

  SharingChoice sharing_;  // which way batches of each size ran faster
  struct Last {
    std::size_t ranks = 0;
    bool shared = false;
    std::chrono::steady_clock::time_point start;
  };
  std::optional<Last> last_;  // the previous batch, until the next one charges its cycle
};

}  // namespace a2a::sim::scale
