// ParLinNa's groupings (algorithms/nonuniform/parlinna_layout.hpp), for P = 1..40, Q in
// {1, 2, 3, 4, P} dividing P and every intra-node radix 2..Q: a plain-array model of every rank
// runs phase 1 with the same functions the algorithms use (the radix exchange's rounds on the
// node's Q ranks, columns of one block per node, the outbox slots) and checks that afterwards rank
// (n, g) holds exactly the blocks from (n, 0..Q−1) to (m, g) for every other node m — each in its
// row slot, with its size learned from the metadata — and every block for its own node in R. Then
// the inter-node messages: both sides agree block by block, peers pair up, every block ends in R.
// Finally the coalesced rearrangement, byte by byte: compacting the rows in place, front to back,
// never overwrites a block before it is read.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/nonuniform/parlinna_layout.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"
#include "tests/unit/block_runs.hpp"

namespace a2a::parlinna {
namespace {

constexpr int kMaxRanks = 40;

using test::BlockSet;

std::vector<int> node_sizes(int P) {
  std::set<int> out;
  for (int Q : {1, 2, 3, 4, P}) {
    if (Q >= 1 && Q <= P && P % Q == 0) out.insert(Q);
  }
  return {out.begin(), out.end()};
}

std::vector<int> radices(int Q) {
  std::vector<int> out;
  for (int r = 2; r <= std::max(Q, 2); ++r)
    out.push_back(r);
  return out;
}

struct RankState {
  Hierarchy h;
  std::vector<std::optional<BlockId>> outbox;  // OutboxLayout slots
  std::vector<std::optional<BlockId>> recv;    // R, by source
  BlockSet learned;                            // sizes received as metadata
  bool knows(BlockId b, int p) const { return b.src == p || b.dst == p || learned.count(b) > 0; }
};

// Phase 1 of every node, round by round, as radix_exchange.cpp enumerates it with NodeColumns.
std::vector<RankState> run_phase1(int P, int Q, int r, bool own_column_slot) {
  std::vector<RankState> ranks(static_cast<std::size_t>(P));
  for (int p = 0; p < P; ++p) {
    ranks[p].h = Hierarchy::of(p, P, Q);
    const OutboxLayout layout{ranks[p].h, r, own_column_slot};
    ranks[p].outbox.resize(static_cast<std::size_t>(layout.slots()));
    ranks[p].recv.resize(static_cast<std::size_t>(P));
    ranks[p].recv[p] = BlockId{p, p};  // the self block: a local copy
  }
  bruck::for_each_round(Q, r, [&](const radix::Round& round) {
    std::vector<std::vector<BlockId>> messages(static_cast<std::size_t>(P));
    for (int p = 0; p < P; ++p) {
      RankState& me = ranks[p];
      const OutboxLayout layout{me.h, r, own_column_slot};
      bruck::for_each_index(Q, round, r, [&](int o) {
        const BlockId local = bruck::modified_block(Q, me.h.local, o, round.place);
        for (int m = 0; m < me.h.nodes; ++m) {
          const BlockId block = column_block(me.h, local.src, local.dst, m);
          CHECK(me.knows(block, p));  // the sender can announce its size
          if (!bruck::has_moved(o, round.place)) {
            CHECK(block.src == p);
          } else {
            const auto slot = layout.in_transit_slot(o, m);
            REQUIRE(slot >= 0);
            REQUIRE(slot < layout.slots());
            REQUIRE(me.outbox[slot].has_value());
            CHECK(*me.outbox[slot] == block);
            me.outbox[slot].reset();
          }
          messages[p].push_back(block);
        }
      });
    }
    for (int p = 0; p < P; ++p) {
      RankState& me = ranks[p];
      const OutboxLayout layout{me.h, r, own_column_slot};
      const int from_local = bruck::recv_peer(Q, me.h.local, bruck::Orientation::modified, round);
      const int from = me.h.rank_of(me.h.node, from_local);
      CHECK(bruck::send_peer(Q, from_local, bruck::Orientation::modified, round) == me.h.local);
      std::size_t n = 0;
      bruck::for_each_index(Q, round, r, [&](int o) {
        const BlockId local = bruck::modified_block(Q, from_local, o, round.place);
        for (int m = 0; m < me.h.nodes; ++m) {
          const BlockId block = column_block(me.h, local.src, local.dst, m);
          REQUIRE(n < messages[from].size());
          CHECK(messages[from][n++] == block);
          me.learned.insert(block);  // the round's metadata
          std::int64_t slot = -1;
          if (radix::is_last_hop(o, round, r)) {
            CHECK(block.dst == me.h.rank_of(m, me.h.local));
            if (m == me.h.node) {
              CHECK_FALSE(me.recv[block.src].has_value());
              me.recv[block.src] = block;
              continue;
            }
            slot = layout.row_slot(row_of_node(me.h, m), o);
          } else {
            slot = layout.in_transit_slot(o, m);
          }
          REQUIRE(slot >= 0);
          REQUIRE(slot < layout.slots());
          CHECK_FALSE(me.outbox[slot].has_value());
          me.outbox[slot] = block;
        }
      });
      CHECK(n == messages[from].size());
    }
  });
  return ranks;
}

TEST_CASE("ParLinNa phase 1: rank (n, g) holds the blocks from (n, *) to (m, g) for every node m") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int Q : node_sizes(P)) {
      for (int r : radices(Q)) {
        for (bool own_column_slot : {true, false}) {
          CAPTURE(P);
          CAPTURE(Q);
          CAPTURE(r);
          CAPTURE(own_column_slot);
          const auto ranks = run_phase1(P, Q, r, own_column_slot);
          for (int p = 0; p < P; ++p) {
            const RankState& me = ranks[p];
            const Hierarchy& h = me.h;
            const OutboxLayout layout{h, r, own_column_slot};
            CHECK(layout.slots() == std::int64_t{h.nodes - 1} * (own_column_slot ? Q : Q - 1) +
                                        radix::temp_slots(Q, r));
            // Blocks for this node are in R.
            for (int g = 0; g < Q; ++g) {
              const int s = h.rank_of(h.node, g);
              REQUIRE(me.recv[s].has_value());
              CHECK(*me.recv[s] == BlockId{s, p});
            }
            // What the rank holds for other nodes: outbox rows plus its own send blocks.
            BlockSet held;
            for (int m = 0; m < h.nodes; ++m) {
              if (m != h.node) held.insert({p, h.rank_of(m, h.local)});
            }
            for (std::int64_t slot = 0; slot < layout.slots(); ++slot) {
              if (!me.outbox[slot]) continue;
              CHECK(slot < layout.row_slots());  // transit slots are empty again
              held.insert(*me.outbox[slot]);
            }
            BlockSet expected;
            for (int m = 0; m < h.nodes; ++m) {
              for (int g = 0; g < Q; ++g) {
                if (m != h.node) expected.insert({h.rank_of(h.node, g), h.rank_of(m, h.local)});
              }
            }
            CHECK(held == expected);
            // ... each at the row slot the inter-node phase reads, with its size known.
            for (int k = 1; k < h.nodes; ++k) {
              for (int o = 0; o < Q; ++o) {
                const BlockId block = outgoing_block(h, k, o);
                CHECK(me.knows(block, p));
                if (o == 0) {
                  CHECK(block.src == p);  // read from the send buffer
                  continue;
                }
                const auto slot = layout.row_slot(k, o);
                REQUIRE(me.outbox[slot].has_value());
                CHECK(*me.outbox[slot] == block);
              }
            }
          }
        }
      }
    }
  }
}

