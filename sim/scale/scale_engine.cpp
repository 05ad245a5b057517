#include "sim/scale/scale_engine.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <unordered_map>

#include "algorithms/errors.hpp"
#include "sim/scale/fibers.hpp"
#include "sim/scale/flow_network.hpp"
#include "sim/scale/rank_batch.hpp"
#include "sim/scale/routes.hpp"
#include "sim/scale/run_state.hpp"
#include "sim/scale/scale_comm.hpp"
#include "sim/simgrid/platform_instance.hpp"
#include "sim/vendor_model.hpp"

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

constexpr Bytes kValueBytes = sizeof(std::int64_t);

// One side of a message: the rank, its request, when it was posted.
struct Side {
  int rank = 0;
  int slot = 0;
  double at = 0;
  Bytes size = -1;
};

// A posted message or receive still waiting for its other side.
struct Pending {
  Side side;
  bool receive = false;
  std::vector<std::int64_t> values;
};

// A matched message in flight.
struct Transfer {
  Side send, receive;
  Kind kind = Kind::data;
  std::vector<std::int64_t> values;
};

// The event loop of one run: matches posts in MPI order (per source, destination and kind, first
// posted first matched), turns matched pairs into flows, and wakes the ranks whose requests end.
class EventLoop {
 public:
  EventLoop(RunState& run, RouteTable& routes, FlowNetwork& network, const std::string& label)
      : run_(run), routes_(routes), network_(network), label_(label) {}

  // Matches every post of `ranks`, in that order (deterministic whatever the threads did).
  void collect_posts(const std::vector<int>& ranks) {
    for (const int r : ranks) {
      RankState& state = run_.states[static_cast<size_t>(r)];
      for (Post& post : state.outbox)
        match(r, std::move(post));
      state.outbox.clear();
    }
  }

  // Advances the network until some rank can run again; fills `woken` (in wake order). Ranks woken
  // at t may still post nothing that takes effect before t + lookahead (the per-message overhead
  // plus the smallest link latency), so events up to there are processed first: the ranks woken
  // meanwhile run together in one batch.
  void advance(double lookahead, std::vector<int>& woken) {
    double horizon = std::numeric_limits<double>::infinity();
    for (;;) {
      const double next = network_.next_time();
      if (!(next < horizon)) return;
      completed_.clear();
      const double now = network_.step(completed_);
      for (const std::uint64_t token : completed_) {
        if (complete(token, now, woken)) horizon = std::min(horizon, now + lookahead);
      }
    }
  }

  // Messages posted that nobody received, as one line (empty if none).
  std::string unmatched() const {
    for (const auto& [key, queue] : pending_) {
      const Pending& p = queue.head;
      const int other = static_cast<int>((key >> 34) == static_cast<std::uint64_t>(p.side.rank)
                                             ? (key >> 2) & 0xFFFFFFFF
                                             : key >> 34);
      return p.receive ? "rank " + std::to_string(p.side.rank) + " waits for a message rank " +
                             std::to_string(other) + " never sent"
                       : "rank " + std::to_string(p.side.rank) + " sent rank " +
                             std::to_string(other) + " a message it never received";
    }
    return {};
  }

 private:
  static std::uint64_t key(int src, int dst, Kind kind) {
    return (static_cast<std::uint64_t>(src) << 34) | (static_cast<std::uint64_t>(dst) << 2) |
           static_cast<std::uint64_t>(kind);
  }

  void match(int rank, Post&& post) {
    const int src = post.receive ? post.peer : rank;
    const int dst = post.receive ? rank : post.peer;
    const std::uint64_t k = key(src, dst, post.kind);
    const Side side{rank, post.slot, post.at, post.size};
    const auto found = pending_.find(k);
    if (found == pending_.end()) {
      pending_.emplace(k, PendingQueue{{side, post.receive, std::move(post.values)}, {}});
      return;
    }
    PendingQueue& queue = found->second;
    if (queue.head.receive == post.receive) {
      queue.rest.push_back({side, post.receive, std::move(post.values)});
      return;
    }
    Pending other = std::move(queue.head);
    if (queue.rest.empty()) {
      pending_.erase(found);
    } else {
      queue.head = std::move(queue.rest.front());
      queue.rest.erase(queue.rest.begin());
    }
    Transfer transfer;
    transfer.kind = post.kind;
    if (post.receive) {
      transfer.send = other.side;
      transfer.receive = side;
      transfer.values = std::move(other.values);
    } else {
      transfer.send = side;
      transfer.receive = other.side;
      transfer.values = std::move(post.values);
    }
    start(std::move(transfer));
  }

