#include "algorithms/temp_pool.hpp"

#include <utility>

namespace a2a {

namespace {

std::unique_ptr<std::byte[]> allocate(Bytes bytes) {
  return std::make_unique_for_overwrite<std::byte[]>(static_cast<std::size_t>(bytes));
}

}  // namespace

TempLease::TempLease(TempLease&& other) noexcept
    : pool_(std::exchange(other.pool_, nullptr)),
      memory_(std::move(other.memory_)),
      capacity_(std::exchange(other.capacity_, 0)) {}

TempLease& TempLease::operator=(TempLease&& other) noexcept {
  if (this != &other) {
    release();
    pool_ = std::exchange(other.pool_, nullptr);
    memory_ = std::move(other.memory_);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

TempLease::~TempLease() {
  release();
}

void TempLease::release() {
  if (pool_ != nullptr && memory_) pool_->take_back(std::move(memory_), capacity_);
  memory_.reset();
  pool_ = nullptr;
  capacity_ = 0;
}

TempLease TempPool::heap(Bytes bytes) {
  return TempLease(nullptr, allocate(bytes), bytes);
}

TempLease TempPool::acquire(Bytes bytes) {
  auto fit = free_.lower_bound(bytes);
  if (fit != free_.end()) {
    const Bytes capacity = fit->first;
    std::unique_ptr<std::byte[]> memory = std::move(fit->second);
    free_.erase(fit);
    return TempLease(this, std::move(memory), capacity);
  }
  // Every free block is too small: growing the largest one keeps the pool from filling with
  // blocks no later request fits in.
  if (!free_.empty()) {
    auto largest = std::prev(free_.end());
    if (held_ - largest->first + bytes <= cap_) {
      held_ -= largest->first;
      free_.erase(largest);
    }
  }
  if (held_ + bytes > cap_) return heap(bytes);
  held_ += bytes;
  return TempLease(this, allocate(bytes), bytes);
}

void TempPool::take_back(std::unique_ptr<std::byte[]> memory, Bytes capacity) {
  free_.emplace(capacity, std::move(memory));
}

}  // namespace a2a
