#include "sim/scale/scale_engine.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <queue>
#include <span>

#include <tsl/robin_map.h>

#include "algorithms/errors.hpp"
#include "sim/free_list.hpp"
#include "sim/interrupt.hpp"
#include "sim/scale/adaptive_routing.hpp"
#include "sim/scale/fibers.hpp"
#include "sim/scale/flow_network.hpp"
#include "sim/scale/nic_calendar.hpp"
#include "sim/scale/pending_posts.hpp"
#include "sim/scale/rank_batch.hpp"
#include "sim/scale/routes.hpp"
#include "sim/scale/run_state.hpp"
#include "sim/scale/scale_comm.hpp"
#include "sim/simgrid/platform_instance.hpp"
#include "sim/vendor_model.hpp"
#include "workloads/counter_rng.hpp"

namespace a2a::sim {

namespace scale {

namespace {

// AddressSanitizer's redzones make every frame several times larger: a sanitizer build gives each
// fiber 8 times the stack simulation.stack_kib asks for, so the same algorithms fit (without it
// bitonic_inplace overflows 64 KiB under ASan; plain builds run it in 16 KiB).
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kStackScale = 8;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr std::size_t kStackScale = 8;
#else
constexpr std::size_t kStackScale = 1;
#endif
#else
constexpr std::size_t kStackScale = 1;
#endif

// A request of a rank, posted at `at`.
struct End {
  int rank = 0;
  int slot = 0;
  double at = 0;
};

// One side of a message as posted: its request and what it says of the message.
struct Side {
  End end;
  Bytes size = -1;
  bool packed = false;  // a send packed from several pieces: its receive unpacks it
};

constexpr std::uint64_t kNoTransfer = ~std::uint64_t{0};
constexpr std::uint32_t kNoValues = Post::kNoValues;

// The values that values and collective messages carry, by id, from their send's post to their
// receive's delivery; kNoValues for none. Kept apart: most messages carry none.
class ValueLists {
 public:
  std::uint32_t put(std::span<const std::int64_t> values) {
    if (values.empty()) return kNoValues;
    const std::uint32_t id = reuse_or_append(lists_, free_);
    lists_[id].assign(values.begin(), values.end());
    return id;
  }
  const std::vector<std::int64_t>& get(std::uint32_t id) const { return lists_[id]; }
  void release(std::uint32_t id) {
    if (id == kNoValues) return;
    lists_[id].clear();
    free_.push_back(id);
  }

 private:
  std::vector<std::vector<std::int64_t>> lists_;
  std::vector<std::uint32_t> free_;
};

// A message in flight: matched, or an eager send whose receive is not posted yet. One per message
// (P² at once for a linear exchange), so 64 bytes: the receive's size was checked when matched.
struct Transfer {
  End send, receive;
  Bytes size = -1;                   // the send's: bytes, or values for the other kinds
  double arrived = -1;               // an eager send that arrived before its receive: when
  std::uint32_t values = kNoValues;  // in ValueLists
  std::uint32_t route = 0;  // Route::id of what it crosses (adaptive routing counts flows per link)
  Kind kind = Kind::data;
  bool has_receive = true;
  bool packed = false;
  bool send_done = false;  // an injected send: done when posted (platform inject_size)
  bool acked = false;      // a larger inter-node send: done when the receiver's ack is back
};
static_assert(sizeof(Transfer) == 64);

// The event loop of one run: matches posts in MPI order (per source, destination and kind, first
// posted first matched), turns matched pairs into flows, and wakes the ranks whose requests end.
class EventLoop {
 public:
  EventLoop(RunState& run, RouteTable& routes, FlowNetwork& network, const std::string& label)
      : run_(run),
        routes_(routes),
        network_(network),
        label_(label),
        adaptive_(*run.platform, routes) {
    const auto nodes = static_cast<size_t>((run.ranks + run.platform->ranks_per_node - 1) /
                                           run.platform->ranks_per_node);
    if (run.platform->nic_message_time > 0) {
      const auto engines = static_cast<size_t>(run.platform->nic_engines);
      nic_send_.resize(nodes * engines);
      nic_receive_.resize(nodes * engines);
    }
    // A linear exchange has P² / 2 posts waiting at once (P² - P, its receives, when matched in
    // time order): a fuller table keeps them to about the
    // memory std::unordered_map took (robin hood probing stays short at this load).
    pending_.max_load_factor(kPendingLoad);
  }

