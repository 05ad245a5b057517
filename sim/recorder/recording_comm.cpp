#include "sim/recorder/recording_comm.hpp"

#include <algorithm>
#include <string>

#include "algorithms/errors.hpp"
#include "sim/vendor_model.hpp"

namespace a2a::sim::recorder {

namespace {

std::string block_name(int src, int dst) {
  return std::to_string(src) + "->" + std::to_string(dst);
}

std::string place_name(Place place) {
  static const char* const areas[] = {"send block", "receive block", "temporary", "receive buffer"};
  return std::string(areas[static_cast<int>(place.area)]) + " " + std::to_string(place.index) +
         " at offset " + std::to_string(place.offset);
}

int block_count(const Segments& segments) {
  return static_cast<int>(
      std::count_if(segments.begin(), segments.end(), [](const Segment& s) { return !s.hole(); }));
}

}  // namespace

void RunLog::post(int src, int dst, std::int64_t sequence, Segments contents) {
  in_flight_[{src, dst, sequence}] = std::move(contents);
}

Segments RunLog::take(int src, int dst, std::int64_t sequence) {
  auto it = in_flight_.find({src, dst, sequence});
  if (it == in_flight_.end()) {
    throw ContractViolation("recorder: rank " + std::to_string(dst) + " received message " +
                            std::to_string(sequence) + " from rank " + std::to_string(src) +
                            " that was never sent");
  }
  Segments out = std::move(it->second);
  in_flight_.erase(it);
  return out;
}

RecordingComm::RecordingComm(Comm& inner, RunLog& log, const ExchangeLayout& layout,
                             double (*clock)(), const Configuration* vendor)
    : ForwardingComm(inner),
      log_(log),
      layout_(layout),
      clock_(clock),
      vendor_(vendor),
      rank_(inner.rank()),
      send_(layout.send_buffer_bytes()),
      recv_(layout.recv_buffer_bytes()),
      sent_to_(static_cast<size_t>(inner.size()), 0),
      received_from_(static_cast<size_t>(inner.size()), 0) {
  for (int d = 0; d < layout.ranks(); ++d) {
    send_.write(layout.sdispls[d] * layout.extent, {{rank_, d, 0, layout.send_bytes(d)}});
  }
}

RecordingComm::Where RecordingComm::resolve(Place place) const {
  switch (place.area) {
    case Place::Area::send_block:
      return {Buffer::send, 0, layout_.sdispls.at(place.index) * layout_.extent + place.offset};
    case Place::Area::recv_block:
      return {Buffer::recv, 0, layout_.rdispls.at(place.index) * layout_.extent + place.offset};
    case Place::Area::recv_buffer:
      return {Buffer::recv, 0, place.offset};
    case Place::Area::temp:
      break;
  }
  return {Buffer::temp, place.index, place.offset};
}

BufferContents& RecordingComm::contents(const Where& where) {
  if (where.buffer == Buffer::send) return send_;
  if (where.buffer == Buffer::recv) return recv_;
  auto it = temps_.find(where.temp);
  if (it == temps_.end()) {
    throw ContractViolation("recorder: rank " + std::to_string(rank_) + " uses temporary " +
                            std::to_string(where.temp) + ", which is not allocated");
  }
  return it->second;
}

Segments RecordingComm::read(Place place, Bytes bytes, BlockId block, const char* what) {
  const Where where = resolve(place);
  Segments found = contents(where).read(where.offset, bytes);
  for (const Segment& s : found) {
    if (s.hole() || (s.src == block.src && s.dst == block.dst)) continue;
    throw ContractViolation("recorder: rank " + std::to_string(rank_) + " " + what + " block " +
                            block_name(block.src, block.dst) + " from " + place_name(place) +
                            ", which holds bytes of block " + block_name(s.src, s.dst));
  }
  if (bytes > 0) {
    log_op({Op::Kind::read, rank_, where.buffer, where.temp, where.offset, bytes, {}});
  }
  return found;
}

void RecordingComm::write(Op::Kind kind, Place place, const Segments& segments) {
  const Where where = resolve(place);
  contents(where).write(where.offset, segments);
  if (!segments.empty()) log_op({kind, rank_, where.buffer, where.temp, where.offset, 0, segments});
}

bool RecordingComm::extended(std::optional<size_t> index, const Op& op) {
  if (!index) return false;
  Event& last = log_.events(rank_)[*index];
  Op& previous = last.op;
  if (last.round != round_ || last.sub != sub_ || previous.kind != op.kind ||
      previous.buffer != op.buffer || previous.temp != op.temp) {
    return false;
  }
  const bool is_read = op.kind == Op::Kind::read;
  const Bytes end = previous.offset + (is_read ? previous.bytes : total_bytes(previous.segments));
  if (end != op.offset) return false;
  if (is_read) {
    previous.bytes += op.bytes;
  } else {
    for (const Segment& s : op.segments)
      append(previous.segments, s);
  }
  last.time = clock_();
  return true;
}

void RecordingComm::log_op(Op op) {
  // Reads change nothing, so a write may be merged into an earlier write across them; any other
  // change in between keeps the two apart (their order could matter).
  const bool is_read = op.kind == Op::Kind::read;
  if (extended(is_read ? last_read_ : last_change_, op)) return;
  (is_read ? last_read_ : last_change_) = log_.events(rank_).size();
  Event event = stamped(Event::Kind::op);
  event.op = std::move(op);
  log_.events(rank_).push_back(std::move(event));
}

void RecordingComm::log_message(Message message) {
  Event event = stamped(Event::Kind::message);
  event.message = message;
  log_.events(rank_).push_back(std::move(event));
}

Event RecordingComm::stamped(Event::Kind kind) const {
  Event event;
  event.kind = kind;
  event.round = round_;
  event.sub = sub_;
  event.time = clock_();
  event.phase = phase_;
  return event;
}

void RecordingComm::communicating() {
  if (sub_ % 2 == 0) ++sub_;
}

void RecordingComm::local() {
  if (sub_ % 2 == 1 && outstanding_.empty()) ++sub_;
}

Request RecordingComm::posted(Request request) {
  outstanding_.insert(request.id);
  return request;
}

Request RecordingComm::isend(int peer, Pieces pieces) {
  communicating();
  std::vector<Piece> list;
  pieces([&](const Piece& piece) { list.push_back(piece); });
  const Request request = inner().isend(peer, [&](PieceSink out) {
    for (const Piece& piece : list)
      out(piece);
  });
  // Packed at the call (comm.hpp's buffer rule), so what travels is what is there now.
  Segments carried;
  for (const Piece& piece : list) {
    for (const Segment& s : read(piece.at, piece.bytes, piece.block, "sends"))
      append(carried, s);
  }
  log_message({Message::Kind::data, rank_, peer, total_bytes(carried), block_count(carried)});
  log_.post(rank_, peer, sent_to_.at(static_cast<size_t>(peer))++, std::move(carried));
  return posted(request);
}

Request RecordingComm::irecv(int peer, Pieces pieces) {
  communicating();
  PendingReceive receive;
  pieces([&](const Piece& piece) { receive.pieces.push_back(piece); });
  const Request request = inner().irecv(peer, [&](PieceSink out) {
    for (const Piece& piece : receive.pieces)
      out(piece);
  });
  receive.posted = posted_++;
  receive.peer = peer;
  receive.sequence = received_from_.at(static_cast<size_t>(peer))++;
  receives_[request.id] = std::move(receive);
  return posted(request);
}

Request RecordingComm::isend_sizes(int peer, std::int64_t count, BlockList blocks) {
  communicating();
  std::vector<BlockId> list;
  list_counted(count, blocks, [&](BlockId block) { list.push_back(block); });
  const Request request = inner().isend_sizes(peer, count, [&](BlockSink out) {
    for (BlockId block : list)
      out(block);
  });
  const auto blocks_listed = static_cast<int>(count);
  log_message({Message::Kind::sizes, rank_, peer, blocks_listed * kValueBytes, blocks_listed});
  return posted(request);
}

Request RecordingComm::irecv_sizes(int peer, std::int64_t count, BlockList blocks) {
  communicating();
  return posted(inner().irecv_sizes(peer, count, blocks));
}

Request RecordingComm::isend_values(int peer, std::span<const std::int64_t> values) {
  communicating();
  const Request request = inner().isend_values(peer, values);
  const auto count = static_cast<int>(values.size());
  log_message({Message::Kind::values, rank_, peer, count * kValueBytes, count});
  return posted(request);
}

Request RecordingComm::irecv_values(int peer, std::span<std::int64_t> out) {
  communicating();
  return posted(inner().irecv_values(peer, out));
}

void RecordingComm::settle(const PendingReceive& receive) {
  const Segments arrived = log_.take(receive.peer, rank_, receive.sequence);
  Bytes at = 0;
  for (const Piece& piece : receive.pieces) {
    const Segments part = slice(arrived, at, piece.bytes);
    for (const Segment& s : part) {
      if (s.hole() || (s.src == piece.block.src && s.dst == piece.block.dst)) continue;
      throw ContractViolation("recorder: rank " + std::to_string(rank_) + " receives block " +
                              block_name(piece.block.src, piece.block.dst) + " into " +
                              place_name(piece.at) + " but rank " + std::to_string(receive.peer) +
                              " sent bytes of block " + block_name(s.src, s.dst) + " there");
    }
    write(Op::Kind::receive, piece.at, part);
    at += piece.bytes;
  }
}

void RecordingComm::wait(Request request) {
  communicating();
  inner().wait(request);
  outstanding_.erase(request.id);
  auto it = receives_.find(request.id);
  if (it == receives_.end()) return;
  const PendingReceive receive = std::move(it->second);
  receives_.erase(it);
  settle(receive);
}

void RecordingComm::wait_all() {
  communicating();
  inner().wait_all();
  outstanding_.clear();
  std::vector<PendingReceive> done;
  for (auto& [id, receive] : receives_)
    done.push_back(std::move(receive));
  receives_.clear();
  std::sort(done.begin(), done.end(),
            [](const PendingReceive& a, const PendingReceive& b) { return a.posted < b.posted; });
  for (const PendingReceive& receive : done)
    settle(receive);
}

void RecordingComm::copy(Moves moves) {
  local();
  std::vector<Move> list;
  moves([&](const Move& move) { list.push_back(move); });
  inner().copy([&](MoveSink out) {
    for (const Move& move : list)
      out(move);
  });
  for (const Move& move : list) {
    write(Op::Kind::copy, move.to, read(move.from, move.bytes, move.block, "copies"));
  }
}

int RecordingComm::alloc_temp(Bytes bytes) {
  const int id = inner().alloc_temp(bytes);
  temps_[id] = BufferContents(bytes);
  log_op({Op::Kind::alloc, rank_, Buffer::temp, id, 0, bytes, {}});
  return id;
}

void RecordingComm::free_temp(int buffer) {
  inner().free_temp(buffer);
  if (temps_.erase(buffer) > 0) log_op({Op::Kind::free, rank_, Buffer::temp, buffer, 0, 0, {}});
}

void RecordingComm::log_collective() {
  communicating();
  log_.events(rank_).push_back(stamped(Event::Kind::collective));
}

Bytes RecordingComm::allreduce_max(Bytes value) {
  log_collective();
  return inner().allreduce_max(value);
}

void RecordingComm::barrier() {
  log_collective();
  inner().barrier();
}

void RecordingComm::vendor_alltoallv() {
  if (vendor_ == nullptr) throw ContractViolation("recorder: no vendor algorithm configured");
  vendor_->algorithm->run(*this, vendor_->params);
}

void RecordingComm::vendor_alltoall(int send_temp, int recv_temp, Bytes block) {
  linear_vendor_alltoall(*this, send_temp, recv_temp, block);
}

void RecordingComm::set_phase(const char* label) {
  phase_ = label;
  inner().set_phase(label);
}

void RecordingComm::next_round() {
  ++round_;
  sub_ = 0;
  inner().next_round();
}

}  // namespace a2a::sim::recorder
