// The recording backend (docs/design.md, "Recorder"): a Comm decorator that forwards every call of
// the real catalog code to another backend (SimGrid in payload mode, which moves and checks the
// real bytes) and keeps a model of every rank's memory: which bytes of which block sit where
// (buffer_contents.hpp). Each change is logged with the rank's round and sub-step (recording.hpp)
// and its simulated time; recorder.hpp turns the logs into steps.
//
// Every piece, copy and receive names the block it carries; the decorator checks that name against
// the bytes its model says are there, so a recording cannot silently disagree with the code.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/exchange.hpp"
#include "algorithms/forwarding_comm.hpp"
#include "algorithms/registry.hpp"
#include "sim/recorder/recording.hpp"

namespace a2a::sim::recorder {

// Something a rank did, stamped with its position in the rank's timeline.
struct Event {
  enum class Kind : std::uint8_t { op, message, collective };
  Kind kind = Kind::op;
  int round = 0;
  int sub = 0;
  double time = 0;
  const char* phase = phase::setup;
  Op op;
  Message message;
};

// What all ranks of one run log, shared by their RecordingComms. SimGrid runs one actor at a time,
// so no locking.
class RunLog {
 public:
  explicit RunLog(int ranks) : events_(static_cast<size_t>(ranks)) {}
  std::vector<Event>& events(int rank) { return events_.at(static_cast<size_t>(rank)); }
  const std::vector<std::vector<Event>>& all() const { return events_; }

  // What the `sequence`-th data message from src to dst carries. The n-th receive a rank posts
  // from a peer matches the n-th send that peer posts to it (MPI's non-overtaking order, which
  // every backend keeps), so the receiver finds the sender's contents by sequence number.
  void post(int src, int dst, std::int64_t sequence, Segments contents);
  Segments take(int src, int dst, std::int64_t sequence);

 private:
  std::vector<std::vector<Event>> events_;
  std::map<std::tuple<int, int, std::int64_t>, Segments> in_flight_;
};

class RecordingComm final : public ForwardingComm {
 public:
  // `layout` is this rank's exchange (as the inner backend has it); `clock` the simulated time;
  // `vendor` what vendor_alltoallv runs (the inner backend's choice, run through this decorator so
  // its messages are recorded too).
  RecordingComm(Comm& inner, RunLog& log, const ExchangeLayout& layout, double (*clock)(),
                const Configuration* vendor);

  int rank() const override { return rank_; }

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

  void set_phase(const char* label) override;
  void next_round() override;

 private:
  struct Where {
    Buffer buffer = Buffer::temp;
    int temp = 0;
    Bytes offset = 0;
  };
  struct PendingReceive {
    std::int64_t posted = 0;  // order of posting, to settle wait_all in order
    int peer = 0;
    std::int64_t sequence = 0;  // among data messages from `peer`
    std::vector<Piece> pieces;
  };

  Where resolve(Place place) const;
  BufferContents& contents(const Where& where);
  // The bytes at `place`, checked to belong to `block` (holes allowed: padding travels).
  Segments read(Place place, Bytes bytes, BlockId block, const char* what);
  void write(Op::Kind kind, Place place, const Segments& segments);
  void log_op(Op op);
  // True when `op` continued the op at `index` of the rank's log (same step, buffer and kind, and
  // starting where that one ends) and was merged into it.
  bool extended(std::optional<size_t> index, const Op& op);
  void log_message(Message message);
  // A new event of `kind` at the rank's current round, sub-step, time and phase.
  Event stamped(Event::Kind kind) const;
  void communicating();   // the rank is in a communication sub-step
  void log_collective();  // an allreduce or a barrier, as one event
  void local();           // the rank is in a local-copy sub-step (once its requests are done)
  Request posted(Request request);
  void settle(const PendingReceive& receive);

  RunLog& log_;
  const ExchangeLayout& layout_;
  double (*clock_)();
  const Configuration* vendor_;
  int rank_;
  BufferContents send_, recv_;
  std::map<int, BufferContents> temps_;
  std::map<int, PendingReceive> receives_;  // by request id
  std::set<int> outstanding_;
  std::vector<std::int64_t> sent_to_, received_from_;  // data messages per peer
  std::int64_t posted_ = 0;
  // The rank's last memory change and last read in its log: contiguous writes and reads of one
  // step extend them (a loop of block copies becomes one op), which keeps P = 64 pages small.
  std::optional<size_t> last_change_, last_read_;
  int round_ = 0;
  int sub_ = 0;
  const char* phase_ = phase::setup;
};

}  // namespace a2a::sim::recorder
