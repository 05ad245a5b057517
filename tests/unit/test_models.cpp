// The analytic models (sim/model/) at small P against values computed by hand from the formulas
// of docs/algorithms.md "Cost models" and docs/models.md, on a hand-made machine: one rank per node
// unless said, α = 2 µs, β = β_nic = 1 ns/B, intra-node α = 0.1 µs, β = 0.1 ns/B, no overhead,
// free copies, no launches unless said. tests/sim/closed_form then checks that the simulators
// agree with the same models.
#include <doctest/doctest.h>

#include <functional>
#include <memory>

#include "algorithms/errors.hpp"
#include "algorithms/registry.hpp"
#include "sim/model/cost.hpp"
#include "sim/model/model.hpp"
#include "tests/approx.hpp"
#include "workloads/workload.hpp"

using namespace a2a;

namespace {

constexpr double kAlpha = 2e-6;
constexpr double kBeta = 1e-9;

model::Machine hand_machine() {
  model::Machine m;
  m.alpha = kAlpha;
  m.beta = kBeta;
  m.beta_nic = kBeta;
  m.alpha_intra = 1e-7;
  m.beta_intra = 1e-10;
  return m;
}

// Block sizes from a formula, one byte per element.
class FormulaWorkload final : public Workload {
 public:
  FormulaWorkload(int ranks, std::function<std::int64_t(int, int)> bytes)
      : Workload(ranks, 1, "formula"), bytes_(std::move(bytes)) {}
  std::int64_t count(int src, int dst) const override { return bytes_(src, dst); }

 private:
  std::function<std::int64_t(int, int)> bytes_;
};

model::Cost cost_of(const std::string& spec, const Workload& workload,
                    const model::Machine& machine = hand_machine(),
                    const std::string& vendor = "openmpi") {
  return model::model_cost(configure(spec, workload.ranks(), machine.ranks_per_node), workload,
                           machine, vendor);
}

model::Cost constant(const std::string& spec, int P, int bytes,
                     const model::Machine& machine = hand_machine()) {
  // One byte per element: with the default 8, a size of 100 bytes would be 96.
  return cost_of(spec, *make_workload("constant:size=" + std::to_string(bytes) + ",elem=1", P),
                 machine);
}

}  // namespace

TEST_CASE("every catalog algorithm has a model") {
  std::vector<std::string> names;
  for (const AlgorithmInfo& info : catalog())
    names.push_back(info.name);
  CHECK(model::modeled_algorithms() == names);
}

TEST_CASE("spread_out: α + (P−1)·n·β, the latency paid once") {
  const model::Cost cost = constant("spread_out", 4, 100);
  CHECK(cost.total() == a2a::testing::approx(kAlpha + 3 * 100 * kBeta));
  CHECK(cost.latency == a2a::testing::approx(kAlpha));
  CHECK(cost.bandwidth == a2a::testing::approx(3 * 100 * kBeta));
  CHECK(cost.contention == 0);
  CHECK(cost.rounds == 1);
  CHECK(cost.steps == 1);
}

TEST_CASE("spread_out with LogGP overhead: α + max((2P−2)·o + n·β, P·o + (P−1)·n·β)") {
  model::Machine m = hand_machine();
  m.overhead = 1e-6;
  // P = 4, n = 1000: max(6 + 1, 4 + 3) µs; n = 2000: max(6 + 2, 4 + 6) µs.
  CHECK(constant("spread_out", 4, 1000, m).total() == a2a::testing::approx(kAlpha + 7e-6));
  const model::Cost cost = constant("spread_out", 4, 2000, m);
  CHECK(cost.total() == a2a::testing::approx(kAlpha + 10e-6));
  CHECK(cost.overhead == a2a::testing::approx(4e-6));  // (r + 1)·o before the link starts draining
}

TEST_CASE("ompi_linear: every rank's last send to the same rank, (2P−2)·o before it drains") {
  model::Machine m = hand_machine();
  m.overhead = 1e-6;
  CHECK(constant("ompi_linear", 4, 2000, m).total() == a2a::testing::approx(kAlpha + 6e-6 + 6e-6));
  CHECK(constant("ompi_linear", 4, 2000).total() == constant("spread_out", 4, 2000).total());
}

