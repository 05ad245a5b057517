// The SimGrid backend of the comm interface (docs/design.md, "Backends"): one instance per
// simulated rank, used from inside that rank's actor.
//
// Model:
//  * a message is a SimGrid communication of its simulated size through a per-(src, dst, kind)
//    mailbox, so matching follows MPI's non-overtaking order per source and tag; the transfer
//    starts when both sides have posted (rendezvous);
//  * ranks of one node share the node's host; their messages take the host's loopback link
//    (intra-node latency and bandwidth);
//  * every message posted (send or receive) costs the platform's per-message CPU overhead;
//  * local copies take bytes / memory-copy bandwidth; a group launch costs the launch overhead;
//  * allreduce_max is a dissemination exchange of 8-byte messages (ceil(log2 P) rounds); barrier
//    is MPICH's SMP-aware one (sim/smp_barrier.hpp);
//  * vendor_alltoallv runs the configured MPI's default choice from the catalog; vendor_alltoall
//    runs a batched linear exchange (throttle 32) between the temporaries.
// Size-only mode (default) carries no bytes and answers block sizes from the lazy workload; payload
// mode carries real bytes and sizes exactly like the MPI backend and is checked byte for byte.
#pragma once

#include <simgrid/s4u.hpp>

#include <deque>
#include <memory>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/exchange.hpp"
#include "sim/simgrid/world.hpp"

namespace a2a::sim {

// What travels through a mailbox.
struct SimMessage {
  Bytes bytes = 0;                   // simulated size of the data
  std::vector<std::byte> data;       // payload mode
  std::vector<std::int64_t> values;  // metadata sizes (payload mode) or an allreduce value
};

class SimComm final : public Comm {
 public:
  SimComm(World& world, int rank);
  ~SimComm() override;

  int rank() const override { return rank_; }
  int size() const override { return world_.ranks; }
  int ranks_per_node() const override { return world_.platform->ranks_per_node; }

  Bytes block_bytes(BlockId block) const override;
  Bytes max_send_block_bytes() const override;
  std::optional<Bytes> uniform_block_bytes() const override;

  Request isend(int peer, Pieces pieces) override;
  Request irecv(int peer, Pieces pieces) override;
  Request isend_sizes(int peer, std::int64_t count, BlockList blocks) override;
  Request irecv_sizes(int peer, std::int64_t count, BlockList blocks) override;
  Request isend_values(int peer, std::span<const std::int64_t> values) override;
  Request irecv_values(int peer, std::span<std::int64_t> out) override;
  void wait(Request request) override;
  void wait_all() override;

  void copy(Moves moves) override;
  int alloc_temp(Bytes bytes) override;
  void free_temp(int buffer) override;

  Bytes allreduce_max(Bytes value) override;
  void barrier() override;
  void vendor_alltoallv() override;
  void vendor_alltoall(int send_temp, int recv_temp, Bytes block) override;

  void group_begin() override;
  void group_end() override {}
  void set_phase(const char* label) override;
  void next_round() override { ++record_.stats.rounds; }

  // Closes the current phase span; call when the algorithm returns.
  void finish_phases();
  int outstanding() const;

 private:
  enum class Kind { data = 0, sizes = 1, collective = 2, values = 3 };
  struct Slot {
    bool busy = false;
    bool receive = false;
    Kind kind = Kind::data;
    int peer = 0;
    simgrid::s4u::CommPtr comm;
    SimMessage* incoming = nullptr;  // set by SimGrid when a receive completes
    Bytes expected = 0;              // bytes (data) or values (sizes) a receive expects
    std::vector<Piece> pieces;       // payload mode: where received bytes go
    std::vector<BlockId> blocks;     // payload mode: blocks a metadata message describes
    std::span<std::int64_t> values;  // where irecv_values puts what arrives
  };

  // `mpi` false: a shared-memory flag (smp_barrier.hpp), which costs no per-message overhead.
  Request post_send(int peer, Kind kind, std::unique_ptr<SimMessage> message, bool mpi = true);
  Request post_receive(int peer, Kind kind, Slot&& slot, bool mpi = true);
  int take_slot();
  void complete(int id);
  void charge_overhead();
  void sleep(double seconds);
  void blocked_on(const std::string& what) { record_.waiting_for = what; }

  World& world_;
  int rank_;
  RankRecord& record_;
  simgrid::s4u::Host* host_;
  // Payload mode: the rank's buffers and the sizes it knows; size-only mode: a ledger of temps.
  std::unique_ptr<PayloadBuffers> buffers_;
  std::unique_ptr<KnownSizes> sizes_;
  TempLedger temps_;
  // A deque: SimGrid writes each receive's message pointer into its slot when it completes, so
  // slots must never move while requests are outstanding.
  std::deque<Slot> slots_;
  std::vector<int> free_slots_;
  PhaseTracker phases_;
};

}  // namespace a2a::sim
