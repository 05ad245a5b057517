// The recording backend (sim/recorder/): its memory model, and every catalog algorithm recorded at
// a few P on uniform and non-uniform workloads, whose replayed final state must have every block at
// its destination (the same check the viewer's page makes in the browser,
// tests/viz/browser_test.py), and whose ranks talk to no more peers than the algorithm declares
// for the memory guards (AlgorithmInfo::footprint).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "algorithms/footprint.hpp"
#include "algorithms/registry.hpp"
#include "platforms/platform.hpp"
#include "sim/recorder/recorder.hpp"
#include "sim/simgrid/memory_model.hpp"
#include "sim/viz/viewer_page.hpp"
#include "workloads/plan.hpp"

using namespace a2a;
using namespace a2a::sim::recorder;

namespace {

constexpr int kMaxRanks = 13;

// One recorder per process: SimGrid builds one platform per process.
Recorder& recorder() {
  static Recorder instance(load_platform("tiny"), kMaxRanks);
  return instance;
}

Bytes received_bytes(const Recording& recording) {
  Bytes total = 0;
  for (const Step& step : recording.steps) {
    for (const Op& op : step.ops)
      if (op.kind == Op::Kind::receive) total += total_bytes(op.segments);
  }
  return total;
}

Bytes sent_bytes(const Recording& recording) {
  Bytes total = 0;
  for (const Step& step : recording.steps) {
    for (const Message& m : step.messages)
      if (m.kind == Message::Kind::data) total += m.bytes;
  }
  return total;
}

// The most distinct ranks one rank sent data messages to, and metadata (sizes, values) messages.
MessageFootprint peers_used(const Recording& recording) {
  const auto ranks = static_cast<size_t>(recording.ranks);
  std::vector<std::set<int>> data(ranks), metadata(ranks);
  for (const Step& step : recording.steps) {
    for (const Message& m : step.messages) {
      if (m.src == m.dst) continue;
      auto& peers = m.kind == Message::Kind::data ? data : metadata;
      peers[static_cast<size_t>(m.src)].insert(m.dst);
    }
  }
  MessageFootprint most;
  for (size_t p = 0; p < ranks; ++p) {
    most.data_peers = std::max<std::int64_t>(most.data_peers, std::ssize(data[p]));
    most.metadata_peers = std::max<std::int64_t>(most.metadata_peers, std::ssize(metadata[p]));
  }
  return most;
}

}  // namespace

TEST_CASE(
    "buffer contents: writes split, overwrite and merge segments; unwritten bytes are holes") {
  BufferContents buffer(100);
  CHECK(buffer.read(0, 10) == Segments{{-1, -1, 0, 10}});
  buffer.write(10, {{1, 2, 0, 20}});
  CHECK(buffer.read(5, 30) == Segments{{-1, -1, 0, 5}, {1, 2, 0, 20}, {-1, -1, 0, 5}});
  buffer.write(15, {{3, 4, 8, 5}});  // overwrite the middle: the block is cut in two
  CHECK(buffer.read(10, 20) == Segments{{1, 2, 0, 5}, {3, 4, 8, 5}, {1, 2, 10, 10}});
  buffer.write(15, {{1, 2, 5, 5}});  // put the original bytes back: one segment again
  CHECK(buffer.read(10, 20) == Segments{{1, 2, 0, 20}});
  buffer.write(12, {{-1, -1, 0, 3}});  // a hole erases
  CHECK(buffer.read(10, 8) == Segments{{1, 2, 0, 2}, {-1, -1, 0, 3}, {1, 2, 5, 3}});
  CHECK(slice({{1, 2, 0, 4}, {5, 6, 0, 4}}, 2, 4) == Segments{{1, 2, 2, 2}, {5, 6, 0, 2}});
}

TEST_CASE("radix peers: r - 1 per digit position, never more than the other ranks") {
  CHECK(footprint::radix_peers(8, 2) == 3);
  CHECK(footprint::radix_peers(9, 3) == 4);
  CHECK(footprint::radix_peers(4, 16) == 3);  // a radix above the ranks (ParLogNa on few nodes)
  CHECK(footprint::radix_peers(2, 64) == 1);
  CHECK(footprint::radix_peers(1, 2) == 0);
}