TEST_CASE("scattered, pairwise: Hockney's linear costs") {
  // scattered batch 2, P = 5: two batches of two exchanges each.
  CHECK(constant("scattered:batch=2", 5, 100).total() ==
        a2a::testing::approx(2 * (kAlpha + 2 * 100 * kBeta)));
  // ompi_pairwise P = 3: two steps, each α + 2·o + n·β, one launch each, the self copy.
  model::Machine m = hand_machine();
  m.overhead = 1e-7;
  m.launch = 1e-6;
  m.copy_beta = 1e-10;
  const model::Cost pairwise = constant("ompi_pairwise", 3, 100, m);
  CHECK(pairwise.total() ==
        a2a::testing::approx(100 * 1e-10 + 2 * (1e-6 + kAlpha + 2e-7 + 100 * kBeta)));
  CHECK(pairwise.launch == a2a::testing::approx(2e-6));
  CHECK(pairwise.copy == a2a::testing::approx(100 * 1e-10));
  CHECK(constant("xor_pairwise", 4, 100).total() ==
        a2a::testing::approx(3 * (kAlpha + 100 * kBeta)));
}

TEST_CASE("inject size: a step whose sends outgrow it waits one more α for their acknowledgement") {
  model::Machine m = hand_machine();
  m.inject = 192;
  // scattered batch 2, P = 5: two batches; 100-byte messages are injected, 1000-byte ones acked.
  CHECK(constant("scattered:batch=2", 5, 100, m).total() ==
        a2a::testing::approx(2 * (kAlpha + 2 * 100 * kBeta)));
  CHECK(constant("scattered:batch=2", 5, 1000, m).total() ==
        a2a::testing::approx(2 * (2 * kAlpha + 2 * 1000 * kBeta)));
  // With lazy sends a batch waits for its receives only: no acknowledgement on the way.
  CHECK(constant("scattered:batch=2,lazy_sends=1", 5, 1000, m).total() ==
        a2a::testing::approx(2 * (kAlpha + 2 * 1000 * kBeta)));
  m.inject = -1;  // without the term every send is done when its data arrived
  CHECK(constant("scattered:batch=2", 5, 1000, m).total() ==
        a2a::testing::approx(2 * (kAlpha + 2 * 1000 * kBeta)));
}

TEST_CASE("NIC engines: a step takes g x the most messages one engine of a node handles") {
  model::Machine m = hand_machine();
  m.ranks_per_node = 4;
  m.nic = 1e-6;
  // spread_out on 3 nodes of 4 ranks: each node sends 16 messages to each other node and receives
  // as many. One engine handles all 32; with 3, peer node p's 16 go through engine p mod 3.
  const double one_engine = constant("spread_out", 12, 8, m).nic;
  // With 2, node 1 receives from nodes 0 and 2 on its engine 0: still 32 messages.
  m.nic_engines = 2;
  CHECK(constant("spread_out", 12, 8, m).nic == a2a::testing::approx(one_engine));
  m.nic_engines = 3;
  const double per_peer = constant("spread_out", 12, 8, m).nic;
  CHECK(one_engine - per_peer == a2a::testing::approx(16e-6));
  CHECK(per_peer > 0);
  // Pipelined, the last message does not wait for its own time.
  m.nic_pipelined = true;
  CHECK(per_peer - constant("spread_out", 12, 8, m).nic == a2a::testing::approx(1e-6));
}

TEST_CASE("NIC engines chosen by rank: each engine handles its ranks' messages") {
  model::Machine m = hand_machine();
  m.ranks_per_node = 4;
  m.nic = 1e-6;
  // spread_out on 2 nodes of 4 ranks: 16 messages each way. By peer node, 2 engines: all 16
  // through engine 1 of node 0 (peer node 1) and engine 0 of node 1. By rank, ranks 0 and 2 of a
  // node send on engine 0, 1 and 3 on engine 1: 8 each, and 8 received on each.
  m.nic_engines = 2;
  const double by_peer_node = constant("spread_out", 8, 8, m).nic;
  m.nic_engine_choice = NicEngineChoice::rank;
  const double by_rank = constant("spread_out", 8, 8, m).nic;
  CHECK(by_peer_node - by_rank == a2a::testing::approx(8e-6));
  CHECK(by_rank > 0);
}

