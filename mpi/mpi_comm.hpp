// The MPI backend: the comm interface over a real MPI communicator (docs/design.md, "Backends").
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/exchange.hpp"
#include "algorithms/stats.hpp"
#include "algorithms/temp_pool.hpp"
#include "mpi/deadline.hpp"

namespace a2a::mpi {

// Default cap of a communicator's temporary-memory pool (A2A_POOL_MAX, a2a-mpi bench --pool-max).
constexpr Bytes kDefaultPoolCap = Bytes{256} << 20;

// A pool cap as written by a user: bytes, or a number with a K, M or G suffix (powers of 1024);
// 0 disables pooling. Throws InvalidParameter naming the text.
Bytes parse_pool_cap(const std::string& text);

// A private duplicate of the caller's communicator, its node layout and its pool of temporary
// memory. Made once and reused for every call (the papers' code split a communicator on every
// call, and allocated its temporaries on every call).
class Context {
 public:
  // ranks_per_node <= 0: detect it from MPI_COMM_TYPE_SHARED (1 when nodes are not filled rank by
  // rank in blocks of equal size, since hierarchical algorithms assume node = rank / Q).
  explicit Context(MPI_Comm parent, int ranks_per_node = 0, Bytes pool_cap = kDefaultPoolCap);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int ranks_per_node() const { return ranks_per_node_; }
  // The communicator's temporaries. Mutable through a const Context: MPI runs one collective at a
  // time per communicator, so one exchange at a time uses it; freed with the Context.
  TempPool& pool() const { return pool_; }

 private:
  mutable TempPool pool_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  int ranks_per_node_ = 1;
};

// One run of one algorithm over one exchange.
class MpiComm final : public Comm {
 public:
  MpiComm(const Context& context, const ExchangeLayout& layout, const void* send, void* recv);
  ~MpiComm() override;

  int rank() const override { return context_.rank(); }
  int size() const override { return context_.size(); }
  int ranks_per_node() const override { return context_.ranks_per_node(); }

  Bytes block_bytes(BlockId block) const override { return sizes_.get(block); }
  Bytes max_send_block_bytes() const override;
  std::optional<Bytes> uniform_block_bytes() const override { return layout_.uniform_block; }

  Request isend(int peer, Pieces pieces) override;
  Request irecv(int peer, Pieces pieces) override;
  Request isend_sizes(int peer, std::int64_t count, BlockList blocks) override;
  Request irecv_sizes(int peer, std::int64_t count, BlockList blocks) override;
  Request isend_values(int peer, std::span<const std::int64_t> values) override;
  Request irecv_values(int peer, std::span<std::int64_t> out) override;
  void wait(Request request) override;
  void wait_all() override;

  void copy(Moves moves) override;
  int alloc_temp(Bytes bytes) override { return buffers_.alloc_temp(bytes); }
  void free_temp(int buffer) override { buffers_.free_temp(buffer); }

  Bytes allreduce_max(Bytes value) override;
  void barrier() override;
  void vendor_alltoallv() override;
  void vendor_alltoall(int send_temp, int recv_temp, Bytes block) override;

  void group_begin() override {}
  void group_end() override {}
  void set_phase(const char*) override {}
  void next_round() override { ++stats_.rounds; }

  const RunStats& stats() const { return stats_; }
  // From now on every wait (and vendor collective) gives up at `deadline` and throws TimedOut
  // naming what it waited for (a2a-mpi --timeout). Default: no deadline, blocking MPI calls.
  void set_deadline(const Deadline& deadline) { deadline_ = deadline; }
  // Requests posted but not yet waited for (a finished algorithm leaves none).
  int outstanding() const;

 private:
  enum class Kind { send, recv, send_sizes, recv_sizes, send_values, recv_values };
  struct Slot {
    Kind kind = Kind::send;
    int peer = 0;
    bool busy = false;
    MPI_Request request = MPI_REQUEST_NULL;
    TempLease staging;  // packed bytes of a non-contiguous message (from the pool)
    Bytes staging_bytes = 0;
    std::vector<Piece> pieces;        // where a received message's bytes go
    std::vector<std::int64_t> sizes;  // a metadata message
    std::vector<BlockId> blocks;      // the blocks a received metadata message describes
  };

  int take_slot(Kind kind, int peer);
  void finish(int id);
  void check_peer(int peer) const;
  void post(void* data, Bytes bytes, int peer, int tag, bool receive, MPI_Request* request);
  void track_staging(Bytes delta);
  std::byte* stage(Slot& slot, Bytes bytes);
  std::string pending_text(int id) const;  // "a receive from rank 3"
  void wait_collective(MPI_Request& request, const char* call);

  const Context& context_;
  const ExchangeLayout& layout_;
  RunStats stats_;
  PayloadBuffers buffers_;
  KnownSizes sizes_;
  std::vector<Slot> slots_;
  std::vector<int> free_slots_;
  Bytes staging_in_use_ = 0;
  Deadline deadline_;
};

}  // namespace a2a::mpi
