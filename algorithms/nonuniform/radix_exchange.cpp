// The two-phase radix-r exchange shared by two_phase_bruck, parlogna and ParLinNa; see
// radix_exchange.hpp.
#include "algorithms/nonuniform/radix_exchange.hpp"

#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"

namespace a2a::radix {

namespace {

using bruck::Orientation;

// One round seen from one rank: whom it sends to and receives from, and the blocks of either
// message with the place each one is read from / written to. Blocks are named by group-local
// ranks; the layout turns a (local source, local destination, member) into a real block.
class RoundMessages {
 public:
  RoundMessages(const RankGroup& group, int radix, const ColumnLayout& columns, const Round& round)
      : group_(group),
        radix_(radix),
        columns_(columns),
        members_(columns.members()),
        round_(round) {}

  int send_peer() const { return group_.rank_of(local_send_peer()); }
  int recv_peer() const { return group_.rank_of(local_recv_peer()); }

  // Blocks either message carries: the round's distances times the blocks per column.
  std::int64_t blocks() const {
    return bruck::blocks_in_round(group_.size, round_, radix_) * members_;
  }

  // visit(block, place) for every block this rank sends: the columns it holds whose digit x is z.
  template <typename Visit>
  void outgoing(Visit&& visit) const {
    const int holder = group_.local;
    bruck::for_each_index(group_.size, round_, radix_, [&](int o) {
      const bool unmoved = !bruck::has_moved(o, round_.place);
      for_each_member(holder, o, [&](BlockId block, int m) {
        visit(block, unmoved ? columns_.unmoved(block, o, m) : columns_.in_transit(o, m));
      });
    });
  }

  // The same blocks as runs (BlockRun), for size-only backends: whole rounds of one-member columns
  // over the communicator (bruck::for_each_run), else one run per column.
  void outgoing_runs(RunSink out) const {
    if (members_ == 1 && group_.base == 0 && group_.stride == 1) {
      bruck::for_each_run(group_.size, group_.local, Orientation::modified, round_, radix_,
                          BlockRun::kOwnSize, out);
      return;
    }
    bruck::for_each_index(group_.size, round_, radix_, [&](int o) {
      const BlockId local = bruck::modified_block(group_.size, group_.local, o, round_.place);
      out(columns_.members_run(local.src, local.dst));
    });
  }

  // visit(block, place) for every block this rank receives: the same distances, held by the peer.
  template <typename Visit>
  void incoming(Visit&& visit) const {
    const int holder = local_recv_peer();
    bruck::for_each_index(group_.size, round_, radix_, [&](int o) {
      const bool last = is_last_hop(o, round_, radix_);
      for_each_member(holder, o, [&](BlockId block, int m) {
        visit(block, last ? columns_.delivered(block, o, m) : columns_.in_transit(o, m));
      });
    });
  }

 private:
  int local_send_peer() const {
    return bruck::send_peer(group_.size, group_.local, Orientation::modified, round_);
  }
  int local_recv_peer() const {
    return bruck::recv_peer(group_.size, group_.local, Orientation::modified, round_);
  }

  // The real blocks of the column at distance o held by local rank `holder` as this round starts.
  template <typename Visit>
  void for_each_member(int holder, int o, Visit&& visit) const {
    const BlockId local = bruck::modified_block(group_.size, holder, o, round_.place);
    for (int m = 0; m < members_; ++m)
      visit(columns_.block(local.src, local.dst, m), m);
  }

  const RankGroup& group_;
  int radix_;
  const ColumnLayout& columns_;
  int members_;
  Round round_;
};

void metadata_exchange(Comm& comm, const RoundMessages& round) {
  const std::int64_t count = round.blocks();
  Request sent, received;
  {
    const Group launch(comm);  // a step of its own: the data step needs these sizes first
    sent = comm.isend_sizes(round.send_peer(), count, [&](BlockSink out) {
      round.outgoing([&](BlockId block, const Place&) { out(block); });
    });
    received = comm.irecv_sizes(round.recv_peer(), count, [&](BlockSink out) {
      round.incoming([&](BlockId block, const Place&) { out(block); });
    });
  }
  comm.wait(sent);
  comm.wait(received);
}

// Sizes come from the comm interface: the sender knows its own blocks and those it received,
// the receiver has just learned the incoming ones from the metadata.
void data_exchange(Comm& comm, const RoundMessages& round) {
  Request sent, received;
  {
    // One launch per send/receive pair, as NCCL Bruck (Sewell et al., HPCAsia 2024, §3.2).
    const Group launch(comm);
    sent = comm.isend_runs(
        round.send_peer(), [&](RunSink out) { round.outgoing_runs(out); },
        [&](PieceSink out) {
          round.outgoing([&](BlockId block, const Place& at) {
            out({block, at, comm.block_bytes(block)});
          });
        });
    received = comm.irecv(round.recv_peer(), [&](PieceSink out) {
      round.incoming([&](BlockId block, const Place& at) {
        out({block, at, comm.block_bytes(block)});
      });
    });
  }
  comm.wait(sent);
  comm.wait(received);
}

}  // namespace

void exchange(Comm& comm, const RankGroup& group, int radix, const ColumnLayout& columns,
              const Phases& phases, bool barrier_each_round) {
  bruck::for_each_round(group.size, radix, [&](const Round& round) {
    const RoundMessages messages(group, radix, columns, round);
    comm.next_round();
    comm.set_phase(phases.metadata);
    metadata_exchange(comm, messages);
    comm.set_phase(phases.data);
    data_exchange(comm, messages);
    if (barrier_each_round) {
      comm.set_phase(phase::barrier);
      comm.barrier();
    }
  });
}

}  // namespace a2a::radix
