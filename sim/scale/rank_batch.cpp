#include "sim/scale/rank_batch.hpp"

#include <algorithm>

namespace a2a::sim::scale {

namespace {
// Below this many ranks a batch runs on the calling thread: waking the workers, and the event loop
// then reading posts from another core's cache, cost more than the ranks' work (at 64, two threads
// ran parlogna r=128 at P = 16,384 slower than one; docs/performance.md).
constexpr std::size_t kParallelBatch = 2048;
// Threads take this many consecutive ranks at a time. One at a time, they alternated between
// neighbouring ranks, whose states share cache lines, and every resume paid for the line moving
// between cores: two threads ran a many-round run slower than one.
constexpr std::size_t kChunk = 32;
}  // namespace

RankBatch::RankBatch(RankFibers& fibers, int threads) : fibers_(fibers) {
  const int count = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
  for (int i = 1; i < count; ++i)
    workers_.emplace_back([this] { worker_loop(); });
}

RankBatch::~RankBatch() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& worker : workers_)
    worker.join();
}

void RankBatch::work() {
  const std::vector<int>& batch = *batch_;
  for (std::size_t first = next_.fetch_add(kChunk); first < batch.size();
       first = next_.fetch_add(kChunk)) {
    const std::size_t last = std::min(first + kChunk, batch.size());
    for (std::size_t i = first; i < last; ++i) {
      try {
        fibers_.resume(batch[i]);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
}

void RankBatch::worker_loop() {
  std::size_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work();
    {
      std::lock_guard lock(mutex_);
      --busy_;
    }
    done_.notify_one();
  }
}

void RankBatch::resume(const std::vector<int>& ranks) {
  if (workers_.empty() || ranks.size() < kParallelBatch) {
    for (const int r : ranks)
      fibers_.resume(r);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    batch_ = &ranks;
    next_ = 0;
    busy_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  start_.notify_all();
  work();
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  batch_ = nullptr;
  if (error_) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

}  // namespace a2a::sim::scale
