// Temporary memory reused across exchanges (issue 17). An exchange's temporaries (the padded
// algorithms' two P·N buffers, Bruck's rotation buffers, staging of packed messages) used to be
// allocated and freed on every call; large blocks go back to the kernel on free, so every call
// page-faulted them in again (about 4–11 µs a page on the project's virtual machines,
// docs/performance.md). A TempPool keeps the memory between calls: grow-only, up to a cap,
// released with its owner (one pool per communicator: mpi/mpi_comm.hpp's Context).
//
// Cap: the pool never holds more than `cap` bytes. A request the pool cannot serve within the cap
// is allocated from the heap and freed when released, exactly as without a pool; cap 0 disables
// pooling. Not thread-safe: one exchange at a time per pool (MPI orders a communicator's
// collectives, and one pool serves one communicator).
#pragma once

#include <cstddef>
#include <map>
#include <memory>

#include "algorithms/comm.hpp"

namespace a2a {

class TempPool;

// Memory of at least the requested size, returned to its pool (or to the heap) when destroyed.
// Not zeroed: reused memory holds an earlier exchange's bytes, and algorithms never read bytes
// they did not write.
class TempLease {
 public:
  TempLease() = default;
  TempLease(TempLease&& other) noexcept;
  TempLease& operator=(TempLease&& other) noexcept;
  ~TempLease();

  std::byte* data() const { return memory_.get(); }
  explicit operator bool() const { return memory_ != nullptr; }

 private:
  friend class TempPool;
  TempLease(TempPool* pool, std::unique_ptr<std::byte[]> memory, Bytes capacity)
      : pool_(pool), memory_(std::move(memory)), capacity_(capacity) {}
  void release();

  TempPool* pool_ = nullptr;  // null: heap memory, freed on release
  std::unique_ptr<std::byte[]> memory_;
  Bytes capacity_ = 0;
};

class TempPool {
 public:
  explicit TempPool(Bytes cap) : cap_(cap) {}
  TempPool(const TempPool&) = delete;
  TempPool& operator=(const TempPool&) = delete;

  // Best fit among the free blocks; else a free block too small is replaced by one of `bytes`, or
  // a new block added, while the pool stays within its cap; else heap memory outside the pool.
  TempLease acquire(Bytes bytes);
  // Without a pool: plain heap memory, freed on release (the simulator's and tests' temporaries).
  static TempLease heap(Bytes bytes);

  Bytes held() const { return held_; }  // bytes the pool owns, leased or free
  Bytes cap() const { return cap_; }

 private:
  friend class TempLease;
  void take_back(std::unique_ptr<std::byte[]> memory, Bytes capacity);

  Bytes cap_;
  Bytes held_ = 0;
  std::multimap<Bytes, std::unique_ptr<std::byte[]>> free_;  // capacity -> block
};

}  // namespace a2a