// Two steps in which node 0's two ranks send to node 1, then to node 2 (3 nodes of 2 ranks, 2
// engines by peer node, 1 ms a message: the NIC dominates). In lockstep each step puts 2 messages
// on one engine; free running, node 0's engines 1 and 0 each take 2 over the two steps.
model::Cost two_steps_to_two_nodes(bool free_running) {
  model::Machine m = hand_machine();
  m.ranks_per_node = 2;
  m.nic = 1e-3;
  m.nic_engines = 2;
  model::CostBuilder cost(m, 6);
  if (free_running) cost.begin_free_running();
  for (int node : {1, 2}) {
    cost.step({}, [&](auto emit) {
      emit(0, 2 * node, 8);
      emit(1, 2 * node + 1, 8);
    });
  }
  if (free_running) cost.end_free_running();
  return cost.cost();
}

TEST_CASE("NIC engines, free running: the busiest engine's messages over all the steps") {
  const model::Cost lockstep = two_steps_to_two_nodes(false);
  const model::Cost free_running = two_steps_to_two_nodes(true);
  // Lockstep: 2 g a step, 4 g in all; free running, engine by engine: 2 g in all.
  CHECK(lockstep.total() == a2a::testing::approx(4e-3));
  CHECK(free_running.total() == a2a::testing::approx(2e-3));
  CHECK(lockstep.total() - lockstep.nic ==
        a2a::testing::approx(free_running.total() - free_running.nic));
}

TEST_CASE("NIC engines: staggered ParLinNa's ranks of a node spread over the engines") {
  // 4 nodes of 2 ranks, 4 engines by peer node, g = 1 ms: phase 2 sends each peer node 4
  // messages (2 ranks x 2 blocks) and receives 4 from it, each through that peer's engine: 4 g
  // free running, against 2 messages on one engine in each of its 6 steps (12 g) in lockstep.
  model::Machine m = hand_machine();
  m.ranks_per_node = 2;
  m.nic = 1e-3;
  m.nic_engines = 4;
  const double spread =
      constant("parlinna_staggered:ranks_per_node=2,radix=2,batch=1", 8, 8, m).nic;
  m.nic_engines = 1;  // every message of a node through one engine: 12 g either way
  const double one_engine =
      constant("parlinna_staggered:ranks_per_node=2,radix=2,batch=1", 8, 8, m).nic;
  CHECK(one_engine - spread == a2a::testing::approx(8e-3));
}

TEST_CASE("vendor: the model of the configuration the named MPI chooses") {
  // Open MPI: pairwise below 4 ranks, basic linear below 64; MPICH: scattered batch 32; Cray
  // MPICH (as measured on Polaris): scattered batch 1; Fujitsu MPI: pairwise.
  auto at = [](int P, const char* vendor) {
    return cost_of("vendor", *make_workload("constant:size=64", P), hand_machine(), vendor).total();
  };
  CHECK(at(3, "openmpi") == constant("ompi_pairwise", 3, 64).total());
  CHECK(at(40, "openmpi") == constant("ompi_linear", 40, 64).total());
  CHECK(at(40, "mpich") == constant("scattered:batch=32", 40, 64).total());
  CHECK(at(40, "cray-mpich") == constant("scattered:batch=1,lazy_sends=1", 40, 64).total());
  CHECK(at(40, "cray-mpich") != at(40, "mpich"));
  // Fujitsu MPI (as measured on Fugaku, Open MPI 4.0's decision): pairwise at every size, where
  // Open MPI 4.1's rules pick basic linear.
  CHECK(at(40, "fujitsu-mpi") == constant("ompi_pairwise", 40, 64).total());
  CHECK(at(2048, "fujitsu-mpi") == constant("ompi_pairwise", 2048, 64).total());
  CHECK(at(40, "fujitsu-mpi") != at(40, "openmpi"));
}

TEST_CASE("radix-2 Bruck: Σ_k (α + m_k·n·β), m_k = |{i < P : bit k of i set}|") {
  // P = 5: m_0 = |{1, 3}| = 2, m_1 = |{2, 3}| = 2, m_2 = |{4}| = 1.
  for (const char* name :
       {"bruck_basic", "bruck_modified", "bruck_zero_copy", "bruck_zero_rotation", "bruck_radix"}) {
    CAPTURE(name);
    const model::Cost cost = constant(name, 5, 10);
    CHECK(cost.total() == a2a::testing::approx(3 * kAlpha + 5 * 10 * kBeta));
    CHECK(cost.rounds == 3);
  }
}