  // Matches every post of `ranks`, rank after rank in that order, or by their times on a platform
  // with NIC time (match_in_time_order); deterministic whatever the threads did. A
  // receive that finds its eager message already arrived is done at once: its rank, if that woke
  // it, goes to `woken`. Returns the earliest such wake-up (+infinity if none).
  double collect_posts(const std::vector<int>& ranks, std::vector<int>& woken) {
    double earliest = std::numeric_limits<double>::infinity();
    if (run_.platform->nic_message_time > 0 && ranks.size() > 1) {
      match_in_time_order(ranks, woken, earliest);
      return earliest;
    }
    // Each outbox goes back as soon as its posts are matched: a linear exchange's first batch
    // holds 2 (P - 1) posts per rank.
    for (const int r : ranks) {
      throw_if_interrupted();  // a linear exchange's first batch matches 2 (P - 1) posts a rank
      RankState& state = run_.states[static_cast<size_t>(r)];
      for (const Post& post : state.outbox)
        match(r, post, woken, earliest);
      empty_outbox(state);
    }
    return earliest;
  }

  // Advances the network until some rank can run again; fills `woken` (in wake order). Ranks woken
  // at t may still post nothing that takes effect before t + lookahead (the per-message overhead
  // plus the smallest link latency), so events up to there are processed first: the ranks woken
  // meanwhile run together in one batch.
  void advance(double lookahead, std::vector<int>& woken, double earliest_woken) {
    double horizon = earliest_woken + lookahead;
    for (;;) {
      const double next = network_.next_time();
      if (!(next < horizon)) return;
      throw_if_interrupted();  // a linear exchange's ranks all wait here until the end
      completed_.clear();
      const double now = network_.step(completed_);
      // Ranks woken by now post nothing that takes effect before now - lookahead.
      nic_floor_ = now - lookahead;
      prefetch_transfers(completed_);
      for (std::size_t i = 0; i < completed_.size(); ++i) {
        if (i + 1 < completed_.size()) prefetch_states(transfers_[completed_[i + 1]]);
        if (complete(completed_[i], now, woken)) horizon = std::min(horizon, now + lookahead);
      }
    }
  }

  // Ctrl-C (sim/interrupt.hpp): the configuration is abandoned within a second, so the loops
  // that can run for seconds without going back to ScaleSimulation::run check too.
  void throw_if_interrupted() const {
    if (interrupt_requested()) throw Interrupted(label_);
  }

  // Messages posted that nobody received, as one line (empty if none).
  std::string unmatched() const {
    for (const auto& [key, p] : pending_) {
      const int rank = poster(key, p);
      const int other = p.receive ? source_of(key) : destination_of(key);
      return p.receive ? "rank " + std::to_string(rank) + " waits for a message rank " +
                             std::to_string(other) + " never sent"
                       : "rank " + std::to_string(rank) + " sent rank " + std::to_string(other) +
                             " a message it never received";
    }
    return {};
  }

 private:
  // The rank that posted a waiting post of `key`.
  static int poster(std::uint64_t key, const Pending& p) {
    return p.receive ? destination_of(key) : source_of(key);
  }
  // The side a waiting post of `key` stands for.
  static Side side_of(std::uint64_t key, const Pending& p) {
    return Side{{poster(key, p), static_cast<int>(p.slot), p.at}, p.size, p.packed};
  }
  // A post as it waits in pending_: `ref` is its transfer if it is an eager send in flight, its
  // values' id if a send that waits for its receive.
  static Pending pending_of(const Post& post, bool eager, std::uint64_t ref) {
    if (post.slot < 0 || static_cast<std::uint32_t>(post.slot) > Pending::kMaxSlot)
      throw Error("scale engine: request slot " + std::to_string(post.slot) +
                  " out of the matching table's range");
    if (ref != kNoTransfer && ref > std::numeric_limits<std::uint32_t>::max())
      throw Error("scale engine: more than 2^32 messages in flight");
    Pending p;
    p.at = post.at;
    p.size = post.size;
    p.slot = static_cast<std::uint32_t>(post.slot);
    p.receive = post.receive;
    p.packed = post.packed;
    p.eager = eager;
    p.ref = ref == kNoTransfer ? kNoValues : static_cast<std::uint32_t>(ref);
    return p;
  }

