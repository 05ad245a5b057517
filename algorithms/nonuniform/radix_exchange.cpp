// The two-phase radix-r exchange shared by two_phase_bruck, parlogna and ParLinNa; see
// radix_exchange.hpp.
#include "algorithms/nonuniform/radix_exchange.hpp"

#include "algorithms/digits.hpp"
#include "algorithms/nonuniform/radix_indices.hpp"

namespace a2a::radix {

namespace {

// One round seen from one rank: who it sends to and receives from, and how to enumerate the
// blocks of either message with the place each one is read from / written to.
class RoundMessages {
 public:
  RoundMessages(const RankGroup& group, int radix, const ColumnLayout& columns, const Round& round)
      : group_(group), radix_(radix), columns_(columns), round_(round) {}

  int send_peer() const { return group_.base + to_local(); }
  int recv_peer() const { return group_.base + from_local(); }

  // visit(block, place) for every block this rank sends: the columns it holds whose digit x is z.
  template <typename Visit>
  void outgoing(Visit&& visit) const {
    for_each_moved_distance(group_.size, radix_, round_, [&](int o) {
      const int src = column_source(group_.local, o, round_, group_.size);
      const int dst = column_destination(src, o, group_.size);
      const bool unmoved = still_in_send_buffer(o, round_);
      for (int m = 0; m < columns_.members(); ++m) {
        const BlockId block = columns_.block(src, dst, m);
        // A block that has not moved is still at its source, this rank: read the caller's buffer.
        visit(block, unmoved ? Place::send_block(block.dst) : columns_.in_transit(o, m));
      }
    });
  }

  // visit(block, place) for every block this rank receives: the same distances, held by the peer.
  template <typename Visit>
  void incoming(Visit&& visit) const {
    for_each_moved_distance(group_.size, radix_, round_, [&](int o) {
      const int src = column_source(from_local(), o, round_, group_.size);
      const int dst = column_destination(src, o, group_.size);
      const bool last = is_last_hop(o, round_, radix_);
      for (int m = 0; m < columns_.members(); ++m) {
        const BlockId block = columns_.block(src, dst, m);
        visit(block, last ? columns_.delivered(block, o, m) : columns_.in_transit(o, m));
      }
    });
  }

 private:
  int to_local() const { return static_cast<int>(mod(group_.local - round_.distance(), group_.size)); }
  int from_local() const {
    return static_cast<int>(mod(group_.local + round_.distance(), group_.size));
  }

  const RankGroup& group_;
  int radix_;
  const ColumnLayout& columns_;
  Round round_;
};

void metadata_exchange(Comm& comm, const RoundMessages& round) {
  const Request sent = comm.isend_sizes(round.send_peer(), [&](BlockSink out) {
    round.outgoing([&](BlockId block, const Place&) { out(block); });
  });
  const Request received = comm.irecv_sizes(round.recv_peer(), [&](BlockSink out) {
    round.incoming([&](BlockId block, const Place&) { out(block); });
  });
  comm.wait(sent);
  comm.wait(received);
}

// Sizes come from the comm interface: the sender knows its own blocks and those it received,
// the receiver has just learned the incoming ones from the metadata.
void data_exchange(Comm& comm, const RoundMessages& round) {
  const Request sent = comm.isend(round.send_peer(), [&](PieceSink out) {
    round.outgoing([&](BlockId block, const Place& at) { out({block, at, comm.block_bytes(block)}); });
  });
  const Request received = comm.irecv(round.recv_peer(), [&](PieceSink out) {
    round.incoming([&](BlockId block, const Place& at) { out({block, at, comm.block_bytes(block)}); });
  });
  comm.wait(sent);
  comm.wait(received);
}

}  // namespace

void exchange(Comm& comm, const RankGroup& group, int radix, const ColumnLayout& columns,
              const Phases& phases) {
  for_each_round(group.size, radix, [&](const Round& round) {
    const RoundMessages messages(group, radix, columns, round);
    comm.next_round();
    comm.set_phase(phases.metadata);
    metadata_exchange(comm, messages);
    comm.set_phase(phases.data);
    data_exchange(comm, messages);
  });
}

}  // namespace a2a::radix
