#include "sim/scale/fibers.hpp"

#include <sanitizer/asan_interface.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "algorithms/errors.hpp"

namespace ctx = boost::context;

namespace a2a::sim::scale {

namespace {

// Written at the lowest bytes of every stack; a rank that overwrote it overflowed.
constexpr std::uint64_t kCanary = 0xA2A5CA1EDEADBEEFull;
constexpr std::size_t kPage = 4096;
// Where in its first page a rank's stack begins (its canary's place). Stacks are stack_bytes_
// apart, a whole number of pages, so a rank's top lies at this offset in the page that holds the
// next rank's canary: a rank whose frames stay within this many bytes touches one page, the
// canary's and its frames' together, instead of two (at 10^6 ranks each fresh page cost about
// 25 us of page fault in the guest measured, and the stacks were 8 of the run's 11 GiB;
// docs/performance.md, stop 56). A multiple of the cache line: the next rank's canary keeps a
// line of its own.
constexpr std::size_t kStackOffset = kPage - 64;
// Cache lines prefetched around a suspended rank's frame: below it, the context Boost.Context saved
// (registers, return address); above it, the frames the rank returns through.
constexpr int kPrefetchBelow = 4;
constexpr int kPrefetchAbove = 8;

// Stacks are owned by RankFibers' region: the fiber must not free them.
struct RegionStack {
  ctx::stack_context allocate() { return {}; }  // never called: stacks are preallocated
  void deallocate(ctx::stack_context&) noexcept {}
};

}  // namespace

RankFibers::RankFibers(int ranks, std::size_t stack_bytes, std::function<void(int)> body)
    : stack_bytes_((stack_bytes + kPage - 1) / kPage * kPage),
      body_(std::move(body)),
      fibers_(static_cast<std::size_t>(ranks)),
      callers_(static_cast<std::size_t>(ranks)),
      started_(static_cast<std::size_t>(ranks), 0),
      finished_(static_cast<std::size_t>(ranks), 0),
      resume_(static_cast<std::size_t>(ranks)) {
  region_bytes_ = stack_bytes_ * static_cast<std::size_t>(ranks) + kPage;
  // Reserved, not committed: a rank costs only the pages its code touches.
  void* region = mmap(nullptr, region_bytes_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) {
    throw Error("cannot reserve " + std::to_string(region_bytes_ >> 20) + " MiB of rank stacks");
  }
  region_ = static_cast<std::byte*>(region);
  // Under AddressSanitizer: a region may reuse the addresses of an earlier run's stacks, whose
  // shadow can still mark their frames' locals out of scope (fiber switches are not annotated).
  ASAN_UNPOISON_MEMORY_REGION(region_, region_bytes_);
}

RankFibers::~RankFibers() {
  // Suspended fibers unwind their stacks when destroyed; do it while the region still exists.
  fibers_.clear();
  callers_.clear();
  if (region_) munmap(region_, region_bytes_);
}

std::byte* RankFibers::stack_base(int rank) const {
  return region_ + stack_bytes_ * static_cast<std::size_t>(rank) + kStackOffset;
}

void RankFibers::resume(int rank) {
  const auto r = static_cast<std::size_t>(rank);
  if (!started_[r]) {
    started_[r] = 1;
    std::byte* base = stack_base(rank);
    std::memcpy(base, &kCanary, sizeof kCanary);
    ctx::stack_context stack;
    stack.size = stack_bytes_;
    stack.sp = base + stack_bytes_;
    fibers_[r] = ctx::fiber(std::allocator_arg, ctx::preallocated(stack.sp, stack.size, stack),
                            RegionStack{}, [this, rank, r](ctx::fiber&& caller) {
                              callers_[r] = std::move(caller);
                              body_(rank);
                              finished_[r] = 1;
                              return std::move(callers_[r]);
                            });
  }
  fibers_[r] = std::move(fibers_[r]).resume();
  std::uint64_t canary = 0;
  std::memcpy(&canary, stack_base(rank), sizeof canary);
  if (canary != kCanary) {
    throw Error("rank " + std::to_string(rank) + " overflowed its " +
                std::to_string(stack_bytes_ / 1024) + " KiB stack; raise simulation.stack_kib");
  }
}

void RankFibers::suspend(int rank) {
  const auto r = static_cast<std::size_t>(rank);
  resume_[r].suspended_at = static_cast<const std::byte*>(__builtin_frame_address(0));
  callers_[r] = std::move(callers_[r]).resume();
}

void RankFibers::prefetch(int rank) const {
  const auto r = static_cast<std::size_t>(rank);
  __builtin_prefetch(stack_base(rank));
  const Resume& resume = resume_[r];
  for (const void* hint : resume.hints)
    if (hint != nullptr) __builtin_prefetch(hint);
  const std::byte* top = resume.suspended_at;
  if (top == nullptr) return;
  for (int line = -kPrefetchBelow; line < kPrefetchAbove; ++line)
    __builtin_prefetch(top + line * 64);
}

void RankFibers::release_finished_prefix() {
  const int first = released_;
  while (released_ < static_cast<int>(finished_.size()) && finished(released_))
    ++released_;
  if (released_ == first) return;
  // Whole pages from the one with the first rank's canary to the one with the first unfinished
  // rank's, which stays (it holds the last finished rank's top too): a finished rank never runs
  // again, so its canary may go. The pages read back as zeros if touched.
  std::byte* from = region_ + stack_bytes_ * static_cast<std::size_t>(first);
  std::byte* to = region_ + stack_bytes_ * static_cast<std::size_t>(released_);
  madvise(from, static_cast<std::size_t>(to - from), MADV_DONTNEED);
}

}  // namespace a2a::sim::scale
