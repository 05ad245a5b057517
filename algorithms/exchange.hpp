// The exchange description (docs/design.md, "The exchange description") and the byte-level
// machinery every payload-carrying backend shares: resolving a Place to memory with bounds checks,
// temporary buffers with peak accounting, and the table of block sizes a rank knows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/stats.hpp"
#include "algorithms/temp_pool.hpp"

namespace a2a {

// One rank's view of an alltoallv: counts and displacements in elements, 64-bit, and the extent
// (bytes per element). A uniform exchange (MPI_Alltoall) has equal counts and uniform_block set.
struct ExchangeLayout {
  std::vector<std::int64_t> sendcounts, sdispls, recvcounts, rdispls;
  std::int64_t extent = 1;
  std::optional<Bytes> uniform_block;  // bytes per block when the exchange is uniform

  int ranks() const { return static_cast<int>(sendcounts.size()); }
  Bytes send_bytes(int dst) const { return sendcounts[dst] * extent; }
  Bytes recv_bytes(int src) const { return recvcounts[src] * extent; }
  // Bytes from the start of the buffer to the end of its last block.
  Bytes send_buffer_bytes() const;
  Bytes recv_buffer_bytes() const;
};

// Throws InvalidParameter if counts or displacements are negative, arrays disagree in length, or
// blocks of one buffer overlap.
void validate_layout(const ExchangeLayout& layout, int rank);

// The sizes of blocks this rank knows (Comm::block_bytes).
class KnownSizes {
 public:
  KnownSizes(const ExchangeLayout& layout, int rank) : layout_(layout), rank_(rank) {}
  Bytes get(BlockId block) const;
  void learn(BlockId block, Bytes bytes);

 private:
  static std::uint64_t key(BlockId b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(b.src)) << 32) |
           static_cast<std::uint32_t>(b.dst);
  }
  const ExchangeLayout& layout_;
  int rank_;
  std::unordered_map<std::uint64_t, Bytes> learned_;
};

// Caller's buffers plus the algorithm's temporaries, addressed by Place. Temporaries come from
// `pool` when given (reused across exchanges), else from the heap; either way temp_peak counts the
// bytes the algorithm asked for, not what the pool holds.
class PayloadBuffers {
 public:
  PayloadBuffers(const ExchangeLayout& layout, const std::byte* send, std::byte* recv,
                 RunStats& stats, TempPool* pool = nullptr);

  const std::byte* send_buffer() const { return send_; }
  std::byte* recv_buffer() const { return recv_; }

  const std::byte* readable(Place place, Bytes bytes) const;
  // Throws ContractViolation for the send buffer: algorithms never write it.
  std::byte* writable(Place place, Bytes bytes);

  int alloc_temp(Bytes bytes);
  void free_temp(int buffer);
  Bytes temp_bytes(int buffer) const;

  // Pack the pieces of a message into `out` (resized); returns the total.
  Bytes pack(Pieces pieces, std::vector<std::byte>& out) const;
  // Record where a received message's bytes go; returns the total.
  static Bytes collect(Pieces pieces, std::vector<Piece>& out);
  void unpack(const std::vector<Piece>& pieces, const std::byte* data);
  // Apply local copies in order; returns bytes copied.
  Bytes copy(Moves moves);

 private:
  Bytes area_bytes(Place place) const;
  std::byte* address(Place place, Bytes bytes) const;

  const ExchangeLayout& layout_;
  const std::byte* send_;
  std::byte* recv_;
  RunStats& stats_;
  TempPool* pool_;
  std::vector<TempLease> temps_;
  std::vector<Bytes> temp_sizes_;
  std::vector<int> free_ids_;
  Bytes temp_in_use_ = 0;
};

}  // namespace a2a
