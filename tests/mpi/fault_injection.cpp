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
#include <string>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/forwarding_comm.hpp"
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
// drop_send drops: that send is never posted, and waiting for it returns at once. Sends described
// as runs reach isend too (ForwardingComm keeps Comm's isend_runs), so they are dropped alike.
class FaultyComm final : public ForwardingComm {
 public:
  using ForwardingComm::ForwardingComm;

  Request isend(int peer, Pieces pieces) override {
    if (drops_send(rank())) return {kDropped};
    return ForwardingComm::isend(peer, pieces);
  }
  void wait(Request request) override {
    if (request.id != kDropped) ForwardingComm::wait(request);
  }

 private:
  static constexpr int kDropped = INT_MIN;  // never an id of the MPI backend's (slot indices)
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
