#include "sim/simgrid/sim_comm.hpp"

#include <algorithm>
#include <string>

#include "algorithms/digits.hpp"
#include "algorithms/errors.hpp"
#include "sim/free_list.hpp"
#include "sim/smp_barrier.hpp"
#include "sim/vendor_model.hpp"

namespace sg4 = simgrid::s4u;

namespace a2a::sim {

namespace {
constexpr Bytes kValueBytes = sizeof(std::int64_t);
}  // namespace

sg4::Mailbox* World::mailbox(int src, int dst, int kind) {
  const std::uint64_t key = (static_cast<std::uint64_t>(src) << 34) |
                            (static_cast<std::uint64_t>(dst) << 2) |
                            static_cast<std::uint64_t>(kind);
  auto it = mailboxes_.find(key);
  if (it != mailboxes_.end()) return it->second;
  sg4::Mailbox* box = sg4::Mailbox::by_name(std::to_string(src) + ">" + std::to_string(dst) + "#" +
                                            std::to_string(kind));
  mailboxes_.emplace(key, box);
  return box;
}

SimComm::SimComm(World& world, int rank)
    : world_(world),
      rank_(rank),
      record_(world.records[rank]),
      host_(world.host_of(rank)),
      phases_(sg4::Engine::get_clock()) {
  if (world.payload) {
    RankPayload& payload = world.payloads[rank];
    buffers_ = std::make_unique<PayloadBuffers>(payload.layout, payload.buffers.send.data(),
                                                payload.buffers.recv.data(), record_.stats);
    sizes_ = std::make_unique<KnownSizes>(payload.layout, rank);
  }
}

SimComm::~SimComm() {
  // Only reached with requests outstanding when a run failed (an error, or SimGrid killing blocked
  // actors after a deadlock). SimGrid 3.32 aborts if a started communication is dropped or
  // detached, so they are parked in a holder that is never destroyed: after a failed run the
  // simulation is over and the process exits.
  static auto* parked = new std::vector<sg4::CommPtr>();
  for (Slot& slot : slots_) {
    if (slot.busy && slot.comm) parked->push_back(std::move(slot.comm));
  }
}

Bytes SimComm::block_bytes(BlockId block) const {
  if (sizes_) return sizes_->get(block);
  return world_.workload->count(block.src, block.dst) * world_.workload->element_bytes();
}

Bytes SimComm::max_send_block_bytes() const {
  Bytes largest = 0;
  for (int d = 0; d < size(); ++d)
    largest = std::max(largest, block_bytes({rank_, d}));
  return largest;
}

std::optional<Bytes> SimComm::uniform_block_bytes() const {
  if (!world_.workload->uniform()) return std::nullopt;
  return world_.workload->count(0, 0) * world_.workload->element_bytes();
}

void SimComm::sleep(double seconds) {
  if (seconds > 0) sg4::this_actor::sleep_for(seconds);
}

void SimComm::charge_overhead() {
  sleep(world_.platform->message_overhead);
}

int SimComm::take_slot() {
  return reuse_or_append(slots_, free_slots_);
}

int SimComm::outstanding() const {
  return static_cast<int>(
      std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.busy; }));
}

Request SimComm::post_send(int peer, Kind kind, std::unique_ptr<SimMessage> message, bool mpi) {
  if (peer < 0 || peer >= size()) {
    throw ContractViolation("send to rank " + std::to_string(peer) + " of " +
                            std::to_string(size()));
  }
  if (mpi) charge_overhead();
  const int id = take_slot();
  Slot& slot = slots_[id];
  slot = Slot{};
  slot.busy = true;
  slot.kind = kind;
  slot.peer = peer;
  const Bytes simulated = kind == Kind::data
                              ? message->bytes
                              : static_cast<Bytes>(message->values.size()) * kValueBytes;
  slot.comm = world_.mailbox(rank_, peer, static_cast<int>(kind))
                  ->put_async(message.release(), static_cast<std::uint64_t>(simulated));
  return {id};
}

Request SimComm::post_receive(int peer, Kind kind, Slot&& prepared, bool mpi) {
  if (peer < 0 || peer >= size()) {
    throw ContractViolation("receive from rank " + std::to_string(peer) + " of " +
                            std::to_string(size()));
  }
  if (mpi) charge_overhead();
  const int id = take_slot();
  Slot& slot = slots_[id];
  slot = std::move(prepared);
  slot.busy = true;
  slot.receive = true;
  slot.kind = kind;
  slot.peer = peer;
  slot.comm =
      world_.mailbox(peer, rank_, static_cast<int>(kind))->get_async<SimMessage>(&slot.incoming);
  return {id};
}