TEST_CASE("every catalog algorithm, recorded, ends with every block at its destination") {
  const int rpn = load_platform("tiny").ranks_per_node;
  for (const char* spec : {"constant:size=24", "uniform:max=64,seed=3", "zhuang2"}) {
    for (int P : {1, 2, 5, 8, 13}) {
      const auto workload = make_workload(spec, P);
      Selection selection{{"all"}, {}};
      std::vector<Planned> planned = plan(selection, *workload, rpn);
      for (const char* extra : {"parlogna:radix=3", "bruck_radix:radix=3",
                                "parlinna_coalesced:ranks_per_node=2,radix=3,batch=1",
                                "hierarchical_bruck:ranks_per_node=2,radix=2,node_radix=3"}) {
        if (P < 3) continue;  // radix 3 needs P >= 3
        Configuration config = configure(extra, P, rpn);
        const auto shape = shape_of(*workload, rpn, LayoutStyle::gaps);
        planned.push_back({config, LayoutStyle::gaps, not_applicable_reason(config, shape)});
      }
      for (const Planned& item : planned) {
        if (item.skip) continue;
        CAPTURE(spec);
        CAPTURE(P);
        const std::string label = item.config.label();
        CAPTURE(label);
        const Recording recording = recorder().record(item.config, *workload, item.layout);
        CHECK(recording.check == "pass");
        CHECK(misplaced_blocks(recording).empty());
        // What was sent is what landed, byte for byte in count.
        CHECK(sent_bytes(recording) == received_bytes(recording));
        CHECK(recording.steps.front().ops.empty());
        // The memory guards size mailboxes from the declared peers: never fewer than are used.
        const MessageFootprint declared =
            sim::message_footprint(item.config, P, rpn, "openmpi");  // the recorder's vendor
        const MessageFootprint used = peers_used(recording);
        CHECK(used.data_peers <= declared.data_peers);
        CHECK(used.metadata_peers <= declared.metadata_peers);
      }
    }
  }
}

TEST_CASE("the final-state check fails when a recording misplaces a block") {
  const auto workload = make_workload("constant:size=16", 5);
  Recording recording =
      recorder().record(configure("bruck_basic", 5, 4), *workload, LayoutStyle::packed);
  REQUIRE(misplaced_blocks(recording).empty());
  // Drop the last write into a receive buffer: the blocks it wrote never arrive.
  Bytes dropped_blocks = 0;
  for (auto step = recording.steps.rbegin(); step != recording.steps.rend(); ++step) {
    auto& ops = step->ops;
    auto last = std::find_if(ops.rbegin(), ops.rend(), [](const Op& op) {
      return op.buffer == Buffer::recv && op.kind != Op::Kind::read;
    });
    if (last == ops.rend()) continue;
    dropped_blocks = static_cast<Bytes>(last->segments.size());
    ops.erase(std::next(last).base());
    break;
  }
  const auto problems = misplaced_blocks(recording);
  REQUIRE(dropped_blocks >= 1);
  CHECK(static_cast<Bytes>(problems.size()) == dropped_blocks);
  for (const std::string& problem : problems)
    CHECK(problem.find("holds nothing") != std::string::npos);
}

TEST_CASE("the page embeds the recording and loads nothing from outside") {
  const auto workload = make_workload("uniform:max=32", 4);
  const Recording recording =
      recorder().record(configure("parlogna:radix=3", 4, 4), *workload, LayoutStyle::packed);
  const std::string page = sim::viz::viewer_html(recording);
  CHECK(page.find("a2a-recording-1") != std::string::npos);
  CHECK(page.find("/*A2A_RECORDING*/") == std::string::npos);
  for (const char* external : {"src=\"http", "href=\"http", "src='http", "href='http", "@import",
                               "url(http", "src=\"//", "href=\"//"}) {
    CAPTURE(external);
    CHECK(page.find(external) == std::string::npos);
  }
}

TEST_CASE("a piece that names the wrong block is refused with one line naming it") {
  // Copies its own block for itself into the receive buffer but calls it the block for the next
  // rank: the bytes arrive (the payload check alone cannot tell), the recorder's model can.
  AlgorithmInfo mislabelled;
  mislabelled.name = "mislabelled";
  mislabelled.run = [](Comm& comm, const Params&) {
    const int p = comm.rank();
    const int next = (p + 1) % comm.size();
    comm.copy([&](MoveSink out) {
      out({{p, next}, Place::send_block(p), Place::recv_block(p), comm.block_bytes({p, p})});
    });
  };
  const auto workload = make_workload("constant:size=8", 2);
  CHECK_THROWS_WITH_AS(
      recorder().record(Configuration{&mislabelled, {}}, *workload, LayoutStyle::packed),
      doctest::Contains("from send block"), Error);
}
