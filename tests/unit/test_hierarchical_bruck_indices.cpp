// hierarchical_bruck's inter-node indices (algorithms/nonuniform/hierarchical_bruck_layout.hpp),
// for P = 1..40, Q in {1, 2, 3, 4, P} dividing P and every node radix 2..N: the columns of the
// ranks with one local index deliver every block from another node exactly once; a column's run
// names its members; a member starts in the outbox slot that ParLinNa's own index code
// (outgoing_block) says phase 1 left it in, every slot distinct; and the transit slots of the
// non-direct node distances are distinct and inside the buffer. The rounds themselves are the
// radix exchange's, tested with ParLogNa and ParLinNa (test_parlogna_indices.cpp,
// test_parlinna_groups.cpp).
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "algorithms/nonuniform/hierarchical_bruck_layout.hpp"
#include "tests/unit/block_runs.hpp"

namespace a2a::hierarchical_layout {
namespace {

constexpr int kMaxRanks = 40;

std::set<int> node_sizes(int P) {
  std::set<int> out;
  for (int Q : {1, 2, 3, 4, P}) {
    if (P % Q == 0) out.insert(Q);
  }
  return out;
}

template <typename F>
void for_each_shape(F&& f) {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int Q : node_sizes(P)) {
      for (int p = 0; p < P; ++p)
        f(P, Hierarchy::of(p, P, Q));
    }
  }
}

}  // namespace

TEST_CASE("hierarchical_bruck columns deliver every block from another node exactly once") {
  for_each_shape([](int P, const Hierarchy& h) {
    CAPTURE(P);
    CAPTURE(h.ranks_per_node);
    test::BlockSet delivered;
    for (int a = 0; a < h.nodes; ++a) {
      if (a == h.node) continue;  // phase 1 delivers the own node's blocks
      std::vector<BlockId> from_run;
      test::expand(P, inter_node_run(h, a, h.node), from_run);
      REQUIRE(from_run.size() == static_cast<size_t>(h.ranks_per_node));
      for (int m = 0; m < h.ranks_per_node; ++m) {
        const BlockId block = inter_node_block(h, a, h.node, m);
        CHECK(block == from_run[static_cast<size_t>(m)]);
        CHECK(block.dst == h.rank_of(h.node, h.local));
        CHECK(block.src / h.ranks_per_node == a);
        CHECK(delivered.insert(block).second);
      }
    }
    CHECK(delivered.size() == static_cast<size_t>(P - h.ranks_per_node));
  });
}

TEST_CASE("hierarchical_bruck members start where ParLinNa's phase 1 left them, one slot each") {
  for_each_shape([](int P, const Hierarchy& h) {
    CAPTURE(P);
    CAPTURE(h.ranks_per_node);
    for (int r = 2; r <= std::max(2, h.ranks_per_node); ++r) {
      const parlinna::OutboxLayout outbox{h, r, /*own_column_slot=*/false};
      std::set<std::int64_t> slots;
      for (int b = 0; b < h.nodes; ++b) {
        if (b == h.node) continue;
        for (int m = 0; m < h.ranks_per_node; ++m) {
          if (m == h.local) continue;  // the rank's own block: in the send buffer
          const std::int64_t slot = outbox_slot(outbox, b, m);
          CHECK(slot >= 0);
          CHECK(slot < outbox.row_slots());
          CHECK(slots.insert(slot).second);
          // What ParLinNa staggered sends from that slot is this member.
          const int k = parlinna::row_of_node(h, b);
          const int o = static_cast<int>(mod(m - h.local, h.ranks_per_node));
          CHECK(outbox.row_slot(k, o) == slot);
          CHECK(parlinna::outgoing_block(h, k, o) == inter_node_block(h, h.node, b, m));
        }
      }
    }
  });
}

TEST_CASE("hierarchical_bruck transit slots: one per member of every non-direct node distance") {
  for (int N = 1; N <= kMaxRanks; ++N) {
    for (int Q : {1, 2, 3, 5}) {
      for (int r = 2; r <= std::max(2, N); ++r) {
        CAPTURE(N);
        CAPTURE(Q);
        CAPTURE(r);
        std::set<std::int64_t> slots;
        for (int o = 1; o < N; ++o) {
          if (radix::is_direct(o, r)) continue;
          for (int m = 0; m < Q; ++m) {
            const std::int64_t slot = transit_slot(radix::temp_slot(o, r), Q, m);
            CHECK(slot >= 0);
            CHECK(slot < transit_slots(N, Q, r));
            CHECK(slots.insert(slot).second);
          }
        }
        CHECK(slots.size() == static_cast<size_t>(transit_slots(N, Q, r)));
      }
    }
  }
}

}  // namespace a2a::hierarchical_layout