  // A NIC serves its messages in the order they reach it (sim/scale/nic_calendar.hpp): a
  // message booked first takes the calendar's free time even if it reaches the NIC later, and
  // with nic_backpressure which message an engine serves first also decides how long the others
  // wait. A rank posts ahead of the others (Open MPI's linear exchange posts P - 1 sends over
  // P - 1 overheads before it waits), so rank after rank would hand node 0's NIC to rank 0's
  // messages to every node before the other ranks' messages to node 0 (an incast hidden). The
  // batch's posts are thus matched by their times (ties by rank), each rank's in their order
  // (their times do not decrease; MPI's non-overtaking rule). The posts are taken in time order
  // a chunk at a time, then matched, so that the matches' table lookups, independent of each
  // other, can overlap their cache misses as they do rank after rank.
  void match_in_time_order(const std::vector<int>& ranks, std::vector<int>& woken,
                           double& earliest) {
    std::vector<NextPost>& heap = next_posts_;  // each rank's first post not yet taken
    heap.clear();
    for (const int r : ranks) {  // each once (a rank waits for one thing at a time)
      RankState& state = run_.states[static_cast<size_t>(r)];
      if (!state.outbox.empty())
        heap.push_back(NextPost{state.outbox.front().at, r, 0});
      else
        empty_outbox(state);
    }
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    std::vector<int>& done = done_ranks_;
    while (!heap.empty()) {
      throw_if_interrupted();
      const std::size_t take = std::max(kMatchChunk, heap.size());
      chunk_.clear();
      done.clear();
      while (!heap.empty() && chunk_.size() < take) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>());
        NextPost& head = heap.back();
        const std::vector<Post>& outbox = run_.states[static_cast<size_t>(head.rank)].outbox;
        chunk_.emplace_back(head.rank, outbox[head.index]);
        if (++head.index < outbox.size()) {
          head.at = outbox[head.index].at;
          std::push_heap(heap.begin(), heap.end(), std::greater<>());
        } else {
          done.push_back(head.rank);
          heap.pop_back();
        }
      }
      for (const auto& [rank, post] : chunk_)
        match(rank, post, woken, earliest);
      for (const int r : done)
        empty_outbox(run_.states[static_cast<size_t>(r)]);
      for (NextPost& n : heap)
        if (n.index >= kSmallOutbox)
          n.index = drop_matched_posts(run_.states[static_cast<size_t>(n.rank)].outbox, n.index);
    }
  }

  // The first `matched` posts of `outbox` are matched: once they are at least half of it (and
  // more than a small outbox), they go and their memory with them, so that a linear exchange's
  // posts, matched a little of every rank at a time, do not all stay until the batch ends (rank
  // after rank, each outbox went as soon as its rank was done). Returns the index of the post
  // that followed them. Each post is moved at most once on average (the rest halves each time).
  static std::size_t drop_matched_posts(std::vector<Post>& outbox, std::size_t matched) {
    if (matched < kSmallOutbox || matched < outbox.size() - matched) return matched;
    std::vector<Post>(outbox.begin() + static_cast<std::ptrdiff_t>(matched), outbox.end())
        .swap(outbox);
    return 0;
  }

  // Outboxes up to this many posts keep their memory for the next round.
  static constexpr std::size_t kSmallOutbox = 256;
  // Posts taken in time order before they are matched (at least as many as the ranks still
  // posting, so that rebasing their outboxes costs at most one step per post).
  static constexpr std::size_t kMatchChunk = 4096;

  // A rank's next post to take in time order (ties by rank; a rank has one at a time).
  struct NextPost {
    double at;
    int rank;
    std::size_t index;
    bool operator>(const NextPost& o) const { return at != o.at ? at > o.at : rank > o.rank; }
  };

  // A linear exchange fills each rank's outbox with 2 (P - 1) posts at once: once matched, their
  // memory goes back rather than staying reserved for the rest of the run. Small outboxes keep
  // theirs, for the next round.
  static void empty_outbox(RankState& state) {
    if (state.outbox.capacity() > kSmallOutbox) {
      std::vector<Post>().swap(state.outbox);
      std::vector<std::int64_t>().swap(state.outbox_values);
    } else {
      state.outbox.clear();
      state.outbox_values.clear();
    }
  }

