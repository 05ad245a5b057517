// Single-block messages between the caller's buffers: the building blocks of the linear
// algorithms (and of ParLinNa's staggered inter-node phase).
#pragma once

#include "algorithms/comm.hpp"

namespace a2a::direct {

// Send this rank's block for `dst` straight from the send buffer.
inline Request send_block(Comm& comm, int dst) {
  const BlockId block{comm.rank(), dst};
  const Bytes bytes = comm.block_bytes(block);
  return comm.isend(dst, [&](PieceSink out) { out({block, Place::send_block(dst), bytes}); });
}

// Receive the block from `src` straight into its receive block.
inline Request recv_block(Comm& comm, int src) {
  const BlockId block{src, comm.rank()};
  const Bytes bytes = comm.block_bytes(block);
  return comm.irecv(src, [&](PieceSink out) { out({block, Place::recv_block(src), bytes}); });
}

// The block a rank sends to itself never travels: a local copy.
inline void copy_self_block(Comm& comm) {
  const int p = comm.rank();
  const BlockId block{p, p};
  const Bytes bytes = comm.block_bytes(block);
  comm.copy([&](MoveSink out) { out({block, Place::send_block(p), Place::recv_block(p), bytes}); });
}

}  // namespace a2a::direct
