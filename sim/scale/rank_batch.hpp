// Runs a batch of ranks' fibers until each suspends or returns, on several threads when the batch's
// expected work (its size times the measured time of a resume) pays for the hand-off. Rank code
// touches only its own state (run_state.hpp), so ranks of one batch may run in any order and on any
// thread; the event loop reads their posts afterwards in the batch's order, so results do not
// depend on the thread count.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/scale/fibers.hpp"

namespace a2a::sim::scale {

class RankBatch {
 public:
  // threads = 0: one per core.
  RankBatch(RankFibers& fibers, int threads);
  ~RankBatch();
  RankBatch(const RankBatch&) = delete;
  RankBatch& operator=(const RankBatch&) = delete;

  // Resumes every rank of `ranks` once. Rethrows the first error a resume threw.
  void resume(const std::vector<int>& ranks);

 private:
  bool worth_sharing(std::size_t ranks) const;
  void share(const std::vector<int>& ranks);
  void work();
  void worker_loop();

  RankFibers& fibers_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const std::vector<int>* batch_ = nullptr;
  std::atomic<std::size_t> next_{0};
  std::size_t chunk_ = 1;
  double seconds_per_resume_ = 0;  // estimated, from the batches run so far
  std::size_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace a2a::sim::scale
