// Broken algorithms (not in the catalog) must end a simulation with one clear error naming the
// configuration and the ranks — never a SimGrid backtrace, a hang or a crash — on both engines.
// SimGrid leaves the blocked actors behind, so ctest runs each case in its own process
// (--test-case=... --engine=simgrid|scale).
#include <doctest/doctest.h>

#include <memory>

#include "algorithms/errors.hpp"
#include "algorithms/registry.hpp"
#include "sim/simulation.hpp"
#include "workloads/workload.hpp"

using namespace a2a;

namespace {

constexpr int kRanks = 4;
// The engine every case runs on, from the command line (--engine=...).
std::string engine_name = "simgrid";

// `eager_threshold`: the platform's (bytes; -1, none, makes every send wait for its receive).
std::string failure_of(void (*run)(Comm&, const Params&), double eager_threshold = -1) {
  PlatformSpec star;
  star.name = "star";
  star.topology = Topology::star;
  star.nodes = kRanks;
  star.link = {1e9, 1e-6};
  star.global_link = star.link;
  star.injection = star.link;
  star.ranks_per_node = 1;
  star.intra_node = {1e10, 1e-7};
  star.eager_threshold = eager_threshold;
  sim::SimOptions options;
  options.check_sizes = true;  // the scale engine checks receives only when asked
  const auto simulation = sim::make_simulation(engine_name, star, kRanks, options);
  auto workload = make_workload("constant:size=8", kRanks);
  AlgorithmInfo broken;
  broken.name = "broken";
  broken.run = run;
  try {
    simulation->run(Configuration{&broken, Params{}}, *workload);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

Request receive_bytes(Comm& comm, int src, Bytes bytes) {
  return comm.irecv(src, [&](PieceSink out) {
    out({{src, comm.rank()}, Place::recv_block(src), bytes});
  });
}

}  // namespace

TEST_CASE("deadlock: every rank waits for a message nobody sends") {
  const std::string message = failure_of([](Comm& comm, const Params&) {
    receive_bytes(comm, (comm.rank() + 1) % comm.size(), 8);
    comm.wait_all();
  });
  CHECK(message.find("broken: deadlock: 4 of 4 ranks never finished") != std::string::npos);
  CHECK(message.find("rank 0 in wait_all on 1 requests (recv<1)") != std::string::npos);
}

TEST_CASE("a message nobody receives blocks its sender, reported as a deadlock of that rank") {
  const std::string message = failure_of([](Comm& comm, const Params&) {
    if (comm.rank() != 0) return;
    comm.isend(1, [&](PieceSink out) { out({{0, 1}, Place::send_block(1), 8}); });
    comm.wait_all();
  });
  CHECK(message.find(
            "deadlock: 1 of 4 ranks never finished: rank 0 in wait_all on 1 requests (send>1)") !=
        std::string::npos);
}

TEST_CASE("an eager message nobody receives is reported with its sender and receiver") {
  const std::string message = failure_of(
      [](Comm& comm, const Params&) {
        if (comm.rank() != 2) return;
        comm.isend(3, [&](PieceSink out) { out({{2, 3}, Place::send_block(3), 8}); });
        comm.wait_all();
      },
      1024);
  // The SimGrid engine leaves eager_threshold out (it warns), so there the send blocks.
  const std::string expected = engine_name == "scale"
                                   ? "broken: rank 2 sent rank 3 a message it never received"
                                   : "deadlock: 1 of 4 ranks never finished: rank 2 in wait_all";
  CHECK(message.find(expected) != std::string::npos);
}

TEST_CASE("a receive expecting a different size than was sent is a contract violation") {
  const std::string message = failure_of([](Comm& comm, const Params&) {
    if (comm.rank() == 0) {
      comm.isend(1, [&](PieceSink out) { out({{0, 1}, Place::send_block(1), 8}); });
    } else if (comm.rank() == 1) {
      // Two pieces of 8 bytes: 16 expected, 8 sent.
      comm.irecv(0, [&](PieceSink out) {
        out({{0, 1}, Place::recv_block(0), 8});
        out({{0, 1}, Place::recv_block(0), 8});
      });
    }
    comm.wait_all();
  });
  CHECK(message.find("broken: rank 1: rank 1 expected 16 bytes from rank 0 but it sent 8") !=
        std::string::npos);
}

TEST_CASE("leaving a request unwaited is a contract violation") {
  const std::string message = failure_of([](Comm& comm, const Params&) {
    const int peer = comm.rank() ^ 1;
    receive_bytes(comm, peer, 8);
    comm.isend(peer, [&](PieceSink out) {
      out({{comm.rank(), peer}, Place::send_block(peer), 8});
    });
  });
  CHECK(message.find("requests were never waited for") != std::string::npos);
}

// Every rank exchanges its 8-byte block with rank ^ 1, sending it with `Run(comm, peer)` as the
// block runs. The SimGrid engine moves the pieces and never reads the runs; the scale engine sums
// the runs and checks them (bounds always, against the pieces under check_sizes).
template <BlockRun (*Run)(const Comm&, int)>
void exchange_with_runs(Comm& comm, const Params&) {
  const int peer = comm.rank() ^ 1;
  const Request received = receive_bytes(comm, peer, 8);
  const Request sent = comm.isend_runs(
      peer, [&](RunSink out) { out(Run(comm, peer)); },
      [&](PieceSink out) {
        out({{comm.rank(), peer}, Place::send_block(peer), 8});
      });
  comm.wait(sent);
  comm.wait(received);
}

// The scale engine reports `expected`; the SimGrid engine, which ignores runs, reports nothing.
void check_scale_engine_reports(const std::string& message, const std::string& expected) {
  if (engine_name == "scale") {
    CHECK(message.find(expected) != std::string::npos);
  } else {
    CHECK(message == "no error");
  }
}

// The pieces name 8 bytes (the workload's block); these runs claim two blocks.
BlockRun two_blocks(const Comm& comm, int peer) {
  return {{comm.rank(), peer}, 0, 1, 2};
}
// The right size, but the rank's block to itself instead of the block to `peer`.
BlockRun another_block(const Comm& comm, int) {
  return {{comm.rank(), comm.rank()}, 0, 0, 1};
}
// A destination one past the last rank.
BlockRun past_the_ranks(const Comm& comm, int) {
  return {{comm.rank(), comm.size()}, 0, 0, 1};
}

TEST_CASE(
    "block runs that disagree with their pieces are a contract violation on the scale engine") {
  check_scale_engine_reports(failure_of(exchange_with_runs<two_blocks>),
                             "a message of 8 bytes described by runs of 16 bytes");
}

TEST_CASE(
    "block runs naming other blocks than their pieces are a contract violation on the scale "
    "engine") {
  check_scale_engine_reports(
      failure_of(exchange_with_runs<another_block>),
      "a message of 8 bytes described by runs of other blocks than its pieces");
}

TEST_CASE("block runs outside the ranks are a contract violation on the scale engine") {
  check_scale_engine_reports(failure_of(exchange_with_runs<past_the_ranks>),
                             "a message: a block run outside the 4 ranks");
}

int main(int argc, char** argv) {
  doctest::Context context;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--engine=", 0) == 0) engine_name = arg.substr(9);
  }
  context.applyCommandLine(argc, argv);
  return context.run();
}
