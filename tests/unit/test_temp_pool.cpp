// TempPool (algorithms/temp_pool.hpp): memory reused across exchanges, grow-only within its cap,
// heap memory beyond it; PayloadBuffers' peak accounting unchanged by the pool.
#include <doctest/doctest.h>

#include "algorithms/exchange.hpp"
#include "algorithms/temp_pool.hpp"

namespace a2a {

TEST_CASE("TempPool reuses a released block for a request it fits") {
  TempPool pool(1 << 20);
  std::byte* first = nullptr;
  {
    TempLease lease = pool.acquire(4096);
    first = lease.data();
  }
  TempLease again = pool.acquire(1000);  // best fit: the 4096-byte block
  CHECK(again.data() == first);
  CHECK(pool.held() == 4096);
}

TEST_CASE("TempPool grows by replacing a free block too small, and holds blocks in use apart") {
  TempPool pool(10000);
  { TempLease small = pool.acquire(1000); }
  TempLease big = pool.acquire(6000);  // replaces the 1000-byte block
  CHECK(pool.held() == 6000);
  TempLease other = pool.acquire(4000);  // the only block is leased: a new one, within the cap
  CHECK(pool.held() == 10000);
  CHECK(other.data() != big.data());
}

TEST_CASE("TempPool serves requests beyond its cap from the heap, and cap 0 never pools") {
  TempPool pool(5000);
  TempLease kept = pool.acquire(4000);
  TempLease beyond = pool.acquire(2000);  // 6000 > cap: heap memory, freed on release
  CHECK(beyond.data() != nullptr);
  CHECK(pool.held() == 4000);
  TempPool none(0);
  { TempLease lease = none.acquire(100); }
  CHECK(none.held() == 0);
}

TEST_CASE("PayloadBuffers counts the bytes asked for, not the pooled block's size") {
  ExchangeLayout layout;
  layout.sendcounts = layout.recvcounts = {0};
  layout.sdispls = layout.rdispls = {0};
  RunStats stats;
  TempPool pool(1 << 20);
  { TempLease warm = pool.acquire(8192); }
  PayloadBuffers buffers(layout, nullptr, nullptr, stats, &pool);
  const int temp = buffers.alloc_temp(100);
  CHECK(buffers.temp_bytes(temp) == 100);
  CHECK(stats.temp_peak == 100);
  buffers.free_temp(temp);
  CHECK(pool.held() == 8192);
}

}  // namespace a2a
