// The comm interface: the only thing an algorithm in the catalog sees (docs/design.md, "The comm
// interface"). Backends (MPI, SimGrid, the scale engine, the recorder) implement it.
//
// Shape chosen for scale (docs/design.md, "What scale demands"):
//  * A message is described, not materialised: the algorithm passes a callable that enumerates the
//    pieces (block identity, where the bytes live, how many). The backend calls it exactly once,
//    while isend/irecv/copy runs, and never keeps it: MPI packs bytes, a simulator sums sizes.
//  * Blocks are named by identity (source rank, destination rank). Their sizes are looked up
//    through block_bytes(): a rank knows its own send and receive blocks and any block whose
//    size it received in a metadata message. On MPI the sizes are real integers that travel; a
//    simulator may answer from its lazy workload generator instead of storing them.
//  * Payload may be absent. Algorithms never read or write bytes themselves, so they cannot
//    branch on them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "algorithms/function_ref.hpp"

namespace a2a {

using Bytes = std::int64_t;
// Bytes of one metadata integer on the wire: a block size of isend_sizes, a value of isend_values.
inline constexpr Bytes kValueBytes = sizeof(std::int64_t);

// Identity of a data block of the all-to-all: the bytes rank `src` sends to rank `dst`.
struct BlockId {
  int src = 0;
  int dst = 0;
  friend bool operator==(BlockId a, BlockId b) { return a.src == b.src && a.dst == b.dst; }
};

// Where bytes live on this rank.
struct Place {
  enum class Area : std::uint8_t {
    send_block,   // the caller's send block for destination `index` (at its sdispls); read-only
    recv_block,   // the caller's receive block from source `index` (at its rdispls)
    temp,         // temporary buffer `index` obtained from Comm::alloc_temp
    recv_buffer,  // the caller's whole receive buffer, offset from its start (in-place algorithms)
  };
  Area area = Area::temp;
  int index = 0;
  Bytes offset = 0;  // bytes from the start of the block / buffer

  static Place send_block(int dst, Bytes offset = 0) { return {Area::send_block, dst, offset}; }
  static Place recv_block(int src, Bytes offset = 0) { return {Area::recv_block, src, offset}; }
  static Place temp(int buffer, Bytes offset) { return {Area::temp, buffer, offset}; }
  static Place recv_buffer(Bytes offset) { return {Area::recv_buffer, 0, offset}; }
};

// A contiguous run of bytes in a message: part or all of one block.
struct Piece {
  BlockId block;
  Place at;
  Bytes bytes = 0;
};

// A local copy of part or all of one block.
struct Move {
  BlockId block;
  Place from;
  Place to;
  Bytes bytes = 0;
};

// Whole blocks in arithmetic progression, a cheaper description of a message or a copy for
// backends that need only its size: block k (0 <= k < count) is ((first.src + k·src_step) mod P,
// (first.dst + k·dst_step) mod P), each `each` bytes, or its own size when each is kOwnSize.
struct BlockRun {
  static constexpr Bytes kOwnSize = -1;
  BlockId first;
  int src_step = 0;  // in [0, P)
  int dst_step = 0;  // in [0, P)
  std::int64_t count = 0;
  Bytes each = kOwnSize;
};

using PieceSink = FunctionRef<void(const Piece&)>;
using BlockSink = FunctionRef<void(BlockId)>;
using MoveSink = FunctionRef<void(const Move&)>;
// Enumerate a message's pieces in order (sender and receiver must agree on the sizes).
using Pieces = FunctionRef<void(PieceSink)>;
// Enumerate the blocks whose sizes a metadata message carries, in order.
using BlockList = FunctionRef<void(BlockSink)>;
// Enumerate local copies; they are applied in order (memmove semantics within one move).
using Moves = FunctionRef<void(MoveSink)>;
using RunSink = FunctionRef<void(const BlockRun&)>;
// Enumerate the runs of whole blocks that make up a message or a copy, in any order.
using BlockRuns = FunctionRef<void(RunSink)>;

struct Request {
  int id = -1;
};

// Phase labels used by the catalog; results break time down by them.
namespace phase {
inline constexpr const char* setup = "setup";
inline constexpr const char* metadata = "metadata";
inline constexpr const char* data = "data";
inline constexpr const char* copy = "copy";
inline constexpr const char* intra_node = "intra-node";
inline constexpr const char* inter_node = "inter-node";
inline constexpr const char* barrier = "barrier";
}  // namespace phase

class Comm {
 public:
  virtual ~Comm() = default;

  // ---- who and where --------------------------------------------------------------------------
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Ranks per node of the machine layout; ranks are placed node by node (node of r = r / Q).
  virtual int ranks_per_node() const = 0;

