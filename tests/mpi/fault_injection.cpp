// Fault injection for the reliability tests (docs/reliability.md), linked only into the test
// program a2a-mpi-faults: a2a-mpi's own commands with the run hooks of mpi/harness.hpp installed.
// Neither a2a-mpi nor liba2a_mpi.so nor liba2a_pmpi.so contains it. The environment variable
// A2A_MPI_TEST_FAULT names the fault:
//   drop_send:R   rank R never posts its first data message (its peer waits forever: a hung
//                 exchange for --timeout to catch);
//   recv_count:R  rank R's layout expects one element less from its first peer with a non-empty
//                 block than that peer sends (a count mismatch for the count check to catch).
// A malformed value is an error (one line), never silently ignored.
#include <charconv>
#include <climits>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"
#include "mpi/harness.hpp"

namespace a2a::mpi {
namespace {

struct Fault {
  enum class Kind { none, drop_send, recv_count };
  Kind kind = Kind::none;
  int rank = -1;
};

Fault parse_fault(const char* text) {
  Fault fault;
  if (text == nullptr || *text == '\0') return fault;
  const std::string value = text;
  const auto colon = value.find(':');
  const std::string kind = value.substr(0, colon);
  if (kind == "drop_send") {
    fault.kind = Fault::Kind::drop_send;
  } else if (kind == "recv_count") {
    fault.kind = Fault::Kind::recv_count;
  }
  const char* first = value.data() + (colon == std::string::npos ? value.size() : colon + 1);
  const char* last = value.data() + value.size();
  const auto [end, ec] = std::from_chars(first, last, fault.rank);
  if (fault.kind == Fault::Kind::none || colon == std::string::npos || ec != std::errc() ||
      end != last || fault.rank < 0) {
    throw InvalidParameter("A2A_MPI_TEST_FAULT='" + value +
                           "': expected drop_send:RANK or recv_count:RANK (test-only)");
  }
  return fault;
}

// The fault named by A2A_MPI_TEST_FAULT, read once. Throws InvalidParameter if it is malformed.
const Fault& fault() {
  static const Fault parsed = parse_fault(std::getenv("A2A_MPI_TEST_FAULT"));
  return parsed;
}

// True once per process, for the first data message rank `rank` posts, under drop_send:rank.
bool drops_send(int rank) {
  static bool dropped = false;
  if (dropped || fault().kind != Fault::Kind::drop_send || fault().rank != rank) return false;
  dropped = true;
  return true;
}

// A Comm decorator that forwards every call to the MPI backend, except the data message
// drop_send drops: that send is never posted, and waiting for it returns at once.
class FaultyComm final : public Comm {
 public:
  explicit FaultyComm(Comm& inner) : inner_(inner) {}

  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  int ranks_per_node() const override { return inner_.ranks_per_node(); }
  Bytes block_bytes(BlockId block) const override { return inner_.block_bytes(block); }
  Bytes max_send_block_bytes() const override { return inner_.max_send_block_bytes(); }
  std::optional<Bytes> uniform_block_bytes() const override { return inner_.uniform_block_bytes(); }

  // isend_runs and copy_runs keep Comm's defaults, which call isend and copy below (as the MPI
  // backend's own do), so a run-described send is dropped like any other.
  Request isend(int peer, Pieces pieces) override {
    if (drops_send(rank())) return {kDropped};
    return inner_.isend(peer, pieces);
  }
  Request irecv(int peer, Pieces pieces) override { return inner_.irecv(peer, pieces); }
  Request isend_sizes(int peer, BlockList blocks) override {
    return inner_.isend_sizes(peer, blocks);
  }
  Request irecv_sizes(int peer, BlockList blocks) override {
    return inner_.irecv_sizes(peer, blocks);
  }
  Request isend_sizes_counted(int peer, std::int64_t count, BlockList blocks) override {
    return inner_.isend_sizes_counted(peer, count, blocks);
  }
  Request irecv_sizes_counted(int peer, std::int64_t count, BlockList blocks) override {
    return inner_.irecv_sizes_counted(peer, count, blocks);
  }
  Request isend_values(int peer, std::span<const std::int64_t> values) override {
    return inner_.isend_values(peer, values);
  }
  Request irecv_values(int peer, std::span<std::int64_t> out) override {
    return inner_.irecv_values(peer, out);
  }
  void wait(Request request) override {
    if (request.id != kDropped) inner_.wait(request);
  }
  void wait_all() override { inner_.wait_all(); }

  void copy(Moves moves) override { inner_.copy(moves); }
  int alloc_temp(Bytes bytes) override { return inner_.alloc_temp(bytes); }
  void free_temp(int buffer) override { inner_.free_temp(buffer); }

  Bytes allreduce_max(Bytes value) override { return inner_.allreduce_max(value); }
  void vendor_alltoallv() override { inner_.vendor_alltoallv(); }
  void vendor_alltoall(int send_temp, int recv_temp, Bytes block) override {
    inner_.vendor_alltoall(send_temp, recv_temp, block);
  }

  void group_begin() override { inner_.group_begin(); }
  void group_end() override { inner_.group_end(); }
  void set_phase(const char* label) override { inner_.set_phase(label); }
  void next_round() override { inner_.next_round(); }

 private:
  static constexpr int kDropped = INT_MIN;  // never an id of the MPI backend's (slot indices)
  Comm& inner_;
};

class FaultHooks final : public RunHooks {
 public:
  FaultHooks() { install_run_hooks(*this); }

  void check_setup() override { fault(); }

  void adjust_layout(ExchangeLayout& layout, int rank) override {
    if (fault().kind != Fault::Kind::recv_count || fault().rank != rank) return;
    for (std::int64_t& count : layout.recvcounts) {
      if (count > 0) {
        --count;  // a smaller block keeps the layout valid (no overlap): only the pair disagrees
        return;
      }
    }
  }

  void run(Comm& comm, const Configuration& config) override {
    FaultyComm faulty(comm);
    config.algorithm->run(faulty, config.params);
  }
};

FaultHooks installed;  // before main: a2a-mpi's commands run with these hooks

}  // namespace
}  // namespace a2a::mpi
