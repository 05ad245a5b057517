// Turning a workload into one rank's concrete exchange, and the byte pattern that lets a checker
// prove every byte arrived where it belongs. Shared by `a2a-mpi verify`/`bench` and the simulator's
// payload mode, so both check exactly the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/exchange.hpp"
#include "workloads/counter_rng.hpp"
#include "workloads/workload.hpp"

namespace a2a {

enum class LayoutStyle {
  // Blocks in a rank-dependent, non-monotonic order with gaps of 1-3 elements between them: catches
  // algorithms that ignore displacements or pack from a running offset.
  gaps,
  // Blocks back to back in rank order (what in-place algorithms require).
  packed,
};
const char* layout_name(LayoutStyle style);

ExchangeLayout make_layout(const Workload& workload, int rank, LayoutStyle style);

// The byte at offset k of block src->dst; depends on all three so a misplaced block is detected.
inline std::uint8_t pattern_byte(int src, int dst, std::int64_t k) {
  const std::uint64_t x = workload_rng::mix64((static_cast<std::uint64_t>(src) << 40) ^
                                              (static_cast<std::uint64_t>(dst) << 20) ^
                                              static_cast<std::uint64_t>(k >> 3));
  return static_cast<std::uint8_t>(x >> (8 * (k & 7)));
}

// Value of every receive-buffer byte outside the blocks (gaps); must survive the exchange.
inline constexpr std::byte kSentinel{0xA5};

struct ExchangeBuffers {
  std::vector<std::byte> send;      // filled with the pattern, sentinel in the gaps
  std::vector<std::byte> recv;      // sentinel everywhere
  std::vector<std::byte> expected;  // what recv must be afterwards, gaps included
};
ExchangeBuffers make_buffers(const ExchangeLayout& layout, int rank);
void reset_receive(ExchangeBuffers& buffers);

// Empty if `got` equals `expected`, else a one-line description of the first difference (which
// block or gap, which offset, expected and found values).
std::string describe_mismatch(const ExchangeLayout& layout, const std::vector<std::byte>& expected,
                              const std::vector<std::byte>& got);

}  // namespace a2a