  // The values a send posted with (kNoValues if none), moved to values_.
  std::uint32_t take_values(const RankState& state, const Post& post) {
    if (post.values == kNoValues) return kNoValues;
    return values_.put(
        std::span(state.outbox_values).subspan(post.values, static_cast<std::size_t>(post.size)));
  }

  void match(int rank, const Post& post, std::vector<int>& woken, double& earliest) {
    const int src = post.receive ? post.peer : rank;
    const int dst = post.receive ? rank : post.peer;
    const std::uint64_t k = pending_key(src, dst, post.kind);
    const Side side{{rank, post.slot, post.at}, post.size, post.packed};
    const std::uint32_t values = take_values(run_.states[static_cast<size_t>(rank)], post);
    const auto found = pending_.find(k);
    if (found == pending_.end() || found->second.receive == post.receive) {
      const bool in_flight = !post.receive && eager(side, post.kind);
      const std::uint64_t ref =
          in_flight ? start_eager(side, values, dst, post.kind, woken, earliest) : values;
      const Pending waiting = pending_of(post, in_flight, ref);
      if (found == pending_.end())
        pending_.emplace(k, waiting);
      else
        queued_[k].push_back(waiting);
      return;
    }
    const Pending other = next_pending(found);
    if (other.eager) {
      receive_eager(other.ref, side, woken, earliest);
      return;
    }
    const Side waiting = side_of(k, other);
    const Side& send = post.receive ? waiting : side;
    const Side& receive = post.receive ? side : waiting;
    check_sizes(post.kind, send, receive);
    Transfer transfer = transfer_of(send, post.kind, post.receive ? other.ref : values);
    transfer.receive = receive.end;
    const Route route = route_of(send.end.rank, receive.end.rank);
    const double both_posted = std::max(send.end.at, receive.end.at);
    // A rendezvous message (above the eager threshold) first sends a request to the receiver and
    // waits for its answer: one round trip after the later of the two posts.
    const double begin =
        !rendezvous() || eager(send, post.kind)
            ? both_posted
            : std::max(send.end.at + route.latency, receive.end.at) + route.latency;
    const Bytes bytes = wire_bytes(transfer);
    const std::uint64_t token = new_transfer(transfer);
    launch(token, send.end.rank, receive.end.rank, begin, route, bytes);
    complete_injected(token, woken, earliest);
  }

  // Takes the oldest post waiting at `found` out of its queue.
  Pending next_pending(PendingMap::iterator found) {
    const Pending oldest = found->second;
    const auto more = queued_.empty() ? queued_.end() : queued_.find(found->first);
    if (more == queued_.end()) {
      pending_.erase(found);
      return oldest;
    }
    std::vector<Pending>& rest = more.value();
    found.value() = rest.front();
    rest.erase(rest.begin());
    if (rest.empty()) queued_.erase(more);
    return oldest;
  }

  // A transfer of `send`'s message, its receive not known yet.
  static Transfer transfer_of(const Side& send, Kind kind, std::uint32_t values) {
    Transfer transfer;
    transfer.send = send.end;
    transfer.size = send.size;
    transfer.packed = send.packed;
    transfer.kind = kind;
    transfer.values = values;
    return transfer;
  }

  // Messages are eager (they start when sent, without waiting for their receive) only when the
  // platform sets an eager threshold; without one every message starts when both sides posted.
  bool rendezvous() const { return run_.platform->eager_threshold >= 0; }
  bool eager(const Side& send, Kind kind) const {
    const double threshold = run_.platform->eager_threshold;
    if (threshold < 0) return false;
    return static_cast<double>(wire_bytes(kind, send.size)) <= threshold;
  }

  // The route of a message starting now: minimal, or as adaptive routing chooses.
  Route route_of(int sender, int receiver) {
    const int Q = run_.platform->ranks_per_node;
    const int from = sender / Q, to = receiver / Q;
    if (from == to || !adaptive_.enabled()) return routes_.between(from, to);
    return adaptive_.choose(from, to, ++messages_);
  }

  static Bytes wire_bytes(Kind kind, Bytes size) {
    return kind == Kind::data ? size : size * kValueBytes;
  }
  static Bytes wire_bytes(const Transfer& transfer) {
    return wire_bytes(transfer.kind, transfer.size);
  }

