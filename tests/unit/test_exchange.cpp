#include <doctest/doctest.h>

#include <cstring>

#include "algorithms/errors.hpp"
#include "algorithms/exchange.hpp"
#include "workloads/layout.hpp"

using namespace a2a;

namespace {

ExchangeLayout three_ranks() {
  ExchangeLayout layout;
  layout.extent = 4;
  layout.sendcounts = {1, 0, 2};
  layout.sdispls = {3, 0, 0};
  layout.recvcounts = {2, 1, 0};
  layout.rdispls = {1, 4, 0};
  return layout;
}

}  // namespace

TEST_CASE("validate_layout rejects negative counts, negative displacements, overlaps") {
  ExchangeLayout layout = three_ranks();
  CHECK_NOTHROW(validate_layout(layout, 0));
  layout.sendcounts[1] = -1;
  CHECK_THROWS_WITH_AS(validate_layout(layout, 0), doctest::Contains("sendcounts[1] = -1"),
                       InvalidParameter);
  layout = three_ranks();
  layout.rdispls[2] = -5;
  CHECK_THROWS_WITH_AS(validate_layout(layout, 0), doctest::Contains("rdispls[2]"),
                       InvalidParameter);
  layout = three_ranks();
  layout.rdispls[1] = 2;  // [1,3) and [2,3) overlap
  CHECK_THROWS_WITH_AS(validate_layout(layout, 0), doctest::Contains("overlap"), InvalidParameter);
  layout = three_ranks();
  layout.recvcounts.pop_back();
  CHECK_THROWS_AS(validate_layout(layout, 0), InvalidParameter);
}

TEST_CASE("buffer sizes end at the last block, whatever the order") {
  ExchangeLayout layout = three_ranks();
  CHECK(layout.send_buffer_bytes() == 16);  // block 0 at element 3, 1 element of 4 bytes
  CHECK(layout.recv_buffer_bytes() == 20);  // block 1 at element 4
}

TEST_CASE("KnownSizes: own blocks known, others only after metadata, disagreements caught") {
  ExchangeLayout layout = three_ranks();
  KnownSizes sizes(layout, 1);
  CHECK(sizes.get({1, 0}) == 4);  // sendcounts[0] * extent
  CHECK(sizes.get({1, 1}) == 0);
  CHECK(sizes.get({1, 2}) == 8);
  CHECK(sizes.get({0, 1}) == 8);  // receives recvcounts[0] * extent
  CHECK_THROWS_AS(sizes.get({0, 2}), ContractViolation);
  sizes.learn({0, 2}, 40);
  CHECK(sizes.get({0, 2}) == 40);
  CHECK_NOTHROW(sizes.learn({0, 1}, 8));
  CHECK_THROWS_WITH_AS(sizes.learn({0, 1}, 12), doctest::Contains("counts disagree"),
                       InvalidParameter);
}

TEST_CASE("PayloadBuffers: bounds-checked places, no writes to the send buffer, temp peak") {
  ExchangeLayout layout = three_ranks();
  std::vector<std::byte> send(16), recv(20);
  RunStats stats;
  PayloadBuffers buffers(layout, send.data(), recv.data(), stats);
  CHECK(buffers.readable(Place::send_block(0), 4) == send.data() + 12);
  CHECK_THROWS_AS(buffers.readable(Place::send_block(0), 5), ContractViolation);
  CHECK_THROWS_AS(buffers.readable(Place::send_block(0, 1), 4), ContractViolation);
  CHECK_THROWS_WITH_AS(buffers.writable(Place::send_block(2), 1),
                       doctest::Contains("write the send buffer"), ContractViolation);
  CHECK(buffers.writable(Place::recv_block(1), 4) == recv.data() + 16);
  CHECK_THROWS_AS(buffers.writable(Place::recv_block(3), 0), ContractViolation);

  int a = buffers.alloc_temp(100);
  int b = buffers.alloc_temp(50);
  CHECK(stats.temp_peak == 150);
  buffers.free_temp(a);
  int c = buffers.alloc_temp(120);
  CHECK(stats.temp_peak == 170);
  CHECK(c == a);  // ids are reused
  CHECK_THROWS_AS(buffers.readable(Place::temp(b, 40), 11), ContractViolation);
  buffers.free_temp(b);
  CHECK_THROWS_AS(buffers.readable(Place::temp(b, 0), 1), ContractViolation);
}

