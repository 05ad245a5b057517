#include "algorithms/stats.hpp"

#include <algorithm>

namespace a2a {

namespace {
template <typename F>
void each_field(RunStats& a, const RunStats& b, F f) {
  f(a.rounds, b.rounds);
  f(a.messages, b.messages);
  f(a.bytes_sent, b.bytes_sent);
  f(a.meta_messages, b.meta_messages);
  f(a.meta_bytes, b.meta_bytes);
  f(a.copy_bytes, b.copy_bytes);
  f(a.temp_peak, b.temp_peak);
  f(a.staging_peak, b.staging_peak);
}
}  // namespace

void RunStats::max_with(const RunStats& o) {
  each_field(*this, o, [](std::int64_t& x, std::int64_t y) { x = std::max(x, y); });
}

void RunStats::add(const RunStats& o) {
  each_field(*this, o, [](std::int64_t& x, std::int64_t y) { x += y; });
}

}  // namespace a2a