  void check_sizes(Kind kind, const Side& send, const Side& receive) const {
    if (receive.size >= 0 && receive.size != send.size) {
      const char* unit = kind == Kind::data ? " bytes" : " values";
      const std::string who = "rank " + std::to_string(receive.end.rank);
      throw Error(label_ + ": " + who + ": " + who + " expected " + std::to_string(receive.size) +
                  unit + " from rank " + std::to_string(send.end.rank) + " but it sent " +
                  std::to_string(send.size));
    }
  }

  std::uint64_t new_transfer(const Transfer& transfer) {
    const std::uint64_t token = reuse_or_append(transfers_, free_transfers_);
    transfers_[token] = transfer;
    return token;
  }

  void free_transfer(std::uint64_t token) {
    transfers_[token] = Transfer{};
    free_transfers_.push_back(token);
  }

  // An eager send, started before anyone receives it.
  std::uint64_t start_eager(const Side& send, std::uint32_t values, int receiver, Kind kind,
                            std::vector<int>& woken, double& earliest) {
    Transfer transfer = transfer_of(send, kind, values);
    transfer.has_receive = false;
    const Bytes bytes = wire_bytes(transfer);
    const Route route = route_of(send.end.rank, receiver);
    const std::uint64_t token = new_transfer(transfer);
    launch(token, send.end.rank, receiver, send.end.at, route, bytes);
    complete_injected(token, woken, earliest);
    return token;
  }

  // A send the MPI injects (an inter-node message of at most the platform's inject_size: its
  // bytes travel inside the NIC command, as libfabric's fi_inject) is done as soon as it is posted.
  void complete_injected(std::uint64_t token, std::vector<int>& woken, double& earliest) {
    Transfer& t = transfers_[token];
    if (!t.send_done) return;
    if (finish_side(t.send, false, t.send.at, woken)) earliest = std::min(earliest, t.send.at);
  }

  // When the send of a transfer whose data arrived at `arrived` is done: at once, or, for an
  // acknowledged one, when the receiver's acknowledgement has crossed the route back.
  double send_done_at(const Transfer& t, double arrived) const {
    return t.acked ? arrived + routes_.interned()[t.route].latency : arrived;
  }

  // A receive matched to an eager send: it joins the transfer in flight, or, if the message has
  // arrived already, is done at once (when posted, or when the message arrived).
  void receive_eager(std::uint64_t token, const Side& receive, std::vector<int>& woken,
                     double& earliest) {
    Transfer& t = transfers_[token];
    check_sizes(t.kind, Side{t.send, t.size, t.packed}, receive);
    t.receive = receive.end;
    t.has_receive = true;
    if (t.arrived < 0) return;
    const double done = std::max(t.arrived, receive.end.at);
    deliver(t);
    if (finish_side(receive.end, true, done, woken)) earliest = std::min(earliest, done);
    free_transfer(token);
  }

  // Starts a transfer's flow at `begin`, after the NICs of both nodes have handled it: each NIC
  // engine processes one message at a time (nic_message_time each, sending and receiving), each in
  // the earliest free time after it reaches that engine (NicCalendar). A node has nic_engines
  // engines per direction; a message takes the one nic_engine_choice gives it (its peer node's
  // number or its rank's place on the node), so messages between two ranks keep one engine's
  // order. A pipelined engine lets the message go as it
  // starts it (its latency through the NIC is the links'); otherwise it leaves once handled.
  void launch(std::uint64_t token, int sender, int receiver, double begin, const Route& route,
              Bytes bytes) {
    const PlatformSpec& platform = *run_.platform;
    const double nic = platform.nic_message_time;
    const int Q = platform.ranks_per_node;
    const int from = sender / Q, to = receiver / Q;
    if (nic > 0 && from != to) begin = pass_nics(sender, receiver, begin);
    Transfer& t = transfers_[token];
    t.route = route.id;
    const double inject = run_.platform->inject_size;
    if (inject >= 0 && from != to) {
      t.send_done = static_cast<double>(bytes) <= inject;
      t.acked = !t.send_done;
    }
    if (adaptive_.enabled()) adaptive_.add(route);
    network_.start(begin, route, static_cast<double>(bytes), token);
  }

