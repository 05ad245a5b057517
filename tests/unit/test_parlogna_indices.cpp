// ParLogNa's index arithmetic (algorithms/nonuniform/parlogna_indices.hpp), exhaustively for
// P = 1..40 and every radix 2..P: direct blocks, the round count K, the T-slot mapping
// t = o − 1 − dx·(r−1) − dz as a bijection onto 0..B−1 with B = P − (K+1), last hops — and, in a
// plain-array model of every rank's buffers that moves blocks round by round with the same
// functions radix_exchange.cpp uses, that every block a message claims is really where it is read
// from, that direct and self blocks never touch T, and that every block ends in R at its source.
// The same model runs two_phase_bruck's layout (W of P slots at the zero-rotation position).
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <vector>

#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/nonuniform/parlogna_indices.hpp"

namespace a2a::radix {
namespace {

constexpr int kMaxRanks = 40;

std::vector<int> radices(int P) {
  std::vector<int> out;
  for (int r = 2; r <= std::max(P, 2); ++r)
    out.push_back(r);
  return out;
}

// Base-r digits of o, least significant first, by repeated division.
std::vector<int> digits_of(std::int64_t o, int r) {
  std::vector<int> out;
  for (; o > 0; o /= r)
    out.push_back(static_cast<int>(o % r));
  return out;
}

int nonzero_digits(std::int64_t o, int r) {
  int count = 0;
  for (int d : digits_of(o, r))
    count += d != 0;
  return count;
}

int highest_nonzero_position(std::int64_t o, int r) {
  const auto digits = digits_of(o, r);
  return static_cast<int>(digits.size()) - 1;
}

TEST_CASE("direct distances are those with a single non-zero digit, one per round") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      std::vector<std::int64_t> round_distances;
      bruck::for_each_round(P, r,
                            [&](const Round& round) { round_distances.push_back(round.distance); });
      std::vector<std::int64_t> direct;
      for (int o = 0; o < P; ++o) {
        CHECK(is_direct(o, r) == (nonzero_digits(o, r) == 1));
        if (is_direct(o, r)) direct.push_back(o);
      }
      // Round (x, z) is the one that carries direct distance z·r^x; rounds run in ascending order
      // of x then z, which is ascending order of distance.
      CHECK(direct == round_distances);
      CHECK(static_cast<int>(direct.size()) == bruck::round_count(P, r));
    }
  }
}

TEST_CASE("T-slot mapping is a bijection from non-direct, non-self distances onto 0..B-1") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      const int K = bruck::round_count(P, r);
      const int B = temp_slots(P, r);
      CHECK(B == (P <= 1 ? 0 : P - (K + 1)));
      std::vector<int> hits(static_cast<std::size_t>(std::max(B, 0)), 0);
      int direct_below = 0;
      for (int o = 1; o < P; ++o) {
        if (is_direct(o, r)) {
          ++direct_below;
          continue;
        }
        const int t = temp_slot(o, r);
        CAPTURE(o);
        // o minus the self distance and the direct distances below it.
        CHECK(t == o - 1 - direct_below);
        REQUIRE(t >= 0);
        REQUIRE(t < B);
        ++hits[static_cast<std::size_t>(t)];
      }
      for (int count : hits)
        CHECK(count == 1);
      // r ≥ P − 1: every distance is direct, no T at all.
      if (r >= P - 1) CHECK(B == 0);
    }
  }
}

TEST_CASE("the paper's examples: P = 8 needs B = 4, 3, 3 slots for r = 2, 3, 4") {
  CHECK(temp_slots(8, 2) == 4);
  CHECK(temp_slots(8, 3) == 3);
  CHECK(temp_slots(8, 4) == 3);
  // Fig. 2(a): o = 3 maps to t = 0 and o = 5 to t = 1.
  CHECK(temp_slot(3, 2) == 0);
  CHECK(temp_slot(5, 2) == 1);
  // Powers of r: the paper's ceil(log_r o) would be off by one here.
  CHECK(temp_slots(125, 5) == 125 - 1 - 12);
  CHECK(is_direct(25, 5));
  CHECK(temp_slot(26, 5) == 26 - 1 - 2 * 4 - 1);
}

TEST_CASE("round list: pairs (x, z) with z·r^x < P, each distance moved once per non-zero digit") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      std::vector<Round> rounds;
      bruck::for_each_round(P, r, [&](const Round& round) { rounds.push_back(round); });
      std::vector<std::pair<int, int>> expected;
      std::int64_t place = 1;
      for (int x = 0; place < P; ++x, place *= r) {
        for (int z = 1; z < r; ++z) {
          if (z * place < P) expected.emplace_back(x, z);
        }
      }
      REQUIRE(rounds.size() == expected.size());
      for (std::size_t k = 0; k < rounds.size(); ++k) {
        CHECK(rounds[k].x == expected[k].first);
        CHECK(rounds[k].z == expected[k].second);
        CHECK(rounds[k].distance == rounds[k].z * rounds[k].place);
      }
      // Every distance o is moved in exactly the rounds of its non-zero digits; the last of them is
      // the one is_last_hop names; has_moved is false exactly in the first.
      for (int o = 1; o < P; ++o) {
        const auto digits = digits_of(o, r);
        int moves = 0;
        int lasts = 0;
        int firsts = 0;
        for (const Round& round : rounds) {
          bool moved = false;
          bruck::for_each_index(P, round, r, [&](int i) { moved = moved || i == o; });
          const bool digit_matches =
              round.x < static_cast<int>(digits.size()) && digits[round.x] == round.z;
          CHECK(moved == digit_matches);
          if (!moved) continue;
          ++moves;
          if (is_last_hop(o, round, r)) {
            ++lasts;
            CHECK(round.x == highest_nonzero_position(o, r));
          }
          if (!bruck::has_moved(o, round.place)) ++firsts;
        }
        CHECK(moves == nonzero_digits(o, r));
        CHECK(lasts == 1);
        CHECK(firsts == 1);
      }
    }
  }
}