TEST_CASE("PayloadBuffers pack, unpack and copy move exactly the described bytes") {
  ExchangeLayout layout = three_ranks();
  std::vector<std::byte> send(16), recv(20, std::byte{0});
  for (size_t i = 0; i < send.size(); ++i)
    send[i] = std::byte(i + 1);
  RunStats stats;
  PayloadBuffers buffers(layout, send.data(), recv.data(), stats);
  std::vector<std::byte> packed;
  const Bytes total = buffers.pack(
      [&](PieceSink out) {
        out({{0, 2}, Place::send_block(2, 4), 4});
        out({{0, 0}, Place::send_block(0), 2});
      },
      packed);
  CHECK(total == 6);
  CHECK(packed == std::vector<std::byte>{std::byte(5), std::byte(6), std::byte(7), std::byte(8),
                                         std::byte(13), std::byte(14)});
  std::vector<Piece> where;
  PayloadBuffers::collect([&](PieceSink out) { out({{2, 0}, Place::recv_block(0, 2), 6}); }, where);
  buffers.unpack(where, packed.data());
  CHECK(std::memcmp(recv.data() + 6, packed.data(), 6) == 0);
  CHECK(recv[5] == std::byte{0});
  CHECK(recv[12] == std::byte{0});
  const Bytes copied = buffers.copy([&](MoveSink out) {
    out({{0, 1}, Place::send_block(0), Place::recv_block(1), 4});
  });
  CHECK(copied == 4);
  CHECK(std::memcmp(recv.data() + 16, send.data() + 12, 4) == 0);
}

// Regression (UBSan, scripts/test-sanitizers.sh): zero-byte pieces of an all-zero exchange come
// with null data; unpack and copy must not pass null to memcpy/memmove.
TEST_CASE("PayloadBuffers unpack and copy zero-byte pieces of empty buffers") {
  ExchangeLayout layout;
  layout.extent = 8;
  layout.sendcounts = layout.recvcounts = {0, 0};
  layout.sdispls = layout.rdispls = {0, 0};
  RunStats stats;
  PayloadBuffers buffers(layout, nullptr, nullptr, stats);
  std::vector<Piece> where;
  PayloadBuffers::collect([&](PieceSink out) { out({{1, 0}, Place::recv_block(1), 0}); }, where);
  buffers.unpack(where, nullptr);
  CHECK(buffers.copy([&](MoveSink out) {
    out({{0, 0}, Place::send_block(0), Place::recv_block(0), 0});
  }) == 0);
}

namespace {
class TinyWorkload : public Workload {
 public:
  TinyWorkload() : Workload(3, 2, "tiny") {}
  std::int64_t count(int src, int dst) const override { return src + 2 * dst; }
};
}  // namespace

TEST_CASE("layouts: gaps layout has gaps and a non-monotonic order, packed has neither") {
  TinyWorkload workload;
  for (int rank = 0; rank < 3; ++rank) {
    ExchangeLayout gaps = make_layout(workload, rank, LayoutStyle::gaps);
    ExchangeLayout packed = make_layout(workload, rank, LayoutStyle::packed);
    CHECK_NOTHROW(validate_layout(gaps, rank));
    std::int64_t packed_total = 0;
    for (int peer = 0; peer < 3; ++peer) {
      CHECK(gaps.sendcounts[peer] == rank + 2 * peer);
      CHECK(gaps.recvcounts[peer] == peer + 2 * rank);
      CHECK(packed.sdispls[peer] == packed_total);
      packed_total += packed.sendcounts[peer];
    }
    CHECK(gaps.send_buffer_bytes() > packed.send_buffer_bytes());
    CHECK_FALSE((gaps.sdispls[0] < gaps.sdispls[1] && gaps.sdispls[1] < gaps.sdispls[2]));
  }
}

TEST_CASE("the checker finds a wrong byte, a touched gap, and names the block") {
  TinyWorkload workload;
  ExchangeLayout layout = make_layout(workload, 1, LayoutStyle::gaps);
  ExchangeBuffers buffers = make_buffers(layout, 1);
  CHECK_FALSE(describe_mismatch(layout, buffers.expected, buffers.recv).empty());  // not received
  std::vector<std::byte> got = buffers.expected;
  CHECK(describe_mismatch(layout, buffers.expected, got).empty());
  got[layout.rdispls[2] * layout.extent + 3] ^= std::byte{1};
  CHECK(describe_mismatch(layout, buffers.expected, got).find("block from rank 2 offset 3") !=
        std::string::npos);
  got = buffers.expected;
  got[0] = std::byte{0};  // the first byte is a gap in the gaps layout
  CHECK(describe_mismatch(layout, buffers.expected, got).find("gap") != std::string::npos);
  // The pattern depends on source, destination and offset.
  CHECK(pattern_byte(1, 2, 0) != pattern_byte(2, 1, 0));
  int differing = 0;
  for (int k = 0; k < 64; ++k)
    differing += pattern_byte(0, 1, k) != pattern_byte(0, 2, k);
  CHECK(differing > 48);
}

// Regression (UBSan, scripts/test-sanitizers.sh): an all-zero exchange has empty buffers, whose
// data() may be null; comparing them must not pass null to memcmp.
TEST_CASE("the checker accepts the empty buffers of an all-zero exchange") {
  ExchangeLayout layout;
  layout.extent = 8;
  layout.sendcounts = layout.recvcounts = {0};
  layout.sdispls = layout.rdispls = {0};
  const std::vector<std::byte> empty;
  CHECK(describe_mismatch(layout, empty, empty).empty());
  CHECK(describe_mismatch(layout, empty, std::vector<std::byte>(1)) ==
        "receive buffer changed size");
}