  // When a message from rank `sender` to rank `receiver` (on other nodes), at the sending NIC at
  // `begin`, has passed both NICs and goes on the links. Without backpressure the sending engine
  // serves it in its earliest free time, the receiving engine once the sending one has (and, not
  // pipelined, handled) it. With nic_backpressure the sending engine is held until the receiving
  // one starts the message (at least its own time), so a sender whose messages queue at a busy
  // receiver cannot serve its next one meanwhile (head-of-line blocking): both engines' free times
  // are searched together. With nic_receive_buffers B the receiving engine holds up to B messages
  // waiting, so the sender is held only until B messages' time before the start.
  double pass_nics(int sender, int receiver, double begin) {
    const PlatformSpec& platform = *run_.platform;
    const double nic = platform.nic_message_time;
    const double held = platform.nic_pipelined ? 0.0 : nic;
    NicCalendar& sending = nic_engine(nic_send_, sender, receiver);
    NicCalendar& receiving = nic_engine(nic_receive_, receiver, sender);
    if (!platform.nic_backpressure) {
      begin = sending.book(begin, nic) + held;
      return receiving.book(begin, nic) + held;
    }
    const double slack = platform.nic_receive_buffers * nic;
    return book_held(sending, receiving, begin, nic, held, slack) + held;
  }

  // The engine of `rank`'s node's NIC (one direction: `nics`) that serves its message with rank
  // `peer` (nic_engine_choice): the one the peer node's number selects, or the one of the rank's
  // place on its node.
  NicCalendar& nic_engine(std::vector<NicCalendar>& nics, int rank, int peer) {
    const PlatformSpec& platform = *run_.platform;
    const int engines = platform.nic_engines, Q = platform.ranks_per_node;
    const int chosen = nic_engine_of(engines, Q, platform.nic_engine_choice, rank, peer);
    NicCalendar& engine = nics[static_cast<size_t>(rank / Q) * static_cast<size_t>(engines) +
                               static_cast<size_t>(chosen)];
    engine.forget_before(nic_floor_);
    return engine;
  }

  // What the receive of an arrived message gets: its values, and, for a packed message, the time
  // to unpack it into its pieces (the same pieces as the sender's in the catalog, so the sender's
  // count stands for both).
  void deliver(const Transfer& t) {
    RankState& receiver = run_.states[static_cast<size_t>(t.receive.rank)];
    if (t.values != kNoValues) {
      const std::vector<std::int64_t>& values = values_.get(t.values);
      std::copy(values.begin(), values.end(), receiver.value_outs.at(t.receive.slot).begin());
      values_.release(t.values);
    }
    if (t.packed) {
      receiver.unpack_seconds.insert_or_assign(
          t.receive.slot, static_cast<double>(wire_bytes(t)) / run_.platform->pack_bandwidth);
      receiver.slots[static_cast<size_t>(t.receive.slot)].extras = true;
    }
  }

  // Flows of one route that end together come back together (a round of constant blocks: dozens
  // at a time). What finishing them reads is asked of memory ahead of use, so that the misses
  // overlap instead of following one another: every transfer at once, and the states (and saved
  // frame addresses) of the ranks each one finishes while the one before is finished.
  void prefetch_transfers(const std::vector<std::uint64_t>& tokens) const {
    if (tokens.size() < 2) return;
    for (const std::uint64_t token : tokens)
      __builtin_prefetch(&transfers_[token]);
  }
  void prefetch_states(const Transfer& t) const {
    __builtin_prefetch(&run_.states[static_cast<size_t>(t.send.rank)]);
    run_.fibers->prefetch_frame_address(t.send.rank);
    if (!t.has_receive) return;
    __builtin_prefetch(&run_.states[static_cast<size_t>(t.receive.rank)]);
    run_.fibers->prefetch_frame_address(t.receive.rank);
  }

  // One side of a transfer is done at `at` (a receive never before it was posted). True if that
  // woke its rank.
  bool finish_side(const End& side, bool receive, double at, std::vector<int>& woken) {
    RankState& state = run_.states[static_cast<size_t>(side.rank)];
    Slot& slot = state.slots[static_cast<size_t>(side.slot)];
    slot.done = true;
    slot.done_at = std::max(at, side.at);
    --state.in_flight;
    if (receive) --state.receives_posted;
    if (state.blocked_on == side.slot ||
        (state.blocked_on == RankState::kAllSlots && state.in_flight == 0)) {
      state.blocked_on = -1;
      woken.push_back(side.rank);
      run_.fibers->hint_resume(side.rank, &slot, &state);
      // It resumes once the network has reached the batch's horizon: its stack can be on its way
      // to the cache meanwhile (a batch of one rank has nothing to prefetch ahead).
      run_.fibers->prefetch(side.rank);
      return true;
    }
    return false;
  }