TEST_CASE("Bruck copies: rotations and staged arrivals at memory bandwidth") {
  model::Machine m = hand_machine();
  m.copy_beta = 1e-10;
  const double network = 3 * kAlpha + 50 * kBeta;  // P = 5, n = 10 as above
  // basic: two rotations of P·n and the staged arrivals (5 blocks); zero-copy: one rotation.
  CHECK(constant("bruck_basic", 5, 10, m).copy == a2a::testing::approx((50 + 50 + 50) * 1e-10));
  CHECK(constant("bruck_modified", 5, 10, m).copy == a2a::testing::approx((50 + 50) * 1e-10));
  CHECK(constant("bruck_zero_copy", 5, 10, m).total() ==
        a2a::testing::approx(network + 50 * 1e-10));
  CHECK(constant("bruck_zero_rotation", 5, 10, m).copy == a2a::testing::approx((10 + 50) * 1e-10));
}

TEST_CASE("Bruck in radix 3: rounds (x, z) with m_{x,z} the blocks whose digit x is z") {
  // P = 5 in base 3: (0,1): {1, 4}; (0,2): {2}; (1,1): {3, 4}.
  const model::Cost cost = constant("bruck_radix:radix=3", 5, 10);
  CHECK(cost.total() == a2a::testing::approx(3 * kAlpha + (2 + 1 + 2) * 10 * kBeta));
  CHECK(cost.rounds == 3);
}

TEST_CASE("padded_bruck: ⌈log2 P⌉·(α + 8β) + Σ_k (α + m_k·N·β), N the largest block") {
  FormulaWorkload uneven(5, [](int src, int dst) { return src == 3 && dst == 1 ? 40 : 7; });
  CHECK(cost_of("padded_bruck", uneven).total() ==
        a2a::testing::approx(3 * (kAlpha + 8 * kBeta) + 3 * kAlpha + 5 * 40 * kBeta));
}

TEST_CASE("two_phase_bruck: metadata then the exact largest message of every round") {
  // P = 4, s(a, b) = 10a + b + 1 bytes. Round 0 (distance 1): rank p sends the blocks at relative
  // indices 1 and 3, (p, p−1) and (p, p+1): at most 33 + 31 = 64 bytes (rank 3). Round 1
  // (distance 2): indices 2 and 3, (p, p−2) and the forwarded (p+1, p−2): at most 21 + 31 = 52
  // (rank 2). Metadata: 2 sizes of 8 bytes per round. Allreduce: 2 steps of 8 bytes.
  FormulaWorkload workload(4, [](int src, int dst) { return 10 * src + dst + 1; });
  const model::Cost cost = cost_of("two_phase_bruck", workload);
  CHECK(cost.total() == a2a::testing::approx(6 * kAlpha + (2 * 8 + 2 * 16 + 64 + 52) * kBeta));
  CHECK(cost.rounds == 2);
  CHECK(cost.steps == 6);
  // parlogna radix 2 is the same exchange; radix 3 = P − 1 has no temporary buffer: no allreduce.
  CHECK(cost_of("parlogna:radix=2", workload).total() == a2a::testing::approx(cost.total()));
  CHECK(cost_of("parlogna:radix=3", workload).steps == 2 * 3);
}

TEST_CASE("two ranks per node: the node's link is shared (contention), intra-node is separate") {
  model::Machine m = hand_machine();
  m.ranks_per_node = 2;
  // spread_out P = 4, n = 1000: a rank sends 2 blocks off-node (2000 B), its node's link carries
  // 4 (4000 B); the intra-node block costs 0.1 µs + 0.1 µs, below the inter-node branch.
  const model::Cost cost = constant("spread_out", 4, 1000, m);
  CHECK(cost.latency == a2a::testing::approx(kAlpha));
  CHECK(cost.bandwidth == a2a::testing::approx(2000 * kBeta));
  CHECK(cost.contention == a2a::testing::approx(2000 * kBeta));
  // A step with only intra-node messages: ompi_pairwise step 1 on P = 2 ranks of one node.
  const model::Cost intra = constant("ompi_pairwise", 2, 1000, m);
  CHECK(intra.total() == a2a::testing::approx(1e-7 + 1000 * 1e-10));
}

TEST_CASE("models refuse what their algorithm refuses") {
  FormulaWorkload uneven(4, [](int src, int) { return src + 1; });
  CHECK_THROWS_AS(cost_of("bruck_basic", uneven), NotApplicable);
  CHECK_THROWS_AS(constant("bitonic_inplace", 3, 8), NotApplicable);
}
