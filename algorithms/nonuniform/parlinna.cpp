// Shared parts of ParLinNa (Fan et al., HPDC 2025, §4); see parlinna.hpp.
#include "algorithms/nonuniform/parlinna.hpp"

#include <algorithm>

#include "algorithms/direct.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/footprint.hpp"
#include "algorithms/nonuniform/radix_exchange.hpp"

namespace a2a::parlinna {

namespace {

// The batch default: the paper sweeps b and publishes no default (nor does the authors' code);
// the inter-node phase is MPICH's scattered algorithm (§4), so it takes scattered's throttle, 32.
constexpr std::int64_t kDefaultBatch = 32;

// Phase 1 columns: the column at distance o stands for one block per node m.
class NodeColumns final : public radix::ColumnLayout {
 public:
  explicit NodeColumns(const Outbox& outbox) : outbox_(outbox), h_(outbox.layout().h) {}

  int members() const override { return h_.nodes; }
  BlockId block(int src, int dst, int m) const override { return column_block(h_, src, dst, m); }
  // Member m is bound for node m: one source, destinations Q apart.
  BlockRun members_run(int src, int dst) const override {
    return {column_block(h_, src, dst, 0), 0, h_.nodes > 1 ? h_.ranks_per_node : 0, h_.nodes};
  }
  Place in_transit(int o, int m) const override {
    return outbox_.slot(outbox_.layout().in_transit_slot(o, m));
  }
  // The member for this node has arrived; the others wait in their row for phase 2.
  Place delivered(BlockId block, int o, int m) const override {
    if (m == h_.node) return Place::recv_block(block.src);
    return outbox_.slot(outbox_.layout().row_slot(row_of_node(h_, m), o));
  }

 private:
  const Outbox& outbox_;
  Hierarchy h_;
};

}  // namespace

std::vector<ParamSpec> params() {
  return {
      {.name = "ranks_per_node",
       .meaning = "Q, ranks per node: the intra-node groups are ranks nQ..nQ+Q-1",
       .default_value = 0,
       .default_is_machine = true,
       .min = 1,
       .max = ParamBound::ranks()},
      {.name = "radix",
       .meaning = "radix of the intra-node ParLogNa phase, 2..Q (ignored when Q = 1)",
       .default_value = 2,
       .min = 2,
       .max = ParamBound::ranks()},
      {.name = "batch",
       .meaning = "inter-node messages posted per batch before waiting",
       .default_value = kDefaultBatch,
       .min = 1,
       .max = ParamBound::unbounded()},
  };
}

std::optional<std::string> check(const ExchangeShape& shape, const Params& params) {
  const int P = shape.ranks;
  const int Q = params.get_int("ranks_per_node");
  const int r = params.get_int("radix");
  if (P % Q != 0) {
    return "ranks_per_node=" + std::to_string(Q) + " does not divide P=" + std::to_string(P) +
           " (only full nodes are supported)";
  }
  if (Q >= 2 && r > Q) {
    return "radix=" + std::to_string(r) + " exceeds ranks_per_node=" + std::to_string(Q) +
           " (the intra-node phase runs in radix 2..Q)";
  }
  return std::nullopt;
}

MessageFootprint footprint(const ExchangeShape& shape, const Params& params) {
  const int Q = std::max(1, params.get_int("ranks_per_node"));
  const std::int64_t intra_node = footprint::radix_peers(Q, params.get_int("radix"));
  return {.in_flight = params.get("batch"),
          .data_peers = intra_node + shape.ranks / Q - 1,
          .metadata_peers = intra_node};
}

Setup Setup::of(const Comm& comm, const Params& params) {
  return of(comm.rank(), comm.size(), params);
}

Setup Setup::of(int rank, int ranks, const Params& params) {
  if (auto reason = check({.ranks = ranks}, params)) throw NotApplicable(*reason);
  Setup setup;
  setup.hierarchy = Hierarchy::of(rank, ranks, params.get_int("ranks_per_node"));
  setup.radix = params.get_int("radix");
  // A batch covers at most every inter-node message, fewer than P; larger values change nothing.
  // hierarchical_bruck, which shares phase 1, has no batch: one message per round.
  const bool batched = params.values().count("batch") > 0;
  setup.batch = batched ? static_cast<int>(std::min<std::int64_t>(params.get("batch"), ranks)) : 1;
  return setup;
}

Outbox::Outbox(Comm& comm, const OutboxLayout& layout) : layout_(layout) {
  if (layout.slots() == 0) return;
  comm.set_phase(phase::setup);
  slot_bytes_ = comm.allreduce_max(comm.max_send_block_bytes());
  buffer_.emplace(comm, layout.slots() * slot_bytes_);
}

void intra_node(Comm& comm, const Setup& setup, const Outbox& outbox) {
  const Hierarchy& h = setup.hierarchy;
  comm.set_phase(phase::copy);
  direct::copy_self_block(comm);
  const NodeColumns columns(outbox);
  radix::exchange(comm, {h.rank_of(h.node, 0), h.ranks_per_node, h.local}, setup.radix, columns,
                  {phase::intra_node, phase::intra_node});
}

}  // namespace a2a::parlinna
