// The scale engine's table of posts waiting to be matched (sim/scale/scale_engine.cpp): a send
// whose receive is not posted yet, or a receive whose message has not come. Apart from the engine
// so that a unit test can hold the table to the memory it was measured to take.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <ratio>
#include <utility>

#include <tsl/robin_map.h>

#include "sim/scale/run_state.hpp"
#include "workloads/counter_rng.hpp"

namespace a2a::sim::scale {

// A posted message or receive still waiting for its other side. An eager send is already in
// flight (or has arrived) as transfer `ref`; a send that waits for its receive keeps its values'
// id (ValueLists) in `ref`. 24 bytes, so a table bucket is 40 (it was 64 with a whole Side): a
// linear exchange matched in time order holds its P² - P receives here at once. The posting
// rank is not kept: the key names it (the source of a send, the destination of a receive).
struct Pending {
  static constexpr std::uint32_t kMaxSlot = (1u << 29) - 1;
  double at = 0;
  Bytes size = -1;
  std::uint32_t slot : 29 = 0;
  bool receive : 1 = false;
  bool packed : 1 = false;
  bool eager : 1 = false;
  std::uint32_t ref = Post::kNoValues;
};
static_assert(sizeof(Pending) == 24);

// A waiting post's key: its message's source, destination and kind. Posts of one key are matched
// first posted, first matched (MPI's non-overtaking rule).
inline std::uint64_t pending_key(int src, int dst, Kind kind) {
  return (static_cast<std::uint64_t>(src) << 34) | (static_cast<std::uint64_t>(dst) << 2) |
         static_cast<std::uint64_t>(kind);
}
inline int source_of(std::uint64_t key) {
  return static_cast<int>(key >> 34);
}
inline int destination_of(std::uint64_t key) {
  return static_cast<int>((key >> 2) & 0xFFFFFFFF);
}

// The keys, mixed so that an open-addressing table's low bits see every field (std::hash is the
// identity). The table is open addressing because its lookups were cache misses on every node of
// std::unordered_map: 8 % of a run at P = 262,144 (docs/performance.md, stop 28).
struct KeyHash {
  std::size_t operator()(std::uint64_t key) const { return workload_rng::mix64(key); }
};
// It grows by half, not by doubling (a modulo instead of a mask, no slower in stop 62's runs): a
// linear exchange's P² - P waiting receives are just under a power of two when P is one, so a
// doubled table held them at half load (fugaku, ompi_linear, P = 2,048: 1,016 MiB peak, 899
// grown by half; docs/performance.md, stop 62). tests/unit/test_pending_posts.cpp holds it to that.
using PendingMap = tsl::robin_map<std::uint64_t, Pending, KeyHash, std::equal_to<std::uint64_t>,
                                  std::allocator<std::pair<std::uint64_t, Pending>>, false,
                                  tsl::rh::mod_growth_policy<std::ratio<3, 2>>>;
constexpr float kPendingLoad = 0.875f;

}  // namespace a2a::sim::scale
