#include "sim/recorder/recording.hpp"

#include "algorithms/errors.hpp"

namespace a2a::sim::recorder {

Replay::Replay(const Recording& recording) {
  const int P = recording.ranks;
  ranks_.resize(static_cast<size_t>(P));
  for (int r = 0; r < P; ++r) {
    const RankBuffers& b = recording.buffers[static_cast<size_t>(r)];
    RankMemory& memory = ranks_[static_cast<size_t>(r)];
    memory.send = BufferContents(b.send_bytes);
    memory.recv = BufferContents(b.recv_bytes);
    for (int d = 0; d < P; ++d) {
      const Bytes bytes = recording.block(r, d);
      memory.send.write(b.send_at[static_cast<size_t>(d)], {{r, d, 0, bytes}});
    }
  }
}

BufferContents& Replay::target(const Op& op) {
  RankMemory& memory = ranks_.at(static_cast<size_t>(op.rank));
  switch (op.buffer) {
    case Buffer::send:
      return memory.send;
    case Buffer::recv:
      return memory.recv;
    case Buffer::temp:
      break;
  }
  auto it = memory.temps.find(op.temp);
  if (it == memory.temps.end()) {
    throw Error("recording: rank " + std::to_string(op.rank) + " writes temporary " +
                std::to_string(op.temp) + " that is not allocated");
  }
  return it->second;
}

void Replay::apply(const Step& step) {
  for (const Op& op : step.ops) {
    switch (op.kind) {
      case Op::Kind::copy:
      case Op::Kind::receive:
        target(op).write(op.offset, op.segments);
        break;
      case Op::Kind::alloc:
        ranks_.at(static_cast<size_t>(op.rank)).temps[op.temp] = BufferContents(op.bytes);
        break;
      case Op::Kind::free:
        ranks_.at(static_cast<size_t>(op.rank)).temps.erase(op.temp);
        break;
      case Op::Kind::read:
        break;
    }
  }
}

const BufferContents& Replay::contents(int rank, Buffer buffer, int temp) const {
  const RankMemory& memory = ranks_.at(static_cast<size_t>(rank));
  if (buffer == Buffer::send) return memory.send;
  if (buffer == Buffer::recv) return memory.recv;
  return memory.temps.at(temp);
}

std::vector<std::string> misplaced_blocks(const Recording& recording) {
  Replay replay(recording);
  for (const Step& step : recording.steps)
    replay.apply(step);
  std::vector<std::string> out;
  const int P = recording.ranks;
  for (int d = 0; d < P; ++d) {
    const BufferContents& recv = replay.contents(d, Buffer::recv);
    for (int s = 0; s < P; ++s) {
      const Bytes bytes = recording.block(s, d);
      if (bytes == 0) continue;
      const Bytes at = recording.buffers[static_cast<size_t>(d)].recv_at[static_cast<size_t>(s)];
      const Segments found = recv.read(at, bytes);
      if (found == Segments{{s, d, 0, bytes}}) continue;
      const Segment& first = found.front();
      out.push_back(
          "block " + std::to_string(s) + "->" + std::to_string(d) + ": rank " + std::to_string(d) +
          " holds " +
          (first.hole() ? std::string("nothing")
                        : std::to_string(first.src) + "->" + std::to_string(first.dst) +
                              " bytes from " + std::to_string(first.block_offset)) +
          " at its offset " + std::to_string(at) +
          (found.size() > 1 ? " (and " + std::to_string(found.size() - 1) + " more)" : ""));
    }
  }
  return out;
}

}  // namespace a2a::sim::recorder