// ---- plain-array model of the exchange ----------------------------------------------------------

// Where a rank keeps the block at distance o between hops: a slot index into its temporary buffer.
using TransitSlot = std::function<int(int rank, int o)>;

// Runs the radix exchange on P ranks with every rank's temporary buffer modelled as `slots` cells
// holding a block identity, exactly as radix_exchange.cpp enumerates messages: sender and receiver
// each compute their side, the model checks they agree block by block, that every block read is the
// block the sender claims, and that reads of a round happen before its writes (the backend packs a
// message at isend). Returns nothing; all checks inside.
void simulate(int P, int r, int slots, const TransitSlot& transit) {
  struct RankState {
    std::vector<std::optional<BlockId>> temp;
    std::vector<std::optional<BlockId>> recv;
  };
  std::vector<RankState> ranks(static_cast<std::size_t>(P));
  for (int p = 0; p < P; ++p) {
    ranks[p].temp.resize(static_cast<std::size_t>(slots));
    ranks[p].recv.resize(static_cast<std::size_t>(P));
    ranks[p].recv[p] = BlockId{p, p};  // the self block: a local copy, never in T
  }
  std::vector<int> peak(static_cast<std::size_t>(P), 0);

  bruck::for_each_round(P, r, [&](const Round& round) {
    // Every rank packs its outgoing message first.
    std::vector<std::vector<BlockId>> messages(static_cast<std::size_t>(P));
    for (int p = 0; p < P; ++p) {
      bruck::for_each_index(P, round, r, [&](int o) {
        const BlockId block = bruck::modified_block(P, p, o, round.place);
        if (!bruck::has_moved(o, round.place)) {
          CHECK(block.src == p);  // read from the send buffer: must be this rank's own block
        } else {
          CHECK_FALSE(is_direct(o, r));
          const int t = transit(p, o);
          REQUIRE(t >= 0);
          REQUIRE(t < slots);
          REQUIRE(ranks[p].temp[t].has_value());
          CHECK(*ranks[p].temp[t] == block);
          ranks[p].temp[t].reset();
        }
        messages[p].push_back(block);
      });
    }
    // Then every rank receives from recv_peer what that peer sent to its send_peer.
    for (int p = 0; p < P; ++p) {
      const int from = bruck::recv_peer(P, p, bruck::Orientation::modified, round);
      CHECK(bruck::send_peer(P, from, bruck::Orientation::modified, round) == p);
      std::size_t n = 0;
      bruck::for_each_index(P, round, r, [&](int o) {
        const BlockId block = bruck::modified_block(P, from, o, round.place);
        REQUIRE(n < messages[from].size());
        CHECK(messages[from][n++] == block);
        if (is_last_hop(o, round, r)) {
          CHECK(block.dst == p);
          CHECK_FALSE(ranks[p].recv[block.src].has_value());
          ranks[p].recv[block.src] = block;
        } else {
          CHECK_FALSE(is_direct(o, r));
          const int t = transit(p, o);
          REQUIRE(t >= 0);
          REQUIRE(t < slots);
          CHECK_FALSE(ranks[p].temp[t].has_value());
          ranks[p].temp[t] = block;
        }
      });
      CHECK(n == messages[from].size());
      int used = 0;
      for (const auto& cell : ranks[p].temp)
        used += cell.has_value();
      peak[p] = std::max(peak[p], used);
    }
  });

  for (int p = 0; p < P; ++p) {
    for (const auto& cell : ranks[p].temp)
      CHECK_FALSE(cell.has_value());
    for (int s = 0; s < P; ++s) {
      REQUIRE(ranks[p].recv[s].has_value());
      CHECK(*ranks[p].recv[s] == BlockId{s, p});
    }
    CHECK(peak[p] <= slots);
  }
}

TEST_CASE("parlogna model: every block reaches R through T slots t(o), T of B slots suffices") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      simulate(P, r, temp_slots(P, r), [&](int, int o) { return temp_slot(o, r); });
    }
  }
}

TEST_CASE("two_phase_bruck model: radix 2 with W of P slots at the zero-rotation position") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    CAPTURE(P);
    simulate(P, 2, P, [&](int p, int o) { return bruck::modified_position(P, p, o); });
  }
}

}  // namespace
}  // namespace a2a::radix