  // A transfer's flow ends at `now`. True if it woke a rank.
  bool complete(std::uint64_t token, double now, std::vector<int>& woken) {
    Transfer& t = transfers_[token];
    const double send_done = send_done_at(t, now);
    // A detour let go here may be reused by the next one built: its latency is read first.
    if (adaptive_.enabled()) adaptive_.remove(routes_.interned()[t.route]);
    bool woke = !t.send_done && finish_side(t.send, false, send_done, woken);
    if (!t.has_receive) {  // an eager message nobody has received yet: it waits
      t.arrived = now;
      return woke;
    }
    deliver(t);
    woke = finish_side(t.receive, true, now, woken) || woke;
    free_transfer(token);
    return woke;
  }

  RunState& run_;
  RouteTable& routes_;
  FlowNetwork& network_;
  const std::string& label_;
  // Posts waiting for their other side, per (source, destination, kind), oldest first; all of
  // one direction. The oldest in pending_ (a linear exchange has up to P² there at once: one node
  // each, nothing more), any later ones in queued_.
  PendingMap pending_;
  tsl::robin_map<std::uint64_t, std::vector<Pending>, KeyHash> queued_;
  ValueLists values_;
  AdaptiveRouting adaptive_;
  std::uint64_t messages_ = 0;                       // started: varies detours
  std::vector<NicCalendar> nic_send_, nic_receive_;  // per node, if the platform has NIC time
  double nic_floor_ = 0;            // no message reaches a NIC before this (advance)
  std::deque<Transfer> transfers_;  // a deque: growing never copies them all (twice the memory)
  std::vector<std::uint64_t> free_transfers_;
  std::vector<std::uint64_t> completed_;
  // match_in_time_order's ranks in time order, the posts it took and the ranks it finished.
  std::vector<NextPost> next_posts_;
  std::vector<std::pair<int, Post>> chunk_;
  std::vector<int> done_ranks_;
};

// What one rank's fiber runs.
void run_rank(RunState& run, const Configuration& config, int rank) {
  RankRecord& record = run.records[static_cast<size_t>(rank)];
  RankState& state = run.states[static_cast<size_t>(rank)];
  try {
    ScaleComm comm(run, rank);
    config.algorithm->run(comm, config.params);
    if (comm.outstanding() != 0) {
      throw ContractViolation(std::to_string(comm.outstanding()) +
                              " requests were never waited for");
    }
    comm.finish_phases();
    record.end = state.clock;
    record.finished = true;
  } catch (const std::exception& error) {  // not boost's forced_unwind: that must pass
    state.error = error.what();
  }
}

// What one configuration's run builds, beside the threads that run its ranks.
struct RunParts {
  RunParts(const PlatformSpec& platform, const SimOptions& options, RouteTable& routes,
           const Configuration& config, const Workload& workload, const std::string& label)
      : fibers(workload.ranks(), static_cast<std::size_t>(options.stack_kib) * 1024 * kStackScale,
               [this, &config](int rank) { run_rank(run, config, rank); }),
        network(routes.capacities(), routes.hops(), routes.interned(), options.tolerance),
        loop(prepared(run, platform, options, config, workload, fibers), routes, network, label) {}

  // Fills `run` in before the event loop reads it.
  static RunState& prepared(RunState& run, const PlatformSpec& platform, const SimOptions& options,
                            const Configuration& config, const Workload& workload,
                            RankFibers& fibers) {
    const int P = workload.ranks();
    run.platform = &platform;
    run.workload = &workload;
    run.ranks = P;
    run.trace_ranks = options.trace_ranks;
    run.check_sizes = options.check_sizes;
    if (config.algorithm->family == Family::vendor)
      run.vendor_alltoallv = vendor_choice(options.vendor, P, platform.ranks_per_node);
    run.states.resize(static_cast<size_t>(P));
    run.records.resize(static_cast<size_t>(P));
    run.fibers = &fibers;
    return run;
  }