  // ---- the exchange ---------------------------------------------------------------------------
  // Size in bytes of a block this rank knows: (rank, d), (s, rank), or one whose size arrived in a
  // metadata message. Asking for any other block is a ContractViolation.
  virtual Bytes block_bytes(BlockId block) const = 0;
  // Largest of this rank's send blocks, in bytes.
  virtual Bytes max_send_block_bytes() const = 0;
  // For uniform exchanges (MPI_Alltoall) the common block size; empty for alltoallv.
  virtual std::optional<Bytes> uniform_block_bytes() const = 0;

  // ---- point to point (non-blocking) ----------------------------------------------------------
  // Buffer rule: a message of two or more pieces is packed when isend is called, so its places may
  // be overwritten (e.g. received into) right away — store-and-forward rounds rely on this. A
  // single contiguous piece may be sent in place: do not write it before waiting on the send.
  // irecv may write its places at any time until the request completes (a single-piece receive
  // lands in place): do not read or send them before waiting on it.
  virtual Request isend(int peer, Pieces pieces) = 0;
  virtual Request irecv(int peer, Pieces pieces) = 0;
  // Metadata: the sizes of the listed blocks, sent as integers; the receiver learns them. `count`
  // is how many blocks the list has. Backends that carry the sizes enumerate the list with
  // list_counted, which checks the count (a ContractViolation if it differs); a simulator that
  // needs only the message's size may skip the enumeration.
  virtual Request isend_sizes(int peer, std::int64_t count, BlockList blocks) = 0;
  virtual Request irecv_sizes(int peer, std::int64_t count, BlockList blocks) = 0;
  // Metadata of the algorithm's own (run descriptors, offsets): small integer arrays, computed from
  // counts, never from payload. isend_values copies `values` at the call; irecv_values fills `out`
  // (which must stay alive) when the request completes, and the sender must send exactly
  // out.size() values.
  virtual Request isend_values(int peer, std::span<const std::int64_t> values) = 0;
  virtual Request irecv_values(int peer, std::span<std::int64_t> out) = 0;
  virtual void wait(Request request) = 0;
  virtual void wait_all() = 0;
  // A send or a copy described twice: piece by piece, and as runs of whole blocks. A backend that
  // needs only sizes (the scale engine) sums the runs — one workload call per run instead of one
  // per block, which is what makes 10^5 ranks affordable; every other backend uses the pieces.
  // Both must name the same blocks and bytes: the scale engine compares their totals under
  // simulation.check_sizes, and the tests run the catalog that way. `pieces` is called once by a
  // backend that uses places and may not be called at all by one that does not.
  virtual Request isend_runs(int peer, BlockRuns /*runs*/, Pieces pieces) {
    return isend(peer, pieces);
  }
  virtual void copy_runs(BlockRuns /*runs*/, Moves moves) { copy(moves); }

  // ---- local ----------------------------------------------------------------------------------
  virtual void copy(Moves moves) = 0;
  // Temporary memory beyond the caller's buffers; every byte is counted in the peak.
  virtual int alloc_temp(Bytes bytes) = 0;
  virtual void free_temp(int buffer) = 0;

  // ---- collective -----------------------------------------------------------------------------
  virtual Bytes allreduce_max(Bytes value) = 0;
  // Returns once every rank has entered it (MPI_Barrier). No catalog algorithm needs one; it
  // models implementations that synchronise anyway (parlogna's `barrier` parameter: the authors'
  // benchmarked code waits at one after every round).
  virtual void barrier() = 0;
  // The backend's own MPI_Alltoallv on the caller's exchange.
  virtual void vendor_alltoallv() = 0;
  // The backend's own uniform MPI_Alltoall of `block` bytes per rank between two temp buffers.
  virtual void vendor_alltoall(int send_temp, int recv_temp, Bytes block) = 0;

  // ---- structure (no effect on results; used for timing breakdowns, traces and the viewer) -----
  virtual void group_begin() = 0;  // a batch of operations launched together (NCCL-like groups)
  virtual void group_end() = 0;
  virtual void set_phase(const char* label) = 0;  // label must have static storage duration
  virtual void next_round() = 0;                  // a new communication round starts
};

// Calls `blocks` with `out`, then throws ContractViolation unless it listed exactly `count` blocks:
// how a backend enumerates the list of isend_sizes / irecv_sizes.
void list_counted(std::int64_t count, BlockList blocks, BlockSink out);

// Owns a temporary buffer for the scope of an algorithm.
class TempBuffer {
 public:
  TempBuffer(Comm& comm, Bytes bytes) : comm_(comm), id_(comm.alloc_temp(bytes)) {}
  ~TempBuffer() { comm_.free_temp(id_); }
  TempBuffer(const TempBuffer&) = delete;
  TempBuffer& operator=(const TempBuffer&) = delete;
  int id() const { return id_; }
  Place at(Bytes offset) const { return Place::temp(id_, offset); }

 private:
  Comm& comm_;
  int id_;
};

// Group begin/end for a scope.
class Group {
 public:
  explicit Group(Comm& comm) : comm_(comm) { comm_.group_begin(); }
  ~Group() { comm_.group_end(); }
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;

 private:
  Comm& comm_;
};

}  // namespace a2a
