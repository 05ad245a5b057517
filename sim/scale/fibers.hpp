// Light execution contexts for 10^5 simulated ranks: every rank runs the catalog's algorithm code
// on its own fiber (Boost.Context), with a small stack carved from one reserved memory region, so a
// rank costs its touched stack pages and nothing else (no thread, no mapping per rank: Linux allows
// only ~65,000 mappings per process).
#pragma once

#include <boost/context/fiber.hpp>

#include <cstddef>
#include <functional>
#include <vector>

namespace a2a::sim::scale {

class RankFibers {
 public:
  // `body(rank)` is what rank `rank` runs; it must catch its own exceptions.
  RankFibers(int ranks, std::size_t stack_bytes, std::function<void(int)> body);
  ~RankFibers();
  RankFibers(const RankFibers&) = delete;
  RankFibers& operator=(const RankFibers&) = delete;

  // Runs `rank` (from its start, or from where it suspended) until it suspends or returns. Ranks
  // may be resumed from any thread, but one rank by one thread at a time. Throws Error if the
  // rank's code overflowed its stack.
  void resume(int rank);
  // Called by rank `rank`'s own code: back to whoever resumed it.
  void suspend(int rank);
  // Starts loading what resuming `rank` touches first (its stack's top, where it suspended, and
  // its bottom, where the overflow canary is) without waiting for it: with 10^4-10^5 ranks every
  // stack is cold when its rank resumes, and a batch that prefetches the next ranks while one runs
  // overlaps those cache and TLB misses instead of paying them one after the other.
  // The two hints given for the rank (hint_resume) are loaded too.
  void prefetch(int rank) const;
  // Starts loading where `rank` suspended and its hints (what prefetch() reads first), for a rank
  // that may be woken soon.
  void prefetch_frame_address(int rank) const {
    __builtin_prefetch(&resume_[static_cast<std::size_t>(rank)]);
  }
  // Names two places (or null) the rank's code reads as soon as it resumes, besides its stack:
  // prefetch() loads them with the stack. The scale engine names the request that woke the rank
  // and the rank's state: at 10^6 ranks both are out of every cache by the time a rank resumes,
  // and the rank's first look at them was 8 % of a run (docs/performance.md, stop 56).
  void hint_resume(int rank, const void* first, const void* second) {
    Resume& r = resume_[static_cast<std::size_t>(rank)];
    r.hints[0] = first;
    r.hints[1] = second;
  }
  bool finished(int rank) const { return finished_[static_cast<std::size_t>(rank)] != 0; }
  // Stack pages of finished ranks go back to the system, for the finished ranks below the first
  // unfinished one, in one madvise: each call flushes every core's TLB, too dear to pay per rank
  // (16,336 calls took 16 % of a P = 16,384 run).
  void release_finished_prefix();

  std::size_t stack_bytes() const { return stack_bytes_; }

 private:
  std::byte* stack_base(int rank) const;

  std::size_t stack_bytes_;
  std::byte* region_ = nullptr;
  std::size_t region_bytes_ = 0;
  std::function<void(int)> body_;
  std::vector<boost::context::fiber> fibers_;   // the rank, while suspended
  std::vector<boost::context::fiber> callers_;  // whoever resumed it, while it runs
  std::vector<char> started_, finished_;
  // Per rank, in one cache line with its neighbours': a frame address inside suspend(), and the
  // hints of hint_resume.
  struct Resume {
    const std::byte* suspended_at = nullptr;
    const void* hints[2] = {nullptr, nullptr};
  };
  std::vector<Resume> resume_;
  int released_ = 0;  // ranks below this one have returned their stacks
};

}  // namespace a2a::sim::scale
