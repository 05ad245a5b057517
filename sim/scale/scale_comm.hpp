// The scale engine's backend of the comm interface: one per simulated rank, living on that rank's
// fiber. It never touches another rank: a post advances the rank's own clock by the platform's
// per-message overhead and lands in its outbox; a wait on a request not yet done suspends the
// fiber until the event loop completes it. Size-only: block sizes come from the lazy workload,
// and receives are enumerated only when simulation.check_sizes asks for it (the SimGrid engine
// and MPI check every receive; here they would double the cost of describing messages).
#pragma once

#include "sim/scale/run_state.hpp"

namespace a2a::sim::scale {

// What the pieces or moves of an operation name: their bytes and, weighted by bytes, which blocks
// (an order-free sum of block hashes, so a block split into several pieces counts once).
struct Described {
  Bytes bytes = 0;
  std::uint64_t blocks = 0;
};

// What a suspended rank waits for, in words, for deadlock reports.
std::string describe_wait(const RankState& state);

class ScaleComm final : public Comm {
 public:
  ScaleComm(RunState& run, int rank);

  int rank() const override { return rank_; }
  int size() const override { return run_.ranks; }
  int ranks_per_node() const override { return run_.platform->ranks_per_node; }

  Bytes block_bytes(BlockId block) const override;
  Bytes max_send_block_bytes() const override;
  std::optional<Bytes> uniform_block_bytes() const override;

  Request isend(int peer, Pieces pieces) override;
  Request isend_runs(int peer, BlockRuns runs, Pieces pieces) override;
  Request irecv(int peer, Pieces pieces) override;
  Request isend_sizes(int peer, std::int64_t count, BlockList blocks) override;
  Request irecv_sizes(int peer, std::int64_t count, BlockList blocks) override;
  Request isend_values(int peer, std::span<const std::int64_t> values) override;
  Request irecv_values(int peer, std::span<std::int64_t> out) override;
  void wait(Request request) override;
  void wait_all() override;

  void copy(Moves moves) override;
  void copy_runs(BlockRuns runs, Moves moves) override;
  int alloc_temp(Bytes bytes) override { return temps_.alloc(bytes, record_.stats); }
  void free_temp(int buffer) override { temps_.free(buffer); }

  Bytes allreduce_max(Bytes value) override;
  void barrier() override;
  void vendor_alltoallv() override;
  void vendor_alltoall(int send_temp, int recv_temp, Bytes block) override;

  void group_begin() override { state_.clock += run_.platform->group_launch_overhead; }
  void group_end() override {}
  void set_phase(const char* label) override;
  void next_round() override { ++record_.stats.rounds; }

  // Closes the current phase; call when the algorithm returns.
  void finish_phases();
  int outstanding() const;

 private:
  // `mpi` false: a shared-memory flag (sim/smp_barrier.hpp), which costs no per-message CPU
  // overhead and no matching.
  Request post(Post post, bool mpi = true);
  // A send carrying `values` (copied into the outbox beside it).
  Request post_values(Post message, std::span<const std::int64_t> values);
  // `pieces`: the message has more than one piece (packed at the platform's pack_bandwidth).
  Request send_data(int peer, Bytes bytes, bool pieces);
  void charge_copy(Bytes bytes);
  void spend_copying(double seconds);  // CPU time copying memory: the clock and copy_seconds
  // Bytes of the runs, from the lazy workload's run sums; under check_sizes the runs' bytes and
  // blocks are compared with the pieces' (`what` names the operation in the error).
  // `blocks`, when given, receives the number of blocks the runs name.
  Bytes run_bytes(BlockRuns runs, FunctionRef<Described()> pieces, const char* what,
                  std::int64_t* blocks = nullptr) const;
  std::uint64_t run_blocks(BlockRuns runs) const;
  // Suspends until the request is done (`why` for deadlock reports), then frees it.
  void wait_slot(int id, RankState::Waiting why);
  // Takes a done request's completion time into the rank's clock and frees its slot.
  void finish_slot(int id);
  // Forgets what slot `id` kept beside it in RankState; returns its unpack time (0 if none).
  double take_extras(int id);
  // Where the values a receive gets go, kept beside its slot until it is done.
  void expect_values(Request request, std::span<std::int64_t> out);
  void check_peer(int peer) const;
  bool traced() const { return rank_ < run_.trace_ranks; }

  RunState& run_;
  int rank_;
  RankState& state_;
  RankRecord& record_;
  Bytes element_bytes_;
  PhaseTracker phases_;
  TempLedger temps_;
};

}  // namespace a2a::sim::scale