TEST_CASE("ParLinNa phase 2: peers pair up and both sides name the same blocks") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int Q : node_sizes(P)) {
      CAPTURE(P);
      CAPTURE(Q);
      std::vector<std::vector<std::optional<BlockId>>> recv(static_cast<std::size_t>(P),
                                                            std::vector<std::optional<BlockId>>(P));
      for (int p = 0; p < P; ++p) {
        const Hierarchy h = Hierarchy::of(p, P, Q);
        for (int g = 0; g < Q; ++g)
          recv[p][h.rank_of(h.node, g)] = BlockId{h.rank_of(h.node, g), p};
      }
      for (int p = 0; p < P; ++p) {
        const Hierarchy h = Hierarchy::of(p, P, Q);
        // The rows as runs (one row per message, all rows for the rearrangement) name exactly
        // the blocks of outgoing_block.
        std::vector<BlockId> all_rows;
        outgoing_runs(h, 1, h.nodes - 1,
                      [&](const BlockRun& run) { test::expand(P, run, all_rows); });
        CHECK(all_rows.size() == static_cast<std::size_t>((h.nodes - 1) * Q));
        for (int k = 1; k < h.nodes; ++k) {
          CHECK(row_of_node(h, node_of_row(h, k)) == k);
          std::vector<BlockId> row_blocks;
          outgoing_runs(h, k, 1, [&](const BlockRun& run) { test::expand(P, run, row_blocks); });
          CHECK(row_blocks.size() == static_cast<std::size_t>(Q));
          for (int o = 0; o < Q; ++o)
            CHECK(std::count(all_rows.begin(), all_rows.end(), outgoing_block(h, k, o)) == 1);
          const int to = send_peer(h, k);
          const Hierarchy th = Hierarchy::of(to, P, Q);
          CHECK(th.local == h.local);
          CHECK(th.node != h.node);
          CHECK(recv_peer(th, k) == p);
          for (int o = 0; o < Q; ++o) {
            const BlockId block = outgoing_block(h, k, o);
            CHECK(block.dst == to);
            CHECK(block.src / Q == h.node);
            CHECK(incoming_block(th, k, o) == block);
            CHECK(std::count(row_blocks.begin(), row_blocks.end(), block) == 1);
            CHECK_FALSE(recv[to][block.src].has_value());
            recv[to][block.src] = block;
          }
        }
      }
      for (int p = 0; p < P; ++p) {
        for (int s = 0; s < P; ++s) {
          REQUIRE(recv[p][s].has_value());
          CHECK(*recv[p][s] == BlockId{s, p});
        }
      }
    }
  }
}

