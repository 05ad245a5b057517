// The state of one scale-engine run that rank code and the event loop share. While a batch of
// ranks runs (possibly on several threads), each rank touches only its own RankState and
// RankRecord; the event loop reads their outboxes and completes their requests in between.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tsl/robin_map.h>

#include "algorithms/comm.hpp"
#include "algorithms/registry.hpp"
#include "platforms/platform.hpp"
#include "sim/rank_record.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim::scale {

class RankFibers;

// Messages of different kinds never match each other (as MPI tags).
enum class Kind : std::uint8_t { data = 0, sizes = 1, values = 2, collective = 3 };

// A request of a rank: posted, then done at `done_at` (simulated seconds). 16 bytes: a linear
// exchange holds 2 (P - 1) of them per rank at once. What few requests need (an unpack time,
// where values go) is kept beside them in RankState, by slot, and `extras` says a slot has some,
// so that finishing the others looks nothing up.
struct Slot {
  double done_at = 0;
  int peer = 0;
  bool busy : 1 = false;
  bool done : 1 = false;
  bool receive : 1 = false;
  bool extras : 1 = false;
  Kind kind = Kind::data;
};
static_assert(sizeof(Slot) == 16);

// What a rank asked for while it ran; the event loop matches it afterwards. 32 bytes: a rank
// posting P - 1 receives and P - 1 sends at once holds them all until the event loop runs.
struct Post {
  static constexpr std::uint32_t kNoValues = 0xFFFFFFFF;
  int slot = 0;
  int peer = 0;
  double at = 0;    // simulated time of the post, after its CPU overhead
  Bytes size = -1;  // data: bytes; sizes: block count; values: their count; -1 when a receive
                    // does not say
  std::uint32_t values = kNoValues;  // values / collective sends: their first value in
                                     // RankState::outbox_values
  bool receive = false;
  Kind kind = Kind::data;
  bool packed = false;  // a data message of several pieces: packed by the sender, unpacked by
                        // the receiver (platform pack_bandwidth)
};
static_assert(sizeof(Post) == 32);

struct RankState {
  double clock = 0;
  std::vector<Slot> slots;
  std::vector<int> free_slots;
  std::vector<Post> outbox;
  std::vector<std::int64_t> outbox_values;  // the values of the sends in the outbox
  // By slot, only for the requests that need it: a received packed message's CPU time to unpack
  // it (set when it arrives, spent when waited for), and where an irecv_values or allreduce
  // receive puts its values.
  // Open addressing: a packed Bruck message's receive inserts and erases one entry per round,
  // which std::unordered_map paid with an allocation each.
  tsl::robin_map<int, double> unpack_seconds;
  tsl::robin_map<int, std::span<std::int64_t>> value_outs;
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
