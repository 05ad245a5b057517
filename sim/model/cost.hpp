// The terms of an analytic cost and the builder every model adds them up with (docs/models.md).
//
// A model follows its algorithm's code on all ranks at once, one communication step at a time (a
// step: the messages a rank posts before it waits). In the notation of machine.hpp, a step whose
// messages cross the network costs
//   T = α + max(b·β, S·β_nic, max_l B_l / C_l)                       (Hockney, per step)
// with b the largest message, S the most bytes one rank sends or receives in the step (its own
// link carries them one after another: Hockney's β·Σ bytes) and B_l the bytes of the step's
// messages crossing link l of capacity C_l (links shared by several ranks' messages: a node's link
// when it holds several ranks, the network's links on a dragonfly or a torus). The terms are kept
// apart: latency α, bandwidth max(b·β, S·β_nic), contention what the most loaded link adds.
// With LogGP's overhead o for a rank that posts r receives then s sends:
//   T = α + max((r + s)·o + b·β, (r + 1)·o + max(S·β_nic, B_l / C_l))
// (the last message is posted after r + s posts; the links start draining after the first send;
// when every rank sends to the same destination last, that destination's link drains only after
// the last post: (r + s)·o). overhead = what o adds. Machines read from a platform know their
// routes: α is then the longest route latency among the step's messages, β each message's own
// route, and every link of every route is loaded; a hand-made Machine knows only the nodes' links.
// Steps with only intra-node messages cost α_intra + (r + s)·o + b·β_intra (no sharing); a step
// with both costs the larger. Local copies cost bytes · copy β on the rank that copies the most,
// group launches `launch` each. Steps add up: ranks are taken to run in lockstep, so a step costs
// what its slowest rank pays.
// The machine terms of docs/simulation.md: a NIC engine handles its messages one at a time, g
// each (nic_message_time), so a step takes at least g × the most messages one engine of a node
// sends or receives off-node (`nic`, what that adds beyond the rest of the step; g less when
// pipelined, as the last message does not wait for itself; a node has nic_engines engines per
// direction, each serving the messages nic_engine_choice gives it); MPI matching makes
// the k-th of r receives posted cost k·m more (match_time), r(r − 1)/2·m in all, added to the
// posting overhead; a step with an inter-node message above the platform's inject_size waits one
// more route latency, for the receiver's acknowledgement of its send.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/comm.hpp"
#include "sim/model/machine.hpp"

namespace a2a::model {

struct Cost {
  double latency = 0;     // α (or α_intra) once per step
  double bandwidth = 0;   // b·β or a rank's own bytes through its link, per step
  double contention = 0;  // what links shared between ranks' messages add
  double nic = 0;         // what a node's NIC, one message at a time, adds
  double overhead = 0;    // LogGP: what posting messages adds (0 when o = 0)
  double copy = 0;        // local copies at memory-copy bandwidth
  double launch = 0;      // group launches
  int rounds = 0;         // rounds as the algorithm counts them (Comm::next_round per rank)
  int steps = 0;          // communication steps (metadata and data of a round are two)
  double total() const { return latency + bandwidth + contention + nic + overhead + copy + launch; }
};

// Operations a rank posts in a step before it waits: `receives` first, then `sends`.
struct Posts {
  std::int64_t receives = 1;
  std::int64_t sends = 1;
  bool same_last_destination = false;  // every rank's last send goes to the same rank
  bool waits_sends = true;             // the step ends when its sends are done, not only received
};

class CostBuilder {
 public:
  CostBuilder(const Machine& machine, int ranks);

  // One step; `messages(emit)` calls emit(src, dst, bytes) for every message every rank sends in
  // it. A step without messages costs nothing.
  template <typename Messages>
  void step(Posts posts, Messages&& messages) {
    messages([this](int src, int dst, Bytes bytes) { add_message(src, dst, bytes); });
    end_step(posts);
  }
  // A copy of `bytes` on the rank that copies the most.
  void copy(Bytes bytes);
  void launch(int groups = 1);
  void round(int count = 1);
  // Comm::allreduce_max in simulation: ⌈log2 P⌉ dissemination steps (send to p + 2^k, receive
  // from p − 2^k) of one 8-byte value.
  void allreduce_max();
  // Steps whose ranks do not run in lockstep: between begin_free_running() and
  // end_free_running() a node's NIC engines work through the messages of all the steps as they
  // come, so the NIC term is what the busiest engine's messages of the whole stretch add beyond
  // the stretch's other costs, not the sum of each step's excess. For exchanges made of
  // independent chains of ranks (ParLinNa's phase 2: rank (n, g) talks only to ranks (m, g)), whose
  // ranks of one node drift apart and so spread over its engines what lockstep would put on one.
  void begin_free_running();
  void end_free_running();
  // Comm::barrier in simulation (sim/smp_barrier.hpp): a node's ranks meet at its first rank
  // through shared memory (α_intra, no posting overhead), the first ranks run ⌈log2 N⌉
  // dissemination steps of empty messages, and release their nodes through shared memory.
  //   W = [Q > 1]·2·α_intra + ⌈log2 N⌉·(α + 2·o)
  void barrier();

  const Machine& machine() const { return machine_; }
  int ranks() const { return ranks_; }
  const Cost& cost() const { return cost_; }

 private:
  // Adds `bytes` to a per-index tally, remembering which indices to reset after the step.
  struct Tally {
    std::vector<double> value;
    std::vector<std::uint32_t> touched;
    void add(std::uint32_t index, double amount);
    double largest() const;
    void reset();
  };

  void add_message(int src, int dst, Bytes bytes);
  void end_step(Posts posts);
  // What a node engine's `messages` (NIC time each) add beyond `other_seconds` of other costs.
  double nic_beyond(double messages, double other_seconds) const;

  const Machine& machine_;
  int ranks_;
  Cost cost_;
  // The step being added up.
  Tally rank_out_, rank_in_;  // bytes each rank sends / receives off its node
  Tally link_load_;           // seconds of each shared link's bytes (bytes / capacity)
  Tally node_messages_;       // messages engine e of node n sends (2(nE + e)) and receives
                              // (2(nE + e) + 1) off-node, E engines per node
  // Between begin_free_running() and end_free_running(): node_messages_ summed over the steps,
  // and the steps' costs without the NIC.
  bool free_running_ = false;
  Tally free_running_messages_;
  double free_running_seconds_ = 0;
  double latency_ = 0;  // longest route latency of an inter-node message
  double message_ = 0;  // longest lone transfer time of an inter-node message
  Bytes largest_intra_ = 0;
  Bytes largest_inter_ = 0;
  bool any_inter_ = false, any_intra_ = false;
};

}  // namespace a2a::model