// Deterministic block sizes in [0, max].
std::int64_t size_of(BlockId b, std::int64_t max, int seed) {
  std::uint64_t x = (static_cast<std::uint64_t>(b.src) * 1000003u + b.dst) * 2654435761u + seed;
  x ^= x >> 13;
  return static_cast<std::int64_t>(x % static_cast<std::uint64_t>(max + 1));
}

TEST_CASE("coalesced rearrangement compacts the rows in place without clobbering") {
  for (int P : {2, 4, 6, 8, 9, 12, 16, 20}) {
    for (int Q : node_sizes(P)) {
      for (int r : radices(Q)) {
        for (std::int64_t max : {0, 1, 7, 64}) {
          for (int seed = 0; seed < 3; ++seed) {
            CAPTURE(P);
            CAPTURE(Q);
            CAPTURE(r);
            CAPTURE(max);
            for (int p = 0; p < P; ++p) {
              const Hierarchy h = Hierarchy::of(p, P, Q);
              const OutboxLayout layout{h, r, true};
              // Fill each row slot with its block's bytes, tagged by block so a clobber shows.
              std::vector<unsigned char> buffer(static_cast<std::size_t>(layout.slots() * max),
                                                0xEE);
              auto pattern = [&](BlockId b, std::int64_t i) {
                return static_cast<unsigned char>(b.src * 31 + b.dst * 7 + i);
              };
              for (int k = 1; k < h.nodes; ++k) {
                for (int o = 1; o < Q; ++o) {
                  const BlockId b = outgoing_block(h, k, o);
                  for (std::int64_t i = 0; i < size_of(b, max, seed); ++i)
                    buffer[layout.row_slot(k, o) * max + i] = pattern(b, i);
                }
              }
              // The moves of parlinna_coalesced.cpp's rearrange(), in its order.
              std::int64_t offset = 0;
              for (int k = 1; k < h.nodes; ++k) {
                for (int o = 0; o < Q; ++o) {
                  const BlockId b = outgoing_block(h, k, o);
                  const std::int64_t bytes = size_of(b, max, seed);
                  std::vector<unsigned char> own(static_cast<std::size_t>(bytes));
                  for (std::int64_t i = 0; i < bytes; ++i)
                    own[i] = pattern(b, i);
                  const unsigned char* from =
                      o == 0 ? own.data() : buffer.data() + layout.row_slot(k, o) * max;
                  if (bytes > 0) std::memmove(buffer.data() + offset, from, bytes);
                  offset += bytes;
                }
              }
              std::int64_t at = 0;
              for (int k = 1; k < h.nodes; ++k) {
                for (int o = 0; o < Q; ++o) {
                  const BlockId b = outgoing_block(h, k, o);
                  bool intact = true;
                  for (std::int64_t i = 0; i < size_of(b, max, seed); ++i)
                    intact = intact && buffer[at + i] == pattern(b, i);
                  CHECK(intact);
                  at += size_of(b, max, seed);
                }
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace a2a::parlinna