Request SimComm::isend(int peer, Pieces pieces) {
  auto message = std::make_unique<SimMessage>();
  if (buffers_) {
    message->bytes = buffers_->pack(pieces, message->data);
  } else {
    pieces([&](const Piece& piece) { message->bytes += piece.bytes; });
  }
  ++record_.stats.messages;
  record_.stats.bytes_sent += message->bytes;
  (world_.same_node(rank_, peer) ? record_.intra_node_bytes : record_.inter_node_bytes) +=
      message->bytes;
  return post_send(peer, Kind::data, std::move(message));
}

Request SimComm::irecv(int peer, Pieces pieces) {
  Slot slot;
  if (buffers_) {
    slot.expected = PayloadBuffers::collect(pieces, slot.pieces);
    for (const Piece& piece : slot.pieces)
      buffers_->writable(piece.at, piece.bytes);  // bounds
  } else {
    pieces([&](const Piece& piece) { slot.expected += piece.bytes; });
  }
  return post_receive(peer, Kind::data, std::move(slot));
}

Request SimComm::isend_sizes(int peer, std::int64_t count, BlockList blocks) {
  auto message = std::make_unique<SimMessage>();
  // Size-only mode sends placeholders: the receiver answers sizes from the workload, but the
  // message must still have one 8-byte value per block to cost what it costs on MPI.
  list_counted(count, blocks,
               [&](BlockId block) { message->values.push_back(sizes_ ? sizes_->get(block) : 0); });
  ++record_.stats.meta_messages;
  record_.stats.meta_bytes += static_cast<Bytes>(message->values.size()) * kValueBytes;
  return post_send(peer, Kind::sizes, std::move(message));
}

Request SimComm::irecv_sizes(int peer, std::int64_t count, BlockList blocks) {
  Slot slot;
  list_counted(count, blocks, [&](BlockId block) {
    ++slot.expected;
    if (sizes_) slot.blocks.push_back(block);
  });
  return post_receive(peer, Kind::sizes, std::move(slot));
}

Request SimComm::isend_values(int peer, std::span<const std::int64_t> values) {
  auto message = std::make_unique<SimMessage>();
  message->values.assign(values.begin(), values.end());
  ++record_.stats.meta_messages;
  record_.stats.meta_bytes += static_cast<Bytes>(values.size()) * kValueBytes;
  return post_send(peer, Kind::values, std::move(message));
}

Request SimComm::irecv_values(int peer, std::span<std::int64_t> out) {
  Slot slot;
  slot.expected = static_cast<Bytes>(out.size());
  slot.values = out;
  return post_receive(peer, Kind::values, std::move(slot));
}

void SimComm::complete(int id) {
  Slot& slot = slots_[id];
  if (slot.receive) {
    std::unique_ptr<SimMessage> message(slot.incoming);
    const Bytes got =
        slot.kind == Kind::data ? message->bytes : static_cast<Bytes>(message->values.size());
    if (got != slot.expected) {
      throw ContractViolation("rank " + std::to_string(rank_) + " expected " +
                              std::to_string(slot.expected) +
                              (slot.kind == Kind::data ? " bytes" : " sizes") + " from rank " +
                              std::to_string(slot.peer) + " but it sent " + std::to_string(got));
    }
    if (buffers_ && slot.kind == Kind::data) buffers_->unpack(slot.pieces, message->data.data());
    if (slot.kind == Kind::values) {
      std::copy(message->values.begin(), message->values.end(), slot.values.begin());
    }
    if (sizes_ && slot.kind == Kind::sizes) {
      for (size_t i = 0; i < slot.blocks.size(); ++i)
        sizes_->learn(slot.blocks[i], message->values[i]);
    }
  }
  slot = Slot{};
  free_slots_.push_back(id);
}

void SimComm::wait(Request request) {
  if (request.id < 0 || request.id >= static_cast<int>(slots_.size()) || !slots_[request.id].busy) {
    throw ContractViolation("wait on a request that is not outstanding");
  }
  const Slot& slot = slots_[request.id];
  blocked_on(std::string(slot.receive ? "receive from " : "send to ") + std::to_string(slot.peer));
  const double start = sg4::Engine::get_clock();
  slot.comm->wait();
  record_.wait_seconds += sg4::Engine::get_clock() - start;
  record_.waiting_for.clear();
  complete(request.id);
}