  void start(Transfer&& transfer) {
    const Side& s = transfer.send;
    const Side& r = transfer.receive;
    if (r.size >= 0 && r.size != s.size) {
      const char* unit = transfer.kind == Kind::data ? " bytes" : " values";
      const std::string who = "rank " + std::to_string(r.rank);
      throw Error(label_ + ": " + who + ": " + who + " expected " + std::to_string(r.size) + unit +
                  " from rank " + std::to_string(s.rank) + " but it sent " +
                  std::to_string(s.size));
    }
    const Bytes bytes = transfer.kind == Kind::data ? s.size : s.size * kValueBytes;
    const int Q = run_.platform->ranks_per_node;
    const Route route = routes_.between(s.rank / Q, r.rank / Q);
    std::uint64_t token;
    if (!free_transfers_.empty()) {
      token = free_transfers_.back();
      free_transfers_.pop_back();
      transfers_[token] = std::move(transfer);
    } else {
      token = transfers_.size();
      transfers_.push_back(std::move(transfer));
    }
    const Transfer& t = transfers_[token];
    network_.start(std::max(t.send.at, t.receive.at), route, static_cast<double>(bytes), token);
  }

  // Both sides of a transfer end at `now`. True if it woke a rank.
  bool complete(std::uint64_t token, double now, std::vector<int>& woken) {
    Transfer& t = transfers_[token];
    if (!t.values.empty()) {
      Slot& slot = run_.states[static_cast<size_t>(t.receive.rank)]
                       .slots[static_cast<size_t>(t.receive.slot)];
      std::copy(t.values.begin(), t.values.end(), slot.out.begin());
    }
    bool woke = false;
    for (const Side* side : {&t.send, &t.receive}) {
      RankState& state = run_.states[static_cast<size_t>(side->rank)];
      Slot& slot = state.slots[static_cast<size_t>(side->slot)];
      slot.done = true;
      slot.done_at = now;
      --state.in_flight;
      if (state.blocked_on == side->slot ||
          (state.blocked_on == RankState::kAllSlots && state.in_flight == 0)) {
        state.blocked_on = -1;
        woken.push_back(side->rank);
        woke = true;
      }
    }
    t = Transfer{};
    free_transfers_.push_back(token);
    return woke;
  }

  RunState& run_;
  RouteTable& routes_;
  FlowNetwork& network_;
  const std::string& label_;
  // Posts waiting for their other side, per (source, destination, kind), oldest first; all of
  // one direction. Usually one, kept in place: a message costs no allocation for its queue.
  struct PendingQueue {
    Pending head;
    std::vector<Pending> rest;
  };
  std::unordered_map<std::uint64_t, PendingQueue> pending_;
  std::vector<Transfer> transfers_;
  std::vector<std::uint64_t> free_transfers_;
  std::vector<std::uint64_t> completed_;
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
  routes_ = std::make_unique<scale::RouteTable>(simgrid_platform(platform_, ranks_, options_));
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
  RunState run;
  run.platform = &platform_;
  run.workload = &workload;
  run.ranks = P;
  run.trace_ranks = options_.trace_ranks;
  run.check_sizes = options_.check_sizes;
  if (config.algorithm->name == "vendor") {
    run.vendor_alltoallv = vendor_choice(options_.vendor, P, platform_.ranks_per_node);
  }
  run.states.resize(static_cast<size_t>(P));
  run.records.resize(static_cast<size_t>(P));
  RankFibers fibers(P, static_cast<std::size_t>(options_.stack_kib) * 1024 * kStackScale,
                    [&run, &config](int rank) { run_rank(run, config, rank); });
  run.fibers = &fibers;
  FlowNetwork network(routes_->capacities(), routes_->hops(), options_.tolerance);
  EventLoop loop(run, *routes_, network, label);
  RankBatch batch(fibers, options_.threads);
  const double lookahead = platform_.message_overhead + routes_->min_latency();

  std::vector<int> runnable(static_cast<size_t>(P));
  for (int r = 0; r < P; ++r)
    runnable[static_cast<size_t>(r)] = r;
  while (!runnable.empty()) {
    batch.resume(runnable);
    for (const int r : runnable) {
      const RankState& state = run.states[static_cast<size_t>(r)];
      if (!state.error.empty())
        throw Error(label + ": rank " + std::to_string(r) + ": " + state.error);
    }
    fibers.release_finished_prefix();
    loop.collect_posts(runnable);
    runnable.clear();
    loop.advance(lookahead, runnable);
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
  SimResult result = summarize(label, run.records, 0.0, options_.trace_ranks);
  result.solves = network.solves();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

}  // namespace a2a::sim
