#include "sim/scale/rank_batch.hpp"

#include <algorithm>
#include <chrono>

#include "sim/interrupt.hpp"

namespace a2a::sim::scale {

namespace {
// A batch runs on the calling thread unless its expected work (its ranks times the measured time
// per resume) reaches this much: handing ranks to a worker, and the event loop then reading their
// posts from another core's cache, cost more than cheap ranks' work (two threads on every batch of
// 64 ranks ran parlogna r=128 at P = 16,384 slower than one; docs/performance.md). A resume that
// sums the sizes of a large Bruck message takes microseconds, so a batch of two such ranks is
// worth sharing with a spinning worker (a sleeping one has to be woken by the kernel first).
constexpr double kParallelSeconds = 8e-6;
// The same while workers sleep between batches (below): waking one costs a system call.
constexpr double kParallelSecondsAsleep = 100e-6;
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
// How long a worker spins for the next batch before it sleeps: longer than the event loop usually
// takes between two batches, short enough that a run with nothing to share leaves the core idle.
constexpr auto kSpinFor = std::chrono::microseconds(200);
// Spinning pays only while every thread has a core of its own. On a machine busy with other work
// (two busy processes beside a 2-thread run made it 1.6x slower than sleeping workers), a spinning
// worker takes a core from whoever needs it, and a worker the system has descheduled holds up
// the batch. A batch whose workers finish more than kLate after the calling thread (and after
// twice a chunk's expected work) is late; when late batches exceed kLateShare of the recent ones,
// workers sleep between batches, and spinning is tried again kRetryAfter later.
constexpr auto kLate = std::chrono::microseconds(50);
constexpr double kLateShare = 0.25;
constexpr auto kRetryAfter = std::chrono::milliseconds(200);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

int RankBatch::thread_count(int threads) {
  return threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

RankBatch::RankBatch(RankFibers& fibers, int threads) : fibers_(fibers) {
  const int count = thread_count(threads);
  for (int i = 1; i < count; ++i)
    workers_.emplace_back([this] { worker_loop(); });
}

RankBatch::~RankBatch() {
  stop_ = true;
  { std::lock_guard lock(mutex_); }
  start_.notify_all();
  for (std::thread& worker : workers_)
    worker.join();
}

void RankBatch::work() {
  const std::vector<int>& batch = *batch_;
  for (std::size_t first = next_.fetch_add(chunk_); first < batch.size();
       first = next_.fetch_add(chunk_)) {
    if (interrupt_requested()) return;  // the configuration is being abandoned
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

bool RankBatch::await_batch(std::size_t seen) {
  const auto published = [&] { return stop_ || generation_ != seen; };
  const auto give_up = std::chrono::steady_clock::now() + kSpinFor;
  for (int spins = 0; !published(); ++spins) {
    cpu_relax();
    if (!spinning_ || (spins % 256 == 255 && std::chrono::steady_clock::now() > give_up)) {
      // sleepers_ is raised before the last look at generation_, and share() bumps generation_
      // before it reads sleepers_ (both sequentially consistent): either this worker sees the
      // batch, or share() sees it asleep and wakes it, under the mutex.
      std::unique_lock lock(mutex_);
      ++sleepers_;
      start_.wait(lock, published);
      --sleepers_;
    }
  }
  return !stop_;
}

void RankBatch::worker_loop() {
  std::size_t seen = 0;
  while (await_batch(seen)) {
    seen = generation_;
    work();
    --busy_;
  }
}

void RankBatch::resume(const std::vector<int>& ranks) {
  const auto start = std::chrono::steady_clock::now();
  note_cycle(start);
  if (!spinning_ && start - asleep_since_ > kRetryAfter) {
    spinning_ = true;
    late_share_ = 0;
  }
  const bool parallel = choose_sharing(ranks.size());
  if (parallel) {
    share(ranks);
  } else {
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      if (i % kChunk == 0 && interrupt_requested()) return;
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
  if (!workers_.empty() && ranks.size() >= 2 && ranks.size() < kParallelBatch && spinning_)
    last_ = Last{ranks.size(), parallel, start};
}

void RankBatch::note_cycle(std::chrono::steady_clock::time_point now) {
  if (!last_) return;
  sharing_.charge(last_->ranks, last_->shared,
                  std::chrono::duration<double>(now - last_->start).count());
  last_.reset();
}

bool RankBatch::choose_sharing(std::size_t ranks) {
  if (workers_.empty() || ranks < 2) return false;
  if (ranks >= kParallelBatch) return true;
  // Workers asleep (a busy machine): a hand-off costs a wake-up, which the estimate weighs.
  if (!spinning_) return worth_sharing(ranks);
  return sharing_.choose(ranks);
}

bool RankBatch::worth_sharing(std::size_t ranks) const {
  if (workers_.empty() || ranks < 2) return false;
  const double threshold = spinning_ ? kParallelSeconds : kParallelSecondsAsleep;
  return ranks >= kParallelBatch || static_cast<double>(ranks) * seconds_per_resume_ >= threshold;
}

void RankBatch::share(const std::vector<int>& ranks) {
  const std::size_t threads = workers_.size() + 1;
  batch_ = &ranks;
  chunk_ = std::clamp<std::size_t>(ranks.size() / (2 * threads), 1, kChunk);
  next_ = 0;
  busy_ = static_cast<int>(workers_.size());
  ++generation_;  // publishes the batch: the fields above happen before a worker sees it
  if (sleepers_ > 0) {
    { std::lock_guard lock(mutex_); }
    start_.notify_all();
  }
  work();
  const auto mine_done = std::chrono::steady_clock::now();
  // Workers finish their last chunks; one the system has descheduled gets the core back sooner
  // if this thread yields now and then.
  for (int spins = 1; busy_ > 0; ++spins) {
    cpu_relax();
    if (spins % 1024 == 0) std::this_thread::yield();
  }
  batch_ = nullptr;
  note_lateness(std::chrono::steady_clock::now() - mine_done);
  std::lock_guard lock(mutex_);
  if (error_) {
    std::exception_ptr error = error_;
    error_ = nullptr;
    std::rethrow_exception(error);
  }
}

void RankBatch::note_lateness(std::chrono::steady_clock::duration waited) {
  const auto chunk_work =
      std::chrono::duration<double>(2 * seconds_per_resume_ * static_cast<double>(chunk_));
  const bool late = waited > kLate && waited > chunk_work;
  late_share_ += kEstimateWeight * ((late ? 1.0 : 0.0) - late_share_);
  if (spinning_ && late_share_ > kLateShare) {
    spinning_ = false;
    asleep_since_ = std::chrono::steady_clock::now();
  }
}

}  // namespace a2a::sim::scale