void SimComm::wait_all() {
  std::vector<sg4::CommPtr> comms;
  std::vector<int> ids;
  std::string what;
  for (int id = 0; id < static_cast<int>(slots_.size()); ++id) {
    if (!slots_[id].busy) continue;
    comms.push_back(slots_[id].comm);
    ids.push_back(id);
    if (what.size() < 80) {
      what += (what.empty() ? "" : ", ") + std::string(slots_[id].receive ? "recv<" : "send>") +
              std::to_string(slots_[id].peer);
    }
  }
  blocked_on("wait_all on " + std::to_string(ids.size()) + " requests (" + what + ")");
  const double start = sg4::Engine::get_clock();
  sg4::Comm::wait_all(comms);
  record_.wait_seconds += sg4::Engine::get_clock() - start;
  record_.waiting_for.clear();
  for (int id : ids)
    complete(id);
}

void SimComm::copy(Moves moves) {
  Bytes bytes = 0;
  if (buffers_) {
    bytes = buffers_->copy(moves);
  } else {
    moves([&](const Move& move) { bytes += move.bytes; });
  }
  record_.stats.copy_bytes += bytes;
  const double bandwidth = world_.platform->memory_copy_bandwidth;
  if (bandwidth > 0 && bytes > 0) {
    const double seconds = static_cast<double>(bytes) / bandwidth;
    record_.copy_seconds += seconds;
    sleep(seconds);
  }
}

int SimComm::alloc_temp(Bytes bytes) {
  if (buffers_) return buffers_->alloc_temp(bytes);
  return temps_.alloc(bytes, record_.stats);
}

void SimComm::free_temp(int buffer) {
  if (buffers_) {
    buffers_->free_temp(buffer);
    return;
  }
  temps_.free(buffer);
}

Bytes SimComm::allreduce_max(Bytes value) {
  // Dissemination: after round k every rank holds the maximum over 2^(k+1) consecutive ranks.
  for (std::int64_t distance = 1; distance < size(); distance *= 2) {
    auto message = std::make_unique<SimMessage>();
    message->values = {value};
    const int to = static_cast<int>(mod(rank_ + distance, size()));
    const int from = static_cast<int>(mod(rank_ - distance, size()));
    const Request sent = post_send(to, Kind::collective, std::move(message));
    Slot slot;
    slot.expected = 1;
    const Request received = post_receive(from, Kind::collective, std::move(slot));
    SimMessage* incoming = nullptr;
    {
      Slot& in = slots_[received.id];
      blocked_on("allreduce_max: receive from " + std::to_string(from));
      in.comm->wait();
      incoming = in.incoming;
      value = std::max(value, incoming->values.at(0));
    }
    complete(received.id);
    slots_[sent.id].comm->wait();
    complete(sent.id);
    record_.waiting_for.clear();
  }
  return value;
}

void SimComm::barrier() {
  struct Ops {
    SimComm& comm;
    Request post(bool receive, int peer, bool mpi) {
      if (receive) return comm.post_receive(peer, Kind::collective, Slot{}, mpi);
      return comm.post_send(peer, Kind::collective, std::make_unique<SimMessage>(), mpi);
    }
    void wait(Request request) { comm.wait(request); }
  } ops{*this};
  smp_barrier(rank_, size(), ranks_per_node(), ops);
}

void SimComm::vendor_alltoallv() {
  if (!world_.vendor_alltoallv) throw ContractViolation("no vendor algorithm configured");
  const Configuration& vendor = *world_.vendor_alltoallv;
  vendor.algorithm->run(*this, vendor.params);
}

void SimComm::vendor_alltoall(int send_temp, int recv_temp, Bytes block) {
  linear_vendor_alltoall(*this, send_temp, recv_temp, block);
}

void SimComm::group_begin() {
  sleep(world_.platform->group_launch_overhead);
}

void SimComm::set_phase(const char* label) {
  phases_.switch_to(label, sg4::Engine::get_clock(), record_, rank_ < world_.trace_ranks);
}

void SimComm::finish_phases() {
  phases_.finish(sg4::Engine::get_clock(), record_, rank_ < world_.trace_ranks);
}

}  // namespace a2a::sim
