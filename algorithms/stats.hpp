// What one rank did during one run of an algorithm; every backend fills it the same way.
#pragma once

#include <cstdint>

namespace a2a {

struct RunStats {
  std::int64_t rounds = 0;         // Comm::next_round calls
  std::int64_t messages = 0;       // data messages sent
  std::int64_t bytes_sent = 0;     // data bytes sent
  std::int64_t meta_messages = 0;  // metadata (size) messages sent
  std::int64_t meta_bytes = 0;     // metadata bytes sent
  std::int64_t copy_bytes = 0;     // bytes moved by local copies
  std::int64_t temp_peak = 0;      // peak bytes of the algorithm's temporary buffers
  std::int64_t staging_peak = 0;   // peak bytes the backend used to pack non-contiguous messages

  // Element-wise maximum (for "the worst rank" summaries).
  void max_with(const RunStats& o);
  // Element-wise sum (for totals over ranks).
  void add(const RunStats& o);
};

}  // namespace a2a