  RunState run;  // first: the fibers' body and the event loop refer to it
  RankFibers fibers;
  FlowNetwork network;
  EventLoop loop;
};

// After Ctrl-C the process ends as soon as the finished configurations are shown, so the abandoned
// run's state is left for the exit to reclaim: tearing it down (unwinding every suspended rank's
// fiber, freeing every rank's buffers and records) took 1.2-1.7 s at P = 131,072, longer than the
// second a Ctrl-C may take (docs/scenarios.md). Nothing runs after it but printing and exit.
// (Under LeakSanitizer this shows as leaks; the sanitizer tests run with detect_leaks=0.)
void leave_to_exit(std::unique_ptr<RunParts> parts) {
  static_cast<void>(parts.release());
}

}  // namespace

}  // namespace scale

ScaleSimulation::ScaleSimulation(const PlatformSpec& platform, int ranks, SimOptions options)
    : platform_(platform), ranks_(ranks), options_(std::move(options)) {
  check_fits(platform_, ranks_);
  if (options_.payload) {
    throw InvalidParameter(
        "simulation.payload needs engine: simgrid (the scale engine carries sizes only)");
  }
  if (options_.tolerance < 0 || options_.tolerance > 1) {
    throw InvalidParameter("simulation.tolerance must be in [0, 1]");
  }
  vendor_choice(options_.vendor, ranks_, platform_.ranks_per_node);  // validates the name
  routes_ = std::make_unique<scale::RouteTable>(
      simgrid_platform(platform_, ranks_, options_, NodeLinks::by_caller),
      platform_.node_memory_bandwidth);
}

ScaleSimulation::~ScaleSimulation() = default;

SimResult ScaleSimulation::run(const Configuration& config, const Workload& workload, LayoutStyle) {
  using namespace scale;
  const int P = workload.ranks();
  if (P > ranks_) {
    throw InvalidParameter("workload has " + std::to_string(P) +
                           " ranks; the platform was built for " + std::to_string(ranks_));
  }
  const std::string label = config.label();
  const auto wall_start = std::chrono::steady_clock::now();
  auto parts = std::make_unique<RunParts>(platform_, options_, *routes_, config, workload, label);
  RunState& run = parts->run;
  RankFibers& fibers = parts->fibers;
  FlowNetwork& network = parts->network;
  EventLoop& loop = parts->loop;
  RankBatch batch(fibers, options_.threads);
  const double lookahead = platform_.message_overhead + routes_->min_latency();

  std::vector<int> runnable(static_cast<size_t>(P));
  for (int r = 0; r < P; ++r)
    runnable[static_cast<size_t>(r)] = r;
  // Swapped with `runnable` each time round: both keep their memory (a run at P = 65,536 goes
  // round about 650,000 times, a handful of ranks each).
  std::vector<int> woken;
  try {
    while (!runnable.empty()) {
      // Ctrl-C: abandon the configuration now, not after its last rank (minutes at 10^5 ranks).
      loop.throw_if_interrupted();
      batch.resume(runnable);
      loop.throw_if_interrupted();  // the batch may have stopped part-way
      for (const int r : runnable) {
        const RankState& state = run.states[static_cast<size_t>(r)];
        if (!state.error.empty())
          throw Error(label + ": rank " + std::to_string(r) + ": " + state.error);
      }
      fibers.release_finished_prefix();
      woken.clear();
      const double earliest = loop.collect_posts(runnable, woken);
      runnable.swap(woken);
      loop.advance(lookahead, runnable, earliest);
    }
  } catch (const Interrupted&) {
    leave_to_exit(std::move(parts));
    throw;
  }
  if (std::any_of(run.records.begin(), run.records.end(),
                  [](const RankRecord& r) { return !r.finished; })) {
    for (size_t r = 0; r < run.records.size(); ++r) {
      if (!run.records[r].finished) run.records[r].waiting_for = describe_wait(run.states[r]);
    }
    throw Error(label + ": deadlock: " + unfinished_ranks(run.records));
  }
  const std::string unmatched = loop.unmatched();
  if (!unmatched.empty()) throw Error(label + ": " + unmatched);
  SimResult result = summarize(label, run.records, 0.0, options_.trace_ranks, config, workload);
  result.solves = network.solves();
  result.partial_solves = network.partial_solves();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

}  // namespace a2a::sim
