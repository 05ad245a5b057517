// Padding a non-uniform exchange into a uniform one (Fan et al., HPDC 2022, §3.1 and §4.1), shared
// by padded_bruck and padded_alltoall: every rank learns N, the largest block anywhere (one
// allreduce of its own largest send block), copies each of its send blocks into an N-byte slot of
// a P·N temporary S' (slot d for destination d), a uniform all-to-all of N-byte blocks fills
// another P·N temporary R' (slot s from source s), and each block's real size is copied out of R'
// into the receive buffer. The padding bytes travel but are never copied into a receive block.
// The rank's own block is copied straight from its send block to its receive block: padding it
// would cost two copies of P·N's slot p for nothing (on 2 ranks, half of all the copying). Slot p
// of S' is left unwritten; the uniform exchange carries it like any slot, and unpad skips it.
#pragma once

#include <string>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"

namespace a2a::padding {

class PaddedBlocks {
 public:
  // Finds N and fills S'.
  explicit PaddedBlocks(Comm& comm)
      : comm_(comm),
        block_(global_max_block(comm)),
        send_(comm, comm.size() * block_),
        recv_(comm, comm.size() * block_) {
    const int p = comm.rank();
    comm.set_phase(phase::copy);
    const int P = comm.size();
    comm.copy_runs(
        [&](RunSink out) {
          out({{p, p}, 0, 0, 1});
          out({{p, (p + 1) % P}, 0, 1 % P, P - 1});
        },
        [&](MoveSink out) {
          out({{p, p}, Place::send_block(p), Place::recv_block(p), comm.block_bytes({p, p})});
          for (int d = 0; d < P; ++d) {
            if (d != p) out({{p, d}, Place::send_block(d), send(d), comm.block_bytes({p, d})});
          }
        });
  }

  Bytes block() const { return block_; }
  int send_temp() const { return send_.id(); }
  int recv_temp() const { return recv_.id(); }
  Place send(int dst) const { return send_.at(dst * block_); }  // slot of S'
  Place recv(int src) const { return recv_.at(src * block_); }  // slot of R'

  // Copies every block's real bytes from R' into the caller's receive blocks.
  void unpad() {
    const int p = comm_.rank();
    comm_.set_phase(phase::copy);
    comm_.copy_runs(
        [&](RunSink out) {
          out({{(p + 1) % comm_.size(), p}, 1 % comm_.size(), 0, comm_.size() - 1});
        },
        [&](MoveSink out) {
          for (int s = 0; s < comm_.size(); ++s) {
            if (s == p) continue;  // copied straight from the send block at the start
            const Bytes bytes = comm_.block_bytes({s, p});
            // A receive count above every sender's largest block means the ranks' counts disagree.
            if (bytes > block_) {
              throw InvalidParameter("counts disagree: rank " + std::to_string(p) + " expects " +
                                     std::to_string(bytes) + " bytes from rank " +
                                     std::to_string(s) + " but no rank sends a block above " +
                                     std::to_string(block_));
            }
            out({{s, p}, recv(s), Place::recv_block(s), bytes});
          }
        });
  }

 private:
  static Bytes global_max_block(Comm& comm) {
    comm.set_phase(phase::setup);
    return comm.allreduce_max(comm.max_send_block_bytes());
  }

  Comm& comm_;
  Bytes block_;
  TempBuffer send_;
  TempBuffer recv_;
};

}  // namespace a2a::padding
