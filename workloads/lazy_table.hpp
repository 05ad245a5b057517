// A table of `items` rows of `width` 32-bit numbers, each row filled the first time it is asked
// for, by whichever thread asks: the run-sum caches of the random workloads
// (distance_residue_sums.hpp, column_prefix_sums.hpp), which rank batches read from several
// threads at once. Nothing is allocated before the first request, and a row's pages are touched
// only when it is filled, so a run that never asks pays nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

namespace a2a::workload_rng {

class LazyTable {
 public:
  LazyTable(std::int64_t items, std::int64_t width) : items_(items), width_(width) {}

  // Row `item`, after fill(row) has written it (once, on the first request; a thread asking while
  // another fills it waits: a fill is about P draws, tens of microseconds).
  template <typename Fill>
  const std::uint32_t* row(std::int64_t item, Fill&& fill) const {
    std::call_once(allocated_, [this] {
      numbers_ = std::make_unique_for_overwrite<std::uint32_t[]>(
          static_cast<std::size_t>(items_ * width_));
      state_ = std::make_unique<std::atomic<std::uint8_t>[]>(static_cast<std::size_t>(items_));
    });
    std::uint32_t* out = numbers_.get() + item * width_;
    std::atomic<std::uint8_t>& state = state_[static_cast<std::size_t>(item)];
    if (state.load(std::memory_order_acquire) != kFilled) {
      std::uint8_t expected = kEmpty;
      if (state.compare_exchange_strong(expected, kFilling, std::memory_order_acq_rel)) {
        fill(out);
        state.store(kFilled, std::memory_order_release);
      } else {
        while (state.load(std::memory_order_acquire) != kFilled)
          std::this_thread::yield();
      }
    }
    return out;
  }

  // Bytes once every row is filled.
  std::int64_t bytes() const { return items_ * width_ * 4; }

 private:
  static constexpr std::uint8_t kEmpty = 0, kFilling = 1, kFilled = 2;
  std::int64_t items_, width_;
  mutable std::once_flag allocated_;
  mutable std::unique_ptr<std::uint32_t[]> numbers_;
  mutable std::unique_ptr<std::atomic<std::uint8_t>[]> state_;
};

}  // namespace a2a::workload_rng
