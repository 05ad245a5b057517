// The state of one scale-engine run that rank code and the event loop share. While a batch of
// ranks runs (possibly on several threads), each rank touches only its own RankState and
// RankRecord; the event loop reads their outboxes and completes their requests in between.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/registry.hpp"
#include "platforms/platform.hpp"
#include "sim/rank_record.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim::scale {

class RankFibers;

// Messages of different kinds never match each other (as MPI tags).
enum class Kind : std::uint8_t { data = 0, sizes = 1, values = 2, collective = 3 };

// A request of a rank: posted, then done at `done_at` (simulated seconds).
struct Slot {
  bool busy = false;
  bool done = false;
  bool receive = false;
  Kind kind = Kind::data;
  int peer = 0;
  double done_at = 0;
  double unpack_seconds = 0;    // a receive of a packed message: CPU time to unpack it when done
  std::span<std::int64_t> out;  // irecv_values / allreduce: where the values go
};

// What a rank asked for while it ran; the event loop matches it afterwards.
struct Post {
  int slot = 0;
  bool receive = false;
  Kind kind = Kind::data;
  int peer = 0;
  double at = 0;        // simulated time of the post, after its CPU overhead
  Bytes size = -1;      // data: bytes; sizes: block count; -1 when a receive does not say
  bool packed = false;  // a data message of several pieces: packed by the sender, unpacked by
                        // the receiver (platform pack_bandwidth)
  std::vector<std::int64_t> values;  // values / collective sends
};

struct RankState {
  double clock = 0;
  std::vector<Slot> slots;
  std::vector<int> free_slots;
  std::vector<Post> outbox;
  // What the rank is suspended for. The event loop wakes it when that slot is done, or, for
  // kAllSlots, when the last slot in flight is. Described in words only if the run deadlocks
  // (describe_wait): formatting it on every wait cost a string per rank and round.
  static constexpr int kAllSlots = -2;
  enum class Waiting : std::uint8_t { nothing, request, all, allreduce };
  int blocked_on = -1;
  Waiting waiting = Waiting::nothing;
  int in_flight = 0;        // busy slots not yet done
  int receives_posted = 0;  // receives posted and not yet done: MPI's posted-receive queue
  std::string error;
};

struct RunState {
  const PlatformSpec* platform = nullptr;
  const Workload* workload = nullptr;
  int ranks = 1;
  int trace_ranks = 0;
  bool check_sizes = false;
  std::optional<Configuration> vendor_alltoallv;
  std::vector<RankState> states;
  std::vector<RankRecord> records;
  RankFibers* fibers = nullptr;
};

}  // namespace a2a::sim::scale
