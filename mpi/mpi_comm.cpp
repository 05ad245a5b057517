#include "mpi/mpi_comm.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "algorithms/errors.hpp"
#include "mpi/deadline.hpp"
#include "mpi/mpi_error.hpp"

namespace a2a::mpi {

namespace {

constexpr int kDataTag = 1;
constexpr int kMetaTag = 2;
constexpr int kValuesTag = 3;

constexpr auto check = check_mpi;

// A committed datatype of exactly `bytes` bytes, for messages over INT_MAX bytes (MPI counts are
// int). Built as whole 1 GiB chunks plus a remainder.
MPI_Datatype make_bytes_type(Bytes bytes) {
  constexpr Bytes kChunk = Bytes{1} << 30;
  MPI_Datatype chunk, chunks, remainder, whole;
  MPI_Type_contiguous(static_cast<int>(kChunk), MPI_BYTE, &chunk);
  MPI_Type_contiguous(static_cast<int>(bytes / kChunk), chunk, &chunks);
  MPI_Type_contiguous(static_cast<int>(bytes % kChunk), MPI_BYTE, &remainder);
  int lengths[2] = {1, 1};
  MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(bytes / kChunk * kChunk)};
  MPI_Datatype types[2] = {chunks, remainder};
  MPI_Type_create_struct(2, lengths, displacements, types, &whole);
  MPI_Type_commit(&whole);
  MPI_Type_free(&chunk);
  MPI_Type_free(&chunks);
  MPI_Type_free(&remainder);
  return whole;
}

}  // namespace

Bytes parse_pool_cap(const std::string& text) {
  std::size_t used = 0;
  long long value = -1;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string suffix = text.substr(used);
  const int shift = suffix.empty()  ? 0
                    : suffix == "K" ? 10
                    : suffix == "M" ? 20
                    : suffix == "G" ? 30
                                    : -1;
  if (used == 0 || value < 0 || shift < 0 || value > (LLONG_MAX >> shift)) {
    throw InvalidParameter("pool cap '" + text +
                           "' is not a byte count (a number, optionally with K, M or G)");
  }
  return static_cast<Bytes>(value) << shift;
}

