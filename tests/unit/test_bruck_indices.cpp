// The Bruck family's index arithmetic (algorithms/bruck/bruck_indices.hpp), exhaustively for
// P = 1..40 and every radix 2..P: digit counts, the round list, the blocks of a round and their
// packed slots, and — in a plain-array model of every rank's buffers that moves blocks exactly as
// bruck_rounds.hpp and bruck_zero_copy.cpp describe them — that the identity each piece claims is
// the block really there and that every block ends at its destination.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "algorithms/bruck/bruck_indices.hpp"
#include "tests/unit/block_runs.hpp"

namespace a2a::bruck {
namespace {

constexpr int kMaxRanks = 40;

// Smallest w with r^w >= P, by repeated multiplication (no logarithms).
int brute_digits(int P, int r) {
  int w = 0;
  for (std::int64_t reach = 1; reach < P; reach *= r)
    ++w;
  return w;
}

int brute_digit(std::int64_t i, int x, int r) {
  for (int k = 0; k < x; ++k)
    i /= r;
  return static_cast<int>(i % r);
}

std::vector<int> brute_indices(int P, int x, int z, int r) {
  std::vector<int> out;
  for (int i = 0; i < P; ++i) {
    if (brute_digit(i, x, r) == z) out.push_back(i);
  }
  return out;
}

std::vector<Round> rounds_of(int P, int r) {
  std::vector<Round> out;
  for_each_round(P, r, [&](const Round& round) { out.push_back(round); });
  return out;
}

std::vector<int> indices_of(int P, const Round& round, int r) {
  std::vector<int> out;
  for_each_index(P, round, r, [&](int i) { out.push_back(i); });
  return out;
}

// Radices to try for P ranks: 2..P, and 2 alone for P = 1 (the algorithm's own guard).
std::vector<int> radices(int P) {
  std::vector<int> out;
  for (int r = 2; r <= std::max(P, 2); ++r)
    out.push_back(r);
  return out;
}

TEST_CASE("bruck indices: digit counts are exact integers") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      CHECK(digit_positions(P, r) == brute_digits(P, r));
    }
  }
  CHECK(digit_positions(125, 5) == 3);  // 124 = 444 in base 5; ceil(log 125 / log 5) may give 4
  CHECK(digit_positions(126, 5) == 4);
  CHECK(digit_positions(1, 2) == 0);
  CHECK(digit_positions(2, 2) == 1);
  CHECK(digit_positions(1024, 2) == 10);
  CHECK(digit_positions(1025, 2) == 11);
  CHECK(digit_positions(7, 7) == 1);
}

TEST_CASE("bruck indices: round list: every (x, z) some block index has, in order, K <= w(r-1)") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      const int w = brute_digits(P, r);
      std::vector<Round> expected;
      std::int64_t place = 1;
      for (int x = 0; x < w; ++x, place *= r) {
        for (int z = 1; z < r; ++z) {
          if (!brute_indices(P, x, z, r).empty()) expected.push_back({x, place, z, z * place});
        }
      }
      const auto rounds = rounds_of(P, r);
      REQUIRE(rounds.size() == expected.size());
      for (std::size_t k = 0; k < rounds.size(); ++k) {
        CHECK(rounds[k].x == expected[k].x);
        CHECK(rounds[k].place == expected[k].place);
        CHECK(rounds[k].z == expected[k].z);
        CHECK(rounds[k].distance == expected[k].distance);
        CHECK(rounds[k].distance >= 1);
        CHECK(rounds[k].distance < P);
      }
      CHECK(round_count(P, r) == static_cast<int>(rounds.size()));
      CHECK(round_count(P, r) <= w * (r - 1));
      if (P >= 2) CHECK(round_count(P, r) >= 1);
    }
  }
  CHECK(round_count(1, 2) == 0);
  CHECK(round_count(2, 2) == 1);  // the papers' code loops forever here
  CHECK(round_count(8, 2) == 3);
  CHECK(round_count(7, 7) == 6);  // r = P: a direct exchange
  CHECK(round_count(125, 5) == 12);
  CHECK(round_count(10, 3) == 5);  // 9 = 100 in base 3: only z = 1 at the top digit
}

