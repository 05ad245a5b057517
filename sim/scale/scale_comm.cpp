#include "sim/scale/scale_comm.hpp"

#include <algorithm>
#include <string>

#include "algorithms/digits.hpp"
#include "algorithms/errors.hpp"
#include "sim/free_list.hpp"
#include "sim/scale/fibers.hpp"
#include "sim/smp_barrier.hpp"
#include "sim/vendor_model.hpp"
#include "workloads/counter_rng.hpp"

namespace a2a::sim::scale {

namespace {
// Bytes of a message's pieces or a copy's moves, enumerated one by one.
Bytes total_bytes(Pieces pieces, std::int64_t* count = nullptr) {
  Bytes bytes = 0;
  std::int64_t n = 0;
  pieces([&](const Piece& piece) {
    bytes += piece.bytes;
    ++n;
  });
  if (count) *count = n;
  return bytes;
}

Bytes total_bytes(Moves moves) {
  Bytes bytes = 0;
  moves([&](const Move& move) { bytes += move.bytes; });
  return bytes;
}

// A block's hash, for comparing which blocks two descriptions of one operation name.
std::uint64_t block_hash(BlockId block) {
  const auto src = static_cast<std::uint32_t>(block.src);
  const auto dst = static_cast<std::uint32_t>(block.dst);
  return workload_rng::mix64((std::uint64_t{src} << 32) | dst);
}

// Pieces or moves enumerated one by one (under simulation.check_sizes only: it hashes each).
template <typename Parts>
Described described(Parts parts) {
  Described described;
  parts([&](const auto& part) {
    described.bytes += part.bytes;
    described.blocks += block_hash(part.block) * static_cast<std::uint64_t>(part.bytes);
  });
  return described;
}

Post message(bool receive, Kind kind, int peer, Bytes size) {
  Post post;
  post.receive = receive;
  post.kind = kind;
  post.peer = peer;
  post.size = size;
  return post;
}
}  // namespace

ScaleComm::ScaleComm(RunState& run, int rank)
    : run_(run),
      rank_(rank),
      state_(run.states[static_cast<size_t>(rank)]),
      record_(run.records[static_cast<size_t>(rank)]),
      element_bytes_(run.workload->element_bytes()),
      phases_(state_.clock) {}

Bytes ScaleComm::block_bytes(BlockId block) const {
  return run_.workload->count(block.src, block.dst) * element_bytes_;
}

Bytes ScaleComm::max_send_block_bytes() const {
  return run_.workload->row_max(rank_) * element_bytes_;
}

std::optional<Bytes> ScaleComm::uniform_block_bytes() const {
  if (!run_.workload->uniform()) return std::nullopt;
  return run_.workload->count(0, 0) * element_bytes_;
}

void ScaleComm::check_peer(int peer) const {
  if (peer < 0 || peer >= size()) {
    throw ContractViolation("message to or from rank " + std::to_string(peer) + " of " +
                            std::to_string(size()));
  }
}

Request ScaleComm::post(Post message, bool mpi) {
  check_peer(message.peer);
  if (mpi) state_.clock += run_.platform->message_overhead;
  if (message.receive) {
    // MPI searches its queue of posted receives for every arriving message: a rank with many
    // receives outstanding (a linear algorithm posts P - 1 at once) pays for each one more.
    if (mpi) state_.clock += run_.platform->match_time * state_.receives_posted;
    ++state_.receives_posted;
  }
  const int id = reuse_or_append(state_.slots, state_.free_slots);
  Slot& slot = state_.slots[static_cast<size_t>(id)];
  slot = Slot{};
  slot.busy = true;
  ++state_.in_flight;
  slot.receive = message.receive;
  slot.kind = message.kind;
  slot.peer = message.peer;
  message.slot = id;
  message.at = state_.clock;
  state_.outbox.push_back(message);
  return {id};
}

Request ScaleComm::post_values(Post message, std::span<const std::int64_t> values) {
  message.values = static_cast<std::uint32_t>(state_.outbox_values.size());
  state_.outbox_values.insert(state_.outbox_values.end(), values.begin(), values.end());
  return post(message);
}

Request ScaleComm::isend(int peer, Pieces pieces) {
  std::int64_t count = 0;
  const Bytes bytes = total_bytes(pieces, &count);
  return send_data(peer, bytes, count > 1);
}

Bytes ScaleComm::run_bytes(BlockRuns runs, FunctionRef<Described()> pieces, const char* what,
                           std::int64_t* blocks) const {
  Bytes bytes = 0;
  std::int64_t named = 0;
  runs([&](const BlockRun& run) {
    if (run.count <= 0) return;
    named += run.count;
    if (run.first.src < 0 || run.first.src >= size() || run.first.dst < 0 ||
        run.first.dst >= size() || run.src_step < 0 || run.src_step >= size() || run.dst_step < 0 ||
        run.dst_step >= size()) {
      throw ContractViolation(std::string(what) + ": a block run outside the " +
                              std::to_string(size()) + " ranks");
    }
    bytes += run.each != BlockRun::kOwnSize
                 ? run.count * run.each
                 : run_.workload->run_count(run.first.src, run.first.dst, run.src_step,
                                            run.dst_step, run.count) *
                       element_bytes_;
  });
  if (run_.check_sizes) {
    const Described expected = pieces();
    if (expected.bytes != bytes) {
      throw ContractViolation(std::string(what) + " of " + std::to_string(expected.bytes) +
                              " bytes described by runs of " + std::to_string(bytes) + " bytes");
    }
    if (expected.blocks != run_blocks(runs)) {
      throw ContractViolation(std::string(what) + " of " + std::to_string(bytes) +
                              " bytes described by runs of other blocks than its pieces");
    }
  }
  if (blocks) *blocks = named;
  return bytes;
}

std::uint64_t ScaleComm::run_blocks(BlockRuns runs) const {
  std::uint64_t blocks = 0;
  runs([&](const BlockRun& run) {
    for_each_in_run(
        size(), run.first.src, run.first.dst, run.src_step, run.dst_step, run.count,
        [&](int src, int dst) {
          const Bytes bytes = run.each != BlockRun::kOwnSize ? run.each : block_bytes({src, dst});
          blocks += block_hash({src, dst}) * static_cast<std::uint64_t>(bytes);
        });
  });
  return blocks;
}

Request ScaleComm::isend_runs(int peer, BlockRuns runs, Pieces pieces) {
  std::int64_t blocks = 0;
  const Bytes bytes = run_bytes(
      runs, [&] { return described(pieces); }, "a message", &blocks);
  return send_data(peer, bytes, blocks > 1);
}

// A message of several pieces is packed into one buffer first, as the MPI backend does
// (mpi/mpi_comm.cpp), at the platform's pack_bandwidth; its receiver unpacks it (finish_slot).
Request ScaleComm::send_data(int peer, Bytes bytes, bool pieces) {
  ++record_.stats.messages;
  record_.stats.bytes_sent += bytes;
  const int Q = ranks_per_node();
  (peer / Q == rank_ / Q ? record_.intra_node_bytes : record_.inter_node_bytes) += bytes;
  const bool packed = pieces && run_.platform->pack_bandwidth > 0;
  if (packed) spend_copying(static_cast<double>(bytes) / run_.platform->pack_bandwidth);
  Post send = message(false, Kind::data, peer, bytes);
  send.packed = packed;
  return post(std::move(send));
}

void ScaleComm::spend_copying(double seconds) {
  record_.copy_seconds += seconds;
  state_.clock += seconds;
}

Request ScaleComm::irecv(int peer, Pieces pieces) {
  const Bytes expected = run_.check_sizes ? total_bytes(pieces) : -1;
  return post(message(true, Kind::data, peer, expected));
}

// The count is all a sizes message needs: the list is enumerated only to check it, under
// simulation.check_sizes.
Request ScaleComm::isend_sizes(int peer, std::int64_t count, BlockList blocks) {
  if (run_.check_sizes) list_counted(count, blocks, [](BlockId) {});
  ++record_.stats.meta_messages;
  record_.stats.meta_bytes += count * kValueBytes;
  return post(message(false, Kind::sizes, peer, count));
}

Request ScaleComm::irecv_sizes(int peer, std::int64_t count, BlockList blocks) {
  if (run_.check_sizes) list_counted(count, blocks, [](BlockId) {});
  return post(message(true, Kind::sizes, peer, run_.check_sizes ? count : -1));
}

Request ScaleComm::isend_values(int peer, std::span<const std::int64_t> values) {
  ++record_.stats.meta_messages;
  record_.stats.meta_bytes += static_cast<Bytes>(values.size()) * kValueBytes;
  return post_values(message(false, Kind::values, peer, static_cast<Bytes>(values.size())), values);
}

Request ScaleComm::irecv_values(int peer, std::span<std::int64_t> out) {
  const Request request = post(message(true, Kind::values, peer, static_cast<Bytes>(out.size())));
  expect_values(request, out);
  return request;
}

void ScaleComm::wait(Request request) {
  if (request.id < 0 || request.id >= static_cast<int>(state_.slots.size()) ||
      !state_.slots[static_cast<size_t>(request.id)].busy) {
    throw ContractViolation("wait on a request that is not outstanding");
  }
  wait_slot(request.id, RankState::Waiting::request);
}

void ScaleComm::wait_slot(int id, RankState::Waiting why) {
  // The event loop never resizes our slots while we are suspended, but index them anyway.
  const auto index = static_cast<size_t>(id);
  if (!state_.slots[index].done) {
    state_.blocked_on = id;
    state_.waiting = why;
    while (!state_.slots[index].done)
      run_.fibers->suspend(rank_);
  }
  finish_slot(id);
}

void ScaleComm::finish_slot(int id) {
  Slot& slot = state_.slots[static_cast<size_t>(id)];
  if (slot.done_at > state_.clock) {
    record_.wait_seconds += slot.done_at - state_.clock;
    state_.clock = slot.done_at;
  }
  const double unpack = take_extras(id);
  if (unpack > 0) spend_copying(unpack);
  slot = Slot{};
  state_.free_slots.push_back(id);
}

double ScaleComm::take_extras(int id) {
  if (!state_.slots[static_cast<size_t>(id)].extras) return 0;
  double unpack = 0;
  const auto found = state_.unpack_seconds.find(id);
  if (found != state_.unpack_seconds.end()) {
    unpack = found->second;
    state_.unpack_seconds.erase(found);
  }
  state_.value_outs.erase(id);
  return unpack;
}

void ScaleComm::expect_values(Request request, std::span<std::int64_t> out) {
  state_.value_outs.insert_or_assign(request.id, out);
  state_.slots[static_cast<size_t>(request.id)].extras = true;
}

void ScaleComm::wait_all() {
  // One wake-up, when the last request in flight is done: suspending for each in turn cost a
  // fiber switch per request, the largest item in profiles of many-round runs.
  if (state_.in_flight > 0) {
    state_.blocked_on = RankState::kAllSlots;
    state_.waiting = RankState::Waiting::all;
    while (state_.in_flight > 0)
      run_.fibers->suspend(rank_);
  }
  for (int id = 0; id < static_cast<int>(state_.slots.size()); ++id) {
    if (state_.slots[static_cast<size_t>(id)].busy) finish_slot(id);
  }
}

std::string describe_wait(const RankState& state) {
  const auto slot_of = [&](int id) -> const Slot& { return state.slots[static_cast<size_t>(id)]; };
  switch (state.waiting) {
    case RankState::Waiting::nothing:
      return {};
    case RankState::Waiting::request:
      return std::string(slot_of(state.blocked_on).receive ? "receive from " : "send to ") +
             std::to_string(slot_of(state.blocked_on).peer);
    case RankState::Waiting::allreduce:
      return "allreduce_max: receive from " + std::to_string(slot_of(state.blocked_on).peer);
    case RankState::Waiting::all:
      break;
  }
  // Described like the SimGrid engine's wait_all.
  std::string what;
  int count = 0;
  for (const Slot& slot : state.slots) {
    if (!slot.busy) continue;
    ++count;
    if (what.size() < 80) {
      what += (what.empty() ? "" : ", ") + std::string(slot.receive ? "recv<" : "send>") +
              std::to_string(slot.peer);
    }
  }
  return "wait_all on " + std::to_string(count) + " requests (" + what + ")";
}

int ScaleComm::outstanding() const {
  return static_cast<int>(std::count_if(state_.slots.begin(), state_.slots.end(),
                                        [](const Slot& s) { return s.busy; }));
}

void ScaleComm::copy(Moves moves) {
  charge_copy(total_bytes(moves));
}

void ScaleComm::copy_runs(BlockRuns runs, Moves moves) {
  charge_copy(run_bytes(
      runs, [&] { return described(moves); }, "a copy"));
}

void ScaleComm::charge_copy(Bytes bytes) {
  record_.stats.copy_bytes += bytes;
  const double bandwidth = run_.platform->memory_copy_bandwidth;
  if (bandwidth > 0 && bytes > 0) spend_copying(static_cast<double>(bytes) / bandwidth);
}

Bytes ScaleComm::allreduce_max(Bytes value) {
  // Dissemination, as in the SimGrid engine: after round k every rank holds the maximum over
  // 2^(k+1) consecutive ranks.
  for (std::int64_t distance = 1; distance < size(); distance *= 2) {
    const int to = static_cast<int>(mod(rank_ + distance, size()));
    const int from = static_cast<int>(mod(rank_ - distance, size()));
    std::int64_t incoming = 0;
    const Request sent = post_values(message(false, Kind::collective, to, 1),
                                     std::span<const std::int64_t>(&value, 1));
    const Request received = post(message(true, Kind::collective, from, 1));
    expect_values(received, std::span<std::int64_t>(&incoming, 1));
    wait_slot(received.id, RankState::Waiting::allreduce);
    value = std::max(value, incoming);
    wait_slot(sent.id, RankState::Waiting::request);
  }
  return value;
}

void ScaleComm::barrier() {
  struct Ops {
    ScaleComm& comm;
    Request post(bool receive, int peer, bool mpi) {
      return comm.post(message(receive, Kind::collective, peer, 0), mpi);
    }
    void wait(Request request) { comm.wait_slot(request.id, RankState::Waiting::request); }
  } ops{*this};
  smp_barrier(rank_, size(), ranks_per_node(), ops);
}

void ScaleComm::vendor_alltoallv() {
  if (!run_.vendor_alltoallv) throw ContractViolation("no vendor algorithm configured");
  run_.vendor_alltoallv->algorithm->run(*this, run_.vendor_alltoallv->params);
}

void ScaleComm::vendor_alltoall(int send_temp, int recv_temp, Bytes block) {
  linear_vendor_alltoall(*this, send_temp, recv_temp, block);
}

void ScaleComm::set_phase(const char* label) {
  phases_.switch_to(label, state_.clock, record_, traced());
}

void ScaleComm::finish_phases() {
  phases_.finish(state_.clock, record_, traced());
}

}  // namespace a2a::sim::scale