Context::Context(MPI_Comm parent, int ranks_per_node, Bytes pool_cap) : pool_(pool_cap) {
  check(MPI_Comm_dup(parent, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  if (ranks_per_node > 0) {
    ranks_per_node_ = ranks_per_node;
    return;
  }
  MPI_Comm node;
  MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
  int local_rank = 0, local_size = 1;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_size(node, &local_size);
  MPI_Comm_free(&node);
  // Nodes filled in blocks: every node has the same size and local rank = rank mod size.
  int blocked = (local_rank == rank_ % local_size) ? 1 : 0;
  int sizes[2] = {local_size, -local_size};
  MPI_Allreduce(MPI_IN_PLACE, &blocked, 1, MPI_INT, MPI_LAND, comm_);
  MPI_Allreduce(MPI_IN_PLACE, sizes, 2, MPI_INT, MPI_MAX, comm_);
  const bool equal = sizes[0] == -sizes[1];
  ranks_per_node_ = (blocked && equal) ? local_size : 1;
}

Context::~Context() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

MpiComm::MpiComm(const Context& context, const ExchangeLayout& layout, const void* send, void* recv)
    : context_(context),
      layout_(layout),
      buffers_(layout, static_cast<const std::byte*>(send), static_cast<std::byte*>(recv), stats_,
               &context.pool()),
      sizes_(layout, context.rank()) {
  // validate_layout() is the caller's job (once per exchange, outside any timed region).
  if (layout.ranks() != context.size()) {
    throw InvalidParameter("exchange describes " + std::to_string(layout.ranks()) +
                           " ranks but the communicator has " + std::to_string(context.size()));
  }
}

MpiComm::~MpiComm() {
  // Only reached with requests outstanding when an algorithm threw; the tools abort the job then.
  for (Slot& slot : slots_) {
    if (slot.busy && slot.request != MPI_REQUEST_NULL) MPI_Request_free(&slot.request);
  }
}

Bytes MpiComm::max_send_block_bytes() const {
  Bytes largest = 0;
  for (int d = 0; d < size(); ++d)
    largest = std::max(largest, layout_.send_bytes(d));
  return largest;
}

int MpiComm::outstanding() const {
  return static_cast<int>(
      std::count_if(slots_.begin(), slots_.end(), [](const Slot& s) { return s.busy; }));
}

int MpiComm::take_slot(Kind kind, int peer) {
  int id;
  if (!free_slots_.empty()) {
    id = free_slots_.back();
    free_slots_.pop_back();
  } else {
    id = static_cast<int>(slots_.size());
    slots_.emplace_back();
  }
  Slot& slot = slots_[id];
  slot.kind = kind;
  slot.peer = peer;
  slot.busy = true;
  slot.request = MPI_REQUEST_NULL;
  return id;
}

void MpiComm::check_peer(int peer) const {
  if (peer < 0 || peer >= size()) {
    throw ContractViolation("message to or from rank " + std::to_string(peer) + " of " +
                            std::to_string(size()));
  }
}

void MpiComm::post(void* data, Bytes bytes, int peer, int tag, bool receive, MPI_Request* request) {
  MPI_Datatype type = MPI_BYTE;
  int count = static_cast<int>(bytes);
  if (bytes > INT_MAX) {
    type = make_bytes_type(bytes);
    count = 1;
  }
  if (receive) {
    check(MPI_Irecv(data, count, type, peer, tag, context_.comm(), request), "MPI_Irecv");
  } else {
    check(MPI_Isend(data, count, type, peer, tag, context_.comm(), request), "MPI_Isend");
  }
  if (type != MPI_BYTE) MPI_Type_free(&type);  // freed when the operation completes
}

void MpiComm::track_staging(Bytes delta) {
  staging_in_use_ += delta;
  stats_.staging_peak = std::max(stats_.staging_peak, staging_in_use_);
}

std::byte* MpiComm::stage(Slot& slot, Bytes bytes) {
  slot.staging = context_.pool().acquire(bytes);
  slot.staging_bytes = bytes;
  track_staging(bytes);
  return slot.staging.data();
}

Request MpiComm::isend(int peer, Pieces pieces) {
  check_peer(peer);
  const int id = take_slot(Kind::send, peer);
  Slot& slot = slots_[id];
  // A single contiguous piece is sent in place; anything else is packed.
  std::vector<Piece>& list = slot.pieces;
  const Bytes total = PayloadBuffers::collect(pieces, list);
  void* data = nullptr;
  if (list.size() == 1) {
    data = const_cast<std::byte*>(buffers_.readable(list[0].at, list[0].bytes));
  } else {
    std::byte* to = stage(slot, total);
    data = to;
    for (const Piece& piece : list) {
      const std::byte* from = buffers_.readable(piece.at, piece.bytes);
      if (piece.bytes > 0) std::memcpy(to, from, static_cast<std::size_t>(piece.bytes));
      to += piece.bytes;
    }
  }
  list.clear();
  post(data, total, peer, kDataTag, false, &slot.request);
  ++stats_.messages;
  stats_.bytes_sent += total;
  return {id};
}

Request MpiComm::irecv(int peer, Pieces pieces) {
  check_peer(peer);
  const int id = take_slot(Kind::recv, peer);
  Slot& slot = slots_[id];
  const Bytes total = PayloadBuffers::collect(pieces, slot.pieces);
  void* data = nullptr;
  if (slot.pieces.size() == 1) {
    data = buffers_.writable(slot.pieces[0].at, slot.pieces[0].bytes);
    slot.pieces.clear();  // nothing to unpack
  } else {
    for (const Piece& piece : slot.pieces)
      buffers_.writable(piece.at, piece.bytes);  // bounds
    data = stage(slot, total);
  }
  post(data, total, peer, kDataTag, true, &slot.request);
  return {id};
}

Request MpiComm::isend_sizes(int peer, std::int64_t count, BlockList blocks) {
  check_peer(peer);
  const int id = take_slot(Kind::send_sizes, peer);
  Slot& slot = slots_[id];
  slot.sizes.clear();
  list_counted(count, blocks, [&](BlockId block) { slot.sizes.push_back(sizes_.get(block)); });
  const Bytes bytes = static_cast<Bytes>(slot.sizes.size() * sizeof(std::int64_t));
  post(slot.sizes.data(), bytes, peer, kMetaTag, false, &slot.request);
  ++stats_.meta_messages;
  stats_.meta_bytes += bytes;
  return {id};
}

Request MpiComm::irecv_sizes(int peer, std::int64_t count, BlockList blocks) {
  check_peer(peer);
  const int id = take_slot(Kind::recv_sizes, peer);
  Slot& slot = slots_[id];
  slot.blocks.clear();
  list_counted(count, blocks, [&](BlockId block) { slot.blocks.push_back(block); });
  slot.sizes.resize(slot.blocks.size());
  post(slot.sizes.data(), static_cast<Bytes>(slot.sizes.size() * sizeof(std::int64_t)), peer,
       kMetaTag, true, &slot.request);
  return {id};
}

Request MpiComm::isend_values(int peer, std::span<const std::int64_t> values) {
  check_peer(peer);
  const int id = take_slot(Kind::send_values, peer);
  Slot& slot = slots_[id];
  slot.sizes.assign(values.begin(), values.end());
  const Bytes bytes = static_cast<Bytes>(slot.sizes.size() * sizeof(std::int64_t));
  post(slot.sizes.data(), bytes, peer, kValuesTag, false, &slot.request);
  ++stats_.meta_messages;
  stats_.meta_bytes += bytes;
  return {id};
}

Request MpiComm::irecv_values(int peer, std::span<std::int64_t> out) {
  check_peer(peer);
  const int id = take_slot(Kind::recv_values, peer);
  post(out.data(), static_cast<Bytes>(out.size() * sizeof(std::int64_t)), peer, kValuesTag, true,
       &slots_[id].request);
  return {id};
}

void MpiComm::finish(int id) {
  Slot& slot = slots_[id];
  switch (slot.kind) {
    case Kind::send:
      break;
    case Kind::recv:
      if (!slot.pieces.empty()) buffers_.unpack(slot.pieces, slot.staging.data());
      break;
    case Kind::send_sizes:
    case Kind::send_values:
    case Kind::recv_values:
      break;
    case Kind::recv_sizes:
      for (size_t i = 0; i < slot.blocks.size(); ++i)
        sizes_.learn(slot.blocks[i], slot.sizes[i]);
      break;
  }
  if (slot.staging) track_staging(-slot.staging_bytes);
  slot.staging = TempLease();
  slot.staging_bytes = 0;
  slot.pieces.clear();
  slot.busy = false;
  free_slots_.push_back(id);
}

void MpiComm::wait(Request request) {
  if (request.id < 0 || request.id >= static_cast<int>(slots_.size()) || !slots_[request.id].busy) {
    throw ContractViolation("wait on a request that is not outstanding");
  }
  if (!wait_all_until({&slots_[request.id].request, 1}, deadline_)) {
    throw TimedOut(pending_text(request.id));
  }
  finish(request.id);
}

void MpiComm::wait_all() {
  std::vector<MPI_Request> requests;
  std::vector<int> ids;
  for (int id = 0; id < static_cast<int>(slots_.size()); ++id) {
    if (!slots_[id].busy) continue;
    requests.push_back(slots_[id].request);
    ids.push_back(id);
  }
  if (!wait_all_until(requests, deadline_)) {
    // Nothing was completed (MPI_Testall is all or nothing): name the first request still pending.
    int pending = 0, first = -1;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      int done = 0;
      MPI_Request_get_status(requests[i], &done, MPI_STATUS_IGNORE);
      if (!done && pending++ == 0) first = ids[i];
    }
    throw TimedOut(pending_text(first < 0 ? ids.front() : first) +
                   (pending > 1 ? " and " + std::to_string(pending - 1) + " more" : ""));
  }
  for (int id : ids) {
    slots_[id].request = MPI_REQUEST_NULL;
    finish(id);
  }
}

std::string MpiComm::pending_text(int id) const {
  const Slot& slot = slots_[id];
  const char* what = "";
  switch (slot.kind) {
    case Kind::send:
      what = "a send to rank ";
      break;
    case Kind::recv:
      what = "a receive from rank ";
      break;
    case Kind::send_sizes:
    case Kind::send_values:
      what = "a metadata send to rank ";
      break;
    case Kind::recv_sizes:
    case Kind::recv_values:
      what = "a metadata receive from rank ";
      break;
  }
  return what + std::to_string(slot.peer);
}

void MpiComm::wait_collective(MPI_Request& request, const char* call) {
  if (!wait_all_until({&request, 1}, deadline_)) throw TimedOut(std::string("in ") + call);
}

void MpiComm::copy(Moves moves) {
  stats_.copy_bytes += buffers_.copy(moves);
}

Bytes MpiComm::allreduce_max(Bytes value) {
  std::int64_t in = value, out = 0;
  if (deadline_.set()) {  // non-blocking, so that a rank that never joins is reported
    MPI_Request request;
    check(MPI_Iallreduce(&in, &out, 1, MPI_INT64_T, MPI_MAX, context_.comm(), &request),
          "MPI_Iallreduce");
    wait_collective(request, "MPI_Iallreduce");
    return out;
  }
  check(MPI_Allreduce(&in, &out, 1, MPI_INT64_T, MPI_MAX, context_.comm()), "MPI_Allreduce");
  return out;
}

void MpiComm::barrier() {
  if (deadline_.set()) {  // non-blocking, so that a rank that never joins is reported
    MPI_Request request;
    check(MPI_Ibarrier(context_.comm(), &request), "MPI_Ibarrier");
    wait_collective(request, "MPI_Ibarrier");
    return;
  }
  check(MPI_Barrier(context_.comm()), "MPI_Barrier");
}

void MpiComm::vendor_alltoallv() {
  const int P = size();
  std::vector<int> sc(P), sd(P), rc(P), rd(P);
  auto narrow = [](std::int64_t v, const char* what) {
    if (v > INT_MAX) {
      throw NotApplicable(std::string("vendor MPI_Alltoallv takes int ") + what +
                          "; this exchange has " + std::to_string(v));
    }
    return static_cast<int>(v);
  };
  for (int i = 0; i < P; ++i) {
    sc[i] = narrow(layout_.sendcounts[i], "counts");
    sd[i] = narrow(layout_.sdispls[i], "displacements");
    rc[i] = narrow(layout_.recvcounts[i], "counts");
    rd[i] = narrow(layout_.rdispls[i], "displacements");
  }
  MPI_Datatype element;
  MPI_Type_contiguous(static_cast<int>(layout_.extent), MPI_BYTE, &element);
  MPI_Type_commit(&element);
  const void* send = buffers_.send_buffer();
  void* recv = buffers_.recv_buffer();
  // PMPI_: the vendor's own call even when liba2a_pmpi.so interposes MPI_Alltoallv.
  if (deadline_.set()) {  // non-blocking, so that a rank that never joins is reported
    MPI_Request request;
    const int code = PMPI_Ialltoallv(send, sc.data(), sd.data(), element, recv, rc.data(),
                                     rd.data(), element, context_.comm(), &request);
    MPI_Type_free(&element);  // released by MPI once the operation completes
    check(code, "MPI_Ialltoallv");
    wait_collective(request, "MPI_Ialltoallv");
  } else {
    const int code = PMPI_Alltoallv(send, sc.data(), sd.data(), element, recv, rc.data(), rd.data(),
                                    element, context_.comm());
    MPI_Type_free(&element);
    check(code, "MPI_Alltoallv");
  }
  for (int i = 0; i < P; ++i) {
    if (i != rank()) {
      ++stats_.messages;
      stats_.bytes_sent += layout_.send_bytes(i);
    }
  }
  ++stats_.rounds;
}

void MpiComm::vendor_alltoall(int send_temp, int recv_temp, Bytes block) {
  const Bytes total = block * size();
  const std::byte* send = buffers_.readable(Place::temp(send_temp, 0), total);
  std::byte* recv = buffers_.writable(Place::temp(recv_temp, 0), total);
  MPI_Datatype type = MPI_BYTE;
  int count = static_cast<int>(block);
  if (block > INT_MAX) {
    type = make_bytes_type(block);
    count = 1;
  }
  MPI_Request request = MPI_REQUEST_NULL;
  const int code =
      deadline_.set()  // non-blocking, so that a rank that never joins is reported
          ? PMPI_Ialltoall(send, count, type, recv, count, type, context_.comm(), &request)
          : PMPI_Alltoall(send, count, type, recv, count, type, context_.comm());
  if (type != MPI_BYTE) MPI_Type_free(&type);
  check(code, "MPI_Alltoall");
  if (request != MPI_REQUEST_NULL) wait_collective(request, "MPI_Ialltoall");
  stats_.messages += size() - 1;
  stats_.bytes_sent += block * (size() - 1);
  ++stats_.rounds;
}

}  // namespace a2a::mpi
