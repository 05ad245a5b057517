#include "sim/scale/rank_batch.hpp"

#include <algorithm>
#include <chrono>

namespace a2a::sim::scale {

namespace {
// A batch runs on the calling thread unless its expected work (its ranks times the measured time
// per resume) reaches this much: waking the workers, and the event loop then reading posts from
// another core's cache, cost more than cheap ranks' work (two threads on every batch of 64 ranks
// ran parlogna r=128 at P = 16,384 slower than one; docs/performance.md). A resume that sums the
// sizes of a large Bruck message takes tens of microseconds, so a batch of a few such ranks is
// worth sharing.
constexpr double kParallelSeconds = 100e-6;
// Batches this large run on every thread whatever the estimate says.
constexpr std::size_t kParallelBatch = 2048;
// Threads take up to this many consecutive ranks at a time. One at a time, they alternated between
// neighbouring ranks, whose states share cache lines, and every resume paid for the line moving
// between cores: two threads ran a many-round run slower than one. Small batches take smaller
// chunks, so that every thread gets some.
constexpr std::size_t kChunk = 32;
// A batch prefetches the rank this many places ahead of the one it resumes (RankFibers::prefetch).
constexpr std::size_t kPrefetchAhead = 2;
// How fast the estimate of a resume's time follows the latest batch (an exponential average).
constexpr double kEstimateWeight = 1.0 / 8;
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
  for (std::size_t first = next_.fetch_add(chunk_); first < batch.size();
       first = next_.fetch_add(chunk_)) {
    const std::size_t last = std::min(first + chunk_, batch.size());
    for (std::size_t i = first; i < last; ++i) {
      if (i + kPrefetchAhead < last) fibers_.prefetch(batch[i + kPrefetchAhead]);
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
  const auto start = std::chrono::steady_clock::now();
  const bool parallel = worth_sharing(ranks.size());
  if (parallel) {
    share(ranks);
  } else {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (i + kPrefetchAhead < ranks.size()) fibers_.prefetch(ranks[i + kPrefetchAhead]);
      fibers_.resume(ranks[i]);
    }
  }
  if (ranks.empty()) return;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double threads = parallel ? static_cast<double>(workers_.size() + 1) : 1.0;
  const double per_resume = seconds * threads / static_cast<double>(ranks.size());
  seconds_per_resume_ += kEstimateWeight * (per_resume - seconds_per_resume_);
}

bool RankBatch::worth_sharing(std::size_t ranks) const {
  if (workers_.empty() || ranks < 2) return false;
  return ranks >= kParallelBatch ||
         static_cast<double>(ranks) * seconds_per_resume_ >= kParallelSeconds;
}

void RankBatch::share(const std::vector<int>& ranks) {
  const std::size_t threads = workers_.size() + 1;
  {
    std::lock_guard lock(mutex_);
    batch_ = &ranks;
    chunk_ = std::clamp<std::size_t>(ranks.size() / (2 * threads), 1, kChunk);
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
