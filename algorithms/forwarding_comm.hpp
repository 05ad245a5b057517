// A Comm that forwards every call to another Comm: the base of decorators (the recorder of
// sim/recorder, the fault injection of tests/mpi), which override only what they change.
#pragma once

#include "algorithms/comm.hpp"

namespace a2a {

class ForwardingComm : public Comm {
 public:
  explicit ForwardingComm(Comm& inner) : inner_(inner) {}

  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  int ranks_per_node() const override { return inner_.ranks_per_node(); }
  Bytes block_bytes(BlockId block) const override { return inner_.block_bytes(block); }
  Bytes max_send_block_bytes() const override { return inner_.max_send_block_bytes(); }
  std::optional<Bytes> uniform_block_bytes() const override { return inner_.uniform_block_bytes(); }

  // isend_runs and copy_runs keep Comm's defaults, which call this decorator's isend and copy: a
  // decorator sees every message and copy, however the algorithm described it.
  Request isend(int peer, Pieces pieces) override { return inner_.isend(peer, pieces); }
  Request irecv(int peer, Pieces pieces) override { return inner_.irecv(peer, pieces); }
  Request isend_sizes(int peer, std::int64_t count, BlockList blocks) override {
    return inner_.isend_sizes(peer, count, blocks);
  }
  Request irecv_sizes(int peer, std::int64_t count, BlockList blocks) override {
    return inner_.irecv_sizes(peer, count, blocks);
  }
  Request isend_values(int peer, std::span<const std::int64_t> values) override {
    return inner_.isend_values(peer, values);
  }
  Request irecv_values(int peer, std::span<std::int64_t> out) override {
    return inner_.irecv_values(peer, out);
  }
  void wait(Request request) override { inner_.wait(request); }
  void wait_all() override { inner_.wait_all(); }

  void copy(Moves moves) override { inner_.copy(moves); }
  int alloc_temp(Bytes bytes) override { return inner_.alloc_temp(bytes); }
  void free_temp(int buffer) override { inner_.free_temp(buffer); }

  Bytes allreduce_max(Bytes value) override { return inner_.allreduce_max(value); }
  void barrier() override { inner_.barrier(); }
  void vendor_alltoallv() override { inner_.vendor_alltoallv(); }
  void vendor_alltoall(int send_temp, int recv_temp, Bytes block) override {
    inner_.vendor_alltoall(send_temp, recv_temp, block);
  }

  void group_begin() override { inner_.group_begin(); }
  void group_end() override { inner_.group_end(); }
  void set_phase(const char* label) override { inner_.set_phase(label); }
  void next_round() override { inner_.next_round(); }

 protected:
  Comm& inner() const { return inner_; }

 private:
  Comm& inner_;
};

}  // namespace a2a