TEST_CASE("bruck indices: blocks of a round: list, count, packed slots") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      std::int64_t most = 0;
      for (const Round& round : rounds_of(P, r)) {
        CAPTURE(round.x);
        CAPTURE(round.z);
        const auto expected = brute_indices(P, round.x, round.z, r);
        const auto got = indices_of(P, round, r);
        CHECK(got == expected);
        CHECK(blocks_in_round(P, round, r) == static_cast<std::int64_t>(expected.size()));
        for (std::size_t k = 0; k < expected.size(); ++k) {
          CHECK(slot_in_round(expected[k], round, r) == static_cast<std::int64_t>(k));
        }
        most = std::max<std::int64_t>(most, static_cast<std::int64_t>(expected.size()));
      }
      CHECK(max_blocks_per_round(P, r) == most);
      if (r == 2) CHECK(max_blocks_per_round(P, r) <= (P + 1) / 2);
    }
  }
}

bool block_less(BlockId a, BlockId b) {
  return a.src != b.src ? a.src < b.src : a.dst < b.dst;
}

TEST_CASE("bruck indices: a round's runs are exactly its blocks, at most ~sqrt(P·r) runs") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      for (Orientation o : {Orientation::basic, Orientation::modified}) {
        for (const Round& round : rounds_of(P, r)) {
          for (int p = 0; p < P; ++p) {
            CAPTURE(P);
            CAPTURE(r);
            CAPTURE(round.x);
            CAPTURE(round.z);
            CAPTURE(p);
            std::vector<BlockId> expected, got;
            for_each_index(P, round, r,
                           [&](int i) { expected.push_back(block_at(P, p, o, i, round.place)); });
            int runs = 0;
            for_each_run(P, p, o, round, r, 24, [&](const BlockRun& run) {
              CHECK(run.each == 24);
              CHECK(run.count > 0);
              CHECK(
                  (run.src_step >= 0 && run.src_step < P && run.dst_step >= 0 && run.dst_step < P));
              CHECK((run.src_step == 0 || run.dst_step == 0));
              test::expand(P, run, got);
              ++runs;
            });
            std::sort(expected.begin(), expected.end(), block_less);
            std::sort(got.begin(), got.end(), block_less);
            CHECK(got == expected);
            // Rows or columns, whichever is longer: runs <= max(rows, columns) <= sqrt(P·r) + 1.
            CHECK(static_cast<double>(runs) <= std::sqrt(static_cast<double>(P) * r) + 1);
          }
        }
      }
    }
  }
}

TEST_CASE("bruck indices: has_moved and hops_left follow the digits") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      const int w = brute_digits(P, r);
      for (int i = 0; i < P; ++i) {
        std::int64_t place = 1;
        for (int x = 0; x <= w; ++x, place *= r) {
          CAPTURE(P);
          CAPTURE(r);
          CAPTURE(i);
          CAPTURE(x);
          bool lower = false;
          for (int k = 0; k < x; ++k)
            lower = lower || brute_digit(i, k, r) != 0;
          int hops = 0;
          for (int k = x; k <= w; ++k)
            hops += brute_digit(i, k, r) != 0;
          CHECK(has_moved(i, place) == lower);
          CHECK(hops_left(i, place, r) == hops);
        }
      }
    }
  }
}

// ---- block movement in plain arrays ------------------------------------------------------------

using Slot = std::optional<BlockId>;

struct Rank {
  std::vector<Slot> R;        // positions
  std::vector<Slot> staging;  // one round's arrivals, packed by slot
};

// The rank's own block at relative index i before it moves, by orientation (what the algorithms
// read from the send buffer or from R right after their initial shift).
BlockId own_block(int P, int p, Orientation o, int i) {
  return {p, static_cast<int>(mod(o == Orientation::basic ? p + i : p - i, P))};
}

