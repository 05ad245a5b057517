// A recorded run of one catalog configuration, step by step: what the step viewer shows (`a2a viz`,
// docs/viewer.md) and what tests check. Made by the recorder (recorder.hpp) from the real catalog
// code on the SimGrid backend; replayed here in C++ and, identically, by the viewer's JavaScript.
//
// A step is a communication round (Comm::next_round) across ranks, split into sub-steps so local
// copies show apart from messages: within a round a rank's work alternates between copy sub-steps
// (even numbers) and communication sub-steps (odd). Step 0 is the state before anything runs; each
// later step lists what it changed (ops) and the messages it sent.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/recorder/buffer_contents.hpp"

namespace a2a::sim::recorder {

enum class Buffer : std::uint8_t { send = 0, recv = 1, temp = 2 };

// One rank's send and receive buffers: sizes and where each block starts, in bytes.
struct RankBuffers {
  Bytes send_bytes = 0;
  Bytes recv_bytes = 0;
  std::vector<Bytes> send_at;  // by destination
  std::vector<Bytes> recv_at;  // by source
};

// A change to one rank's memory.
struct Op {
  enum class Kind : std::uint8_t {
    copy = 0,     // a local copy wrote `segments` at `offset`
    receive = 1,  // a received message wrote `segments` at `offset`
    alloc = 2,    // temporary `temp` of `bytes` bytes allocated (empty)
    free = 3,     // temporary `temp` freed
    read = 4,     // [offset, offset + bytes) was read by a send or a copy (no change; shown)
  };
  Kind kind = Kind::copy;
  int rank = 0;
  Buffer buffer = Buffer::temp;
  int temp = 0;  // temporary id (buffer == temp, alloc, free)
  Bytes offset = 0;
  Bytes bytes = 0;    // alloc, read
  Segments segments;  // copy, receive
};

struct Message {
  enum class Kind : std::uint8_t { data = 0, sizes = 1, values = 2 };
  Kind kind = Kind::data;
  int src = 0;
  int dst = 0;
  Bytes bytes = 0;  // data: payload bytes; metadata: 8 bytes per integer
  int blocks = 0;   // data: pieces of blocks it carries; metadata: integers
};

struct Step {
  int round = 0;                    // the ranks' Comm::next_round count
  int sub = 0;                      // even: local copies, odd: communication
  std::string label;                // "round 2: messages"
  std::vector<std::string> phases;  // Comm::set_phase labels seen in this step
  double time = 0;                  // simulated seconds when its last event happened
  std::vector<Op> ops;              // in each rank's order
  std::vector<Message> messages;
  int collectives = 0;  // allreduce_max calls
};

struct Recording {
  // What ran.
  std::string algorithm;  // "parlogna"
  std::string label;      // "parlogna radix=3"
  std::map<std::string, std::int64_t> params;
  int ranks = 0;
  int ranks_per_node = 1;
  std::string workload;  // spec
  std::string platform;
  std::string layout;    // "packed" or "gaps"
  std::string vendor;    // what `vendor` runs
  double predicted = 0;  // simulated completion time of the slowest rank
  std::string check;     // the SimGrid payload check: "pass"

  std::vector<Bytes> block_bytes;  // [src * ranks + dst]
  std::vector<RankBuffers> buffers;
  std::vector<Step> steps;  // steps[0] is the initial state (no ops)

  Bytes block(int src, int dst) const {
    return block_bytes[static_cast<size_t>(src * ranks + dst)];
  }
};

// The memory of every rank, rebuilt by applying a recording's steps in order.
class Replay {
 public:
  explicit Replay(const Recording& recording);  // the initial state
  void apply(const Step& step);
  const BufferContents& contents(int rank, Buffer buffer, int temp = 0) const;

 private:
  BufferContents& target(const Op& op);
  struct RankMemory {
    BufferContents send, recv;
    std::map<int, BufferContents> temps;
  };
  std::vector<RankMemory> ranks_;
};

// One line per block that is not exactly where it belongs after the last step ("block 2->5: rank 5
// holds 3->5 at its offset 40"); empty when every block is at its destination.
std::vector<std::string> misplaced_blocks(const Recording& recording);

}  // namespace a2a::sim::recorder