// The staged algorithms (bruck_basic, bruck_modified, bruck_zero_rotation, bruck_radix,
// padded_bruck): each round reads the moved blocks from R and the others from their own place,
// receives into packed staging, then copies staging into R.
void simulate_staged(int P, int r, Orientation o) {
  std::vector<Rank> ranks(P);
  for (int p = 0; p < P; ++p) {
    ranks[p].R.assign(P, std::nullopt);
    ranks[p].R[position(P, p, o, 0)] = BlockId{p, p};  // the self block never travels
  }
  for (const Round& round : rounds_of(P, r)) {
    CAPTURE(round.x);
    CAPTURE(round.z);
    for (auto& rank : ranks)
      rank.staging.assign(max_blocks_per_round(P, r), std::nullopt);
    for (int p = 0; p < P; ++p) {
      const int to = send_peer(P, p, o, round);
      REQUIRE(to != p);
      REQUIRE(recv_peer(P, to, o, round) == p);  // the receiver expects this sender
      for_each_index(P, round, r, [&](int i) {
        CAPTURE(p);
        CAPTURE(i);
        const BlockId claimed = block_at(P, p, o, i, round.place);
        Slot sent;
        if (has_moved(i, round.place)) {
          sent = ranks[p].R[position(P, p, o, i)];
        } else {
          sent = own_block(P, p, o, i);
          // An unmoved block has never been written to R.
          CHECK_FALSE(ranks[p].R[position(P, p, o, i)].has_value());
        }
        REQUIRE(sent.has_value());
        CHECK(*sent == claimed);
        // The receiver names the block from its own view of the sender.
        CHECK(block_at(P, recv_peer(P, to, o, round), o, i, round.place) == claimed);
        auto& slot = ranks[to].staging.at(slot_in_round(i, round, r));
        CHECK_FALSE(slot.has_value());  // no two blocks share a staging slot
        slot = sent;
      });
    }
    for (int p = 0; p < P; ++p) {
      for_each_index(P, round, r, [&](int i) {
        ranks[p].R[position(P, p, o, i)] = ranks[p].staging.at(slot_in_round(i, round, r));
      });
    }
  }
  // Every block arrived: modified orientation has the block from s at position s; basic the block
  // from p - i at position i (its final inverse shift out[j] = R[(p - j) mod P]).
  const std::int64_t done = ipow(r, digit_positions(P, r));
  for (int p = 0; p < P; ++p) {
    for (int i = 0; i < P; ++i) {
      CAPTURE(p);
      CAPTURE(i);
      const Slot at = ranks[p].R[position(P, p, o, i)];
      REQUIRE(at.has_value());
      CHECK(*at == block_at(P, p, o, i, done));
      CHECK(at->dst == p);
      const int src = static_cast<int>(mod(o == Orientation::basic ? p - i : p + i, P));
      CHECK(at->src == src);
    }
  }
}

TEST_CASE("bruck indices: staged rounds deliver every block, both orientations, every radix") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      simulate_staged(P, r, Orientation::modified);
      simulate_staged(P, r, Orientation::basic);
    }
  }
}

// bruck_zero_copy: R and T alternate by the parity of the hops left, no copies; a block is never
// received into a place still holding a live block, and the last hop lands in R.
void simulate_zero_copy(int P, int r) {
  struct Buffers {
    std::vector<Slot> R, T;
  };
  std::vector<Buffers> ranks(P);
  auto kept = [&](int p, int i, int hops) -> Slot& {
    const int j = modified_position(P, p, i);
    return zero_copy_keeps_in_r(hops) ? ranks[p].R[j] : ranks[p].T[j];
  };
  for (int p = 0; p < P; ++p) {
    ranks[p].R.assign(P, std::nullopt);
    ranks[p].T.assign(P, std::nullopt);
    for (int i = 0; i < P; ++i) {
      kept(p, i, hops_left(i, 1, r)) = own_block(P, p, Orientation::modified, i);
    }
  }
  for (const Round& round : rounds_of(P, r)) {
    CAPTURE(round.x);
    CAPTURE(round.z);
    // All sends of the round read before any receive writes, as on the wire.
    std::vector<std::vector<Slot>> in_flight(P);
    for (int p = 0; p < P; ++p) {
      for_each_index(P, round, r, [&](int i) {
        CAPTURE(p);
        CAPTURE(i);
        Slot& from = kept(p, i, hops_left(i, round.place, r));
        REQUIRE(from.has_value());
        CHECK(*from == block_at(P, p, Orientation::modified, i, round.place));
        in_flight[send_peer(P, p, Orientation::modified, round)].push_back(from);
        from.reset();
      });
    }
    for (int p = 0; p < P; ++p) {
      std::size_t k = 0;
      for_each_index(P, round, r, [&](int i) {
        CAPTURE(p);
        CAPTURE(i);
        Slot& into = kept(p, i, hops_left(i, round.place, r) - 1);
        CHECK_FALSE(into.has_value());
        into = in_flight[p].at(k++);
      });
      CHECK(k == in_flight[p].size());
    }
  }
  for (int p = 0; p < P; ++p) {
    for (int s = 0; s < P; ++s) {
      CAPTURE(p);
      CAPTURE(s);
      REQUIRE(ranks[p].R[s].has_value());
      CHECK(*ranks[p].R[s] == BlockId{s, p});
      CHECK_FALSE(ranks[p].T[s].has_value());
    }
  }
}

TEST_CASE("bruck indices: zero-copy Bruck alternation delivers every block into R") {
  for (int P = 1; P <= kMaxRanks; ++P) {
    for (int r : radices(P)) {
      CAPTURE(P);
      CAPTURE(r);
      simulate_zero_copy(P, r);
    }
  }
}

}  // namespace
}  // namespace a2a::bruck
