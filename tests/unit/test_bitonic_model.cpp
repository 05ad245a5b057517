// bitonic_inplace's run bookkeeping and in-place movement (algorithms/memory/bitonic_runs.hpp),
// on plain arrays of (dst, src, offset) keys, one key per byte:
//  * rotate and merge_in_place on random run lists with buffers of 1.. bytes: every move's label
//    is the key really at its source, and the result is the rotation / the sorted merge;
//  * encode_runs / decode_runs round trip, and decode_runs rejecting malformed descriptors;
//  * the whole network for P = 1, 2, 4, 8, 16 with random balanced counts (sums of weighted
//    permutations, many zero and one-byte blocks), Zhuang's cases 1–4 and several chunk sizes,
//    driven exactly as bitonic_inplace.cpp drives the comm: per step the partners swap their run
//    descriptors as integer arrays (count, then tuples), each plans from its own runs and the
//    decoded ones only, then chunked swaps and merges move the keys. Checked against oracles that
//    share nothing with the algorithm: the two arrays of a compare-exchange end as the lower and
//    upper halves of their sorted union, each stage starts from sorted windows of the group's
//    halves, and every rank ends with exactly its destination's bytes in (source, offset) order;
//  * the bookkeeping (runs held, runs alive during a step) for the a2a-mpi zhuang workloads up to
//    P = 32 (run lists only), for skewed counts, and a workload where runs held reach P²/4 + 1;
//  * check(): power of two, balanced, packed layout.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/memory/bitonic_runs.hpp"
#include "algorithms/registry.hpp"
#include "workloads/workload.hpp"

namespace a2a::bitonic {
namespace {

struct Key {
  int dst = 0;
  int src = 0;
  Bytes offset = 0;
  friend bool operator==(const Key&, const Key&) = default;
  friend bool operator<(const Key& a, const Key& b) {
    return std::tie(a.dst, a.src, a.offset) < std::tie(b.dst, b.src, b.offset);
  }
};
using Keys = std::vector<Key>;
using Matrix = std::vector<std::vector<Bytes>>;  // counts[src][dst]

Keys keys_of(const RunList& runs) {
  Keys out;
  for (const Run& run : runs) {
    for (Bytes i = 0; i < run.bytes; ++i)
      out.push_back({run.dst, run.src, run.offset + i});
  }
  return out;
}

// One rank's working array and transfer buffer; applies LocalMoves, checking each label.
struct RankModel {
  Keys array;
  Keys buffer;
  Bytes moved = 0;

  Keys& area(Area a) { return a == Area::array ? array : buffer; }

  void apply(const LocalMove& move) {
    Keys& from = area(move.from);
    Keys& to = area(move.to);
    REQUIRE(move.run.bytes > 0);
    REQUIRE(move.from_at >= 0);
    REQUIRE(move.to_at >= 0);
    REQUIRE(move.from_at + move.run.bytes <= static_cast<Bytes>(from.size()));
    REQUIRE(move.to_at + move.run.bytes <= static_cast<Bytes>(to.size()));
    const Keys piece(from.begin() + move.from_at, from.begin() + move.from_at + move.run.bytes);
    REQUIRE(piece == keys_of({move.run}));  // the label names the bytes really there
    std::copy(piece.begin(), piece.end(), to.begin() + move.to_at);  // memmove semantics
    moved += move.run.bytes;
  }
};

// Random runs of distinct blocks with random sizes, sorted by key.
RunList random_sorted_runs(std::mt19937& rng, int count, int tag) {
  RunList runs;
  std::uniform_int_distribution<int> size(1, 6);
  for (int i = 0; i < count; ++i)
    runs.push_back({i, tag, 0, size(rng)});
  return runs;
}

TEST_CASE("bitonic rotate: every split and buffer size, labels checked") {
  std::mt19937 rng(1);
  for (int nx = 0; nx <= 4; ++nx) {
    for (int ny = 0; ny <= 4; ++ny) {
      for (int trial = 0; trial < 5; ++trial) {
        const RunList x = random_sorted_runs(rng, nx, 0);
        const RunList y = random_sorted_runs(rng, ny, 1);
        const Bytes lx = total_bytes(x), ly = total_bytes(y);
        for (Bytes buffer = 1; buffer <= lx + ly + 1; ++buffer) {
          const Bytes at = 3;  // something before the rotated range stays untouched
          RankModel rank;
          rank.array = keys_of({{99, 99, 0, at}});
          const Keys kx = keys_of(x), ky = keys_of(y);
          rank.array.insert(rank.array.end(), kx.begin(), kx.end());
          rank.array.insert(rank.array.end(), ky.begin(), ky.end());
          const Keys tail = keys_of({{98, 98, 0, 2}});
          rank.array.insert(rank.array.end(), tail.begin(), tail.end());
          rank.buffer.assign(static_cast<std::size_t>(buffer), Key{-1, -1, -1});
          rotate(at, x, y, buffer, [&](const LocalMove& m) { rank.apply(m); });
          Keys expected = keys_of({{99, 99, 0, at}});
          expected.insert(expected.end(), ky.begin(), ky.end());
          expected.insert(expected.end(), kx.begin(), kx.end());
          expected.insert(expected.end(), tail.begin(), tail.end());
          CHECK(rank.array == expected);
          // Linear cost: Gries–Mills swaps move 3 bytes per placed byte, the last rotation ≤ 3.
          CHECK(rank.moved <= 3 * (lx + ly));
        }
      }
    }
  }
}

// Oracle: merge of two sorted run lists.
RunList merged(const RunList& a, const RunList& b) {
  RunList out;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && key_less(a[i], b[j]))) {
      append(out, a[i++]);
    } else {
      append(out, b[j++]);
    }
  }
  return out;
}

TEST_CASE("bitonic merge_in_place: random interleavings, labels checked, stable and sorted") {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 400; ++trial) {
    // Two sorted sequences over the same blocks, interleaving at random, including pieces of one
    // block split between them.
    std::uniform_int_distribution<int> blocks(0, 12), size(1, 7), coin(0, 2);
    RunList a, b;
    const int count = blocks(rng);
    for (int i = 0; i < count; ++i) {
      const int len = size(rng);
      const int where = coin(rng);
      if (where == 0) {
        a.push_back({i / 3, i % 3, 0, len});
      } else if (where == 1) {
        b.push_back({i / 3, i % 3, 0, len});
      } else {  // split: a head in one sequence, the tail in the other
        const int cut = len / 2;
        (coin(rng) ? a : b).push_back({i / 3, i % 3, 0, cut});
        (coin(rng) ? a : b).push_back({i / 3, i % 3, cut, len - cut});
      }
    }
    std::sort(a.begin(), a.end(), key_less);
    std::sort(b.begin(), b.end(), key_less);
    a = normalized(a);
    b = normalized(b);
    RunList layout = a;
    const std::size_t middle = layout.size();
    layout.insert(layout.end(), b.begin(), b.end());
    const Bytes n = total_bytes(layout);
    for (Bytes buffer : {Bytes{1}, Bytes{2}, Bytes{5}, n + 1}) {
      RankModel rank;
      rank.array = keys_of(layout);
      rank.buffer.assign(static_cast<std::size_t>(buffer), Key{-1, -1, -1});
      RunList work = layout;
      merge_in_place(work, 0, middle, work.size(), 0, buffer,
                     [&](const LocalMove& m) { rank.apply(m); });
      Keys sorted = keys_of(layout);
      std::sort(sorted.begin(), sorted.end());
      CHECK(rank.array == sorted);
      CHECK(keys_of(work) == sorted);
      CHECK(normalized(work) == merged(a, b));
    }
  }
}

// ---- run descriptors
// -----------------------------------------------------------------------------

TEST_CASE("bitonic run descriptors: round trip and malformed input") {
  const RunList runs = {{0, 1, 0, 5}, {0, 3, 2, 1}, {0, 3, 4, 2}, {2, 0, 0, 7}};
  const std::vector<std::int64_t> values = encode_runs(runs);
  CHECK(values.size() == runs.size() * kRunFields);
  CHECK(decode_runs(values, 4, 15) == runs);
  CHECK(decode_runs({}, 4, 0).empty());
  auto bad = [&](std::size_t field, std::int64_t value) {
    std::vector<std::int64_t> v = values;
    v[field] = value;
    return v;
  };
  CHECK_THROWS_AS(decode_runs(values, 4, 14), ContractViolation);  // not n bytes
  CHECK_THROWS_AS(decode_runs(std::span(values).first(5), 4, 15), ContractViolation);
  CHECK_THROWS_AS(decode_runs(values, 2, 15), ContractViolation);      // rank 3 of 2
  CHECK_THROWS_AS(decode_runs(bad(3, 0), 4, 10), ContractViolation);   // empty run
  CHECK_THROWS_AS(decode_runs(bad(2, -1), 4, 15), ContractViolation);  // negative offset
  CHECK_THROWS_AS(decode_runs(bad(7, 3), 4, 17), ContractViolation);   // overlaps the next run
  CHECK_THROWS_AS(decode_runs(bad(12, 0), 4, 15), ContractViolation);  // out of key order
  CHECK_THROWS_AS(decode_runs(bad(4, -1), 4, 15), ContractViolation);  // no such rank
}

// ---- the whole network
// ---------------------------------------------------------------------------

// Oracle: the sorted layout of the bytes sent by ranks [first, first + count) — for each
// destination in order, their blocks in source order — cut into `count` windows of n bytes. After
// a stage, the q-th rank of a group of `count` holds window q.
std::vector<RunList> sorted_windows(const Matrix& c, int first, int count, Bytes n) {
  const int P = static_cast<int>(c.size());
  std::vector<RunList> windows(static_cast<std::size_t>(count));
  Bytes position = 0;
  for (int d = 0; d < P; ++d) {
    for (int s = first; s < first + count; ++s) {
      for (Bytes offset = 0; offset < c[s][d];) {
        const Bytes window = position / n;  // n > 0 here: n = 0 has no bytes
        REQUIRE(window < count);
        const Bytes take = std::min(c[s][d] - offset, (window + 1) * n - position);
        append(windows[static_cast<std::size_t>(window)], {d, s, offset, take});
        position += take;
        offset += take;
      }
    }
  }
  REQUIRE(position == count * n);
  return windows;
}

// Sum of `terms` random permutation matrices with random weights: every row and column sums to
// the same total. Weights mix zero, one-byte and larger blocks.
Matrix random_balanced(std::mt19937& rng, int P, int terms, int max_weight) {
  Matrix c(static_cast<std::size_t>(P), std::vector<Bytes>(static_cast<std::size_t>(P), 0));
  std::vector<int> perm(static_cast<std::size_t>(P));
  std::uniform_int_distribution<int> weight(0, max_weight);
  for (int t = 0; t < terms; ++t) {
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    const int w = t % 3 == 0 ? 1 : weight(rng);
    for (int s = 0; s < P; ++s)
      c[s][perm[s]] += w;
  }
  return c;
}

// Zhuang et al., IPSJ SIG-HPC 2009, §4 cases with n elements of 1 byte; d = (dst − src) mod P.
Matrix zhuang(int P, int which, Bytes n) {
  Matrix c(static_cast<std::size_t>(P), std::vector<Bytes>(static_cast<std::size_t>(P), 0));
  for (int s = 0; s < P; ++s) {
    for (int d = 0; d < P; ++d) {
      const int dist = ((d - s) % P + P) % P;
      Bytes v = 0;
      switch (which) {
        case 1:
          v = n / P;
          break;
        case 2:
          v = dist < P / 4 ? 0 : dist < P - 1 ? n / P : n / 4;
          break;
        case 3:
          v = dist < P / 2 ? 0 : dist < P - 1 ? n / P : n / 2;
          break;
        case 4:
          v = dist == P - 1 ? n : 0;
          break;
      }
      c[s][d] = v;
    }
  }
  return c;
}

// The byte counts of an a2a workload spec, as a2a-mpi verify runs it.
Matrix workload_matrix(const std::string& spec, int P) {
  const auto workload = make_workload(spec, P);
  Matrix c(static_cast<std::size_t>(P), std::vector<Bytes>(static_cast<std::size_t>(P), 0));
  for (int s = 0; s < P; ++s) {
    for (int d = 0; d < P; ++d)
      c[s][d] = workload->count(s, d) * workload->element_bytes();
  }
  return c;
}

// Bookkeeping a rank holds, maxima over ranks and steps.
struct NetworkReport {
  std::size_t max_runs = 0;     // R: runs a rank holds between steps
  std::size_t max_partner = 0;  // R' of a partner, received as 4·R' integers
  std::size_t max_alive = 0;    // runs alive while planning: own, partner's, give, take, layout
  std::size_t max_values = 0;   // integers of one descriptor message
  Bytes max_merge_moved = 0;    // bytes copied by one merge (rotations through the buffer)
};

// Runs bitonic_inplace's network on P ranks, as the algorithm drives the comm. With `keys`, every
// byte is a key in an array and every move and message is applied and checked; without, only the
// run lists (for large totals).
NetworkReport run_network(const Matrix& c, Bytes chunk, bool keys = true) {
  const int P = static_cast<int>(c.size());
  const int stages = log2_exact(P);
  REQUIRE(stages >= 0);
  const Bytes n = std::accumulate(c[0].begin(), c[0].end(), Bytes{0});
  const Bytes buffer = std::max<Bytes>(1, std::min(chunk, n));
  NetworkReport report;

  // Step 0: each rank's send blocks in destination order.
  std::vector<RankModel> ranks(static_cast<std::size_t>(P));
  std::vector<RunList> state(static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) {
    state[r] = send_runs(r, P, [&](BlockId b) {
      REQUIRE(b.src == r);  // a rank starts from its own counts only
      return c[b.src][b.dst];
    });
    REQUIRE(state[r] == sorted_windows(c, r, 1, n)[0]);
    if (keys) {
      ranks[r].array = keys_of(state[r]);
      ranks[r].buffer.assign(static_cast<std::size_t>(buffer), Key{-1, -1, -1});
      REQUIRE(static_cast<Bytes>(ranks[r].array.size()) == n);
    }
  }
  if (P == 1 || n == 0) return report;  // the algorithm stops after the copy

  for (int stage = 1; stage <= stages; ++stage) {
    const int size = 1 << stage;
    for (int base = 0; base < P; base += size) {  // both halves of every group are sorted
      const auto low = sorted_windows(c, base, size / 2, n);
      const auto high = sorted_windows(c, base + size / 2, size / 2, n);
      for (int q = 0; q < size / 2; ++q) {
        CHECK(low[q] == state[base + q]);
        CHECK(high[q] == state[base + size / 2 + q]);
      }
    }
    for (int step = 0; step < stage; ++step) {
      // The descriptor messages of every rank: first the count, then the tuples.
      std::vector<std::int64_t> counts(static_cast<std::size_t>(P));
      std::vector<std::vector<std::int64_t>> wire(static_cast<std::size_t>(P));
      for (int r = 0; r < P; ++r) {
        counts[r] = static_cast<std::int64_t>(state[r].size());
        wire[r] = encode_runs(state[r]);
        report.max_values = std::max(report.max_values, wire[r].size());
      }
      std::vector<SwapPlan> plans(static_cast<std::size_t>(P));
      for (int r = 0; r < P; ++r) {
        const int q = partner(r, stage, step);
        REQUIRE(partner(q, stage, step) == r);
        REQUIRE((r ^ q) < size);  // within the group
        std::vector<std::int64_t> received(static_cast<std::size_t>(counts[q]) * kRunFields);
        REQUIRE(received.size() == wire[q].size());  // irecv_values sized from the count
        std::copy(wire[q].begin(), wire[q].end(), received.begin());
        const RunList theirs = decode_runs(received, P, n);
        plans[r] = plan_swap(state[r], theirs, r < q);
        const SwapPlan& plan = plans[r];
        report.max_partner = std::max(report.max_partner, theirs.size());
        report.max_alive =
            std::max(report.max_alive, state[r].size() + theirs.size() + plan.give.size() +
                                           plan.take.size() + plan.layout.size());
      }
      for (int x = 0; x < P; ++x) {
        const int y = partner(x, stage, step);
        if (x > y) continue;
        SwapPlan& px = plans[x];
        SwapPlan& py = plans[y];
        REQUIRE(px.bytes == py.bytes);
        CHECK(px.give == py.take);
        CHECK(px.take == py.give);
        Keys lower, upper;  // the oracle: halves of the sorted union
        if (keys) {
          Keys both = ranks[x].array;
          both.insert(both.end(), ranks[y].array.begin(), ranks[y].array.end());
          std::sort(both.begin(), both.end());
          lower.assign(both.begin(), both.begin() + n);
          upper.assign(both.begin() + n, both.end());
          // Chunked sendrecv-replace, piece lists as swap_with builds them.
          RunCursor gx(px.give), tx(px.take), gy(py.give), ty(py.take);
          for (Bytes t = 0; t < px.bytes; t += buffer) {
            const Bytes len = std::min(buffer, px.bytes - t);
            const RunList out_x = gx.next(len), in_x = tx.next(len);
            const RunList out_y = gy.next(len), in_y = ty.next(len);
            REQUIRE(out_x == in_y);
            REQUIRE(out_y == in_x);
            Keys& ax = ranks[x].array;
            Keys& ay = ranks[y].array;
            const Keys sent_x(ax.begin() + px.at + t, ax.begin() + px.at + t + len);
            const Keys sent_y(ay.begin() + py.at + t, ay.begin() + py.at + t + len);
            REQUIRE(sent_x == keys_of(out_x));
            REQUIRE(sent_y == keys_of(out_y));
            std::copy(sent_y.begin(), sent_y.end(), ax.begin() + px.at + t);
            std::copy(sent_x.begin(), sent_x.end(), ay.begin() + py.at + t);
          }
        }
        for (auto [rank, plan] : {std::pair{x, &px}, std::pair{y, &py}}) {
          RankModel& model = ranks[rank];
          if (keys) REQUIRE(model.array == keys_of(plan->layout));
          Bytes moved = 0;
          merge_in_place(plan->layout, 0, plan->middle, plan->layout.size(), 0, buffer,
                         [&](const LocalMove& m) {
                           moved += m.run.bytes;
                           if (keys) model.apply(m);
                         });
          report.max_merge_moved = std::max(report.max_merge_moved, moved);
          state[rank] = normalized(plan->layout);
          REQUIRE(total_bytes(state[rank]) == n);
        }
        if (keys) {
          CHECK(ranks[x].array == lower);
          CHECK(ranks[y].array == upper);
          CHECK(keys_of(state[x]) == lower);
          CHECK(keys_of(state[y]) == upper);
        }
      }
      for (const RunList& runs : state)
        report.max_runs = std::max(report.max_runs, runs.size());
    }
  }

  // Every rank holds exactly S(r): the blocks to r in source order.
  for (int r = 0; r < P; ++r) {
    RunList expected;
    for (int s = 0; s < P; ++s)
      append(expected, {r, s, 0, c[s][r]});
    CHECK(state[r] == expected);
    if (keys) CHECK(ranks[r].array == keys_of(expected));
  }
  return report;
}

TEST_CASE("bitonic network: random balanced counts, P = 1..16, several chunk sizes") {
  std::mt19937 rng(3);
  for (int P : {1, 2, 4, 8, 16}) {
    for (int trial = 0; trial < 6; ++trial) {
      const int terms = 1 + trial * 2;
      const Matrix c = random_balanced(rng, P, terms, trial < 3 ? 4 : 40);
      for (Bytes chunk : {Bytes{1}, Bytes{3}, Bytes{16}, Bytes{65536}}) {
        CAPTURE(P);
        CAPTURE(trial);
        CAPTURE(chunk);
        run_network(c, chunk);
      }
    }
  }
}

TEST_CASE("bitonic network: Zhuang cases 1-4 and all-zero exchanges") {
  for (int P : {1, 2, 4, 8, 16}) {
    for (int which = 1; which <= 4; ++which) {
      for (Bytes chunk : {Bytes{1}, Bytes{7}, Bytes{65536}}) {
        CAPTURE(P);
        CAPTURE(which);
        CAPTURE(chunk);
        run_network(zhuang(P, which, 8 * P), chunk);
      }
    }
    run_network(zhuang(P, 1, 0), 4);  // nothing to move
  }
}

TEST_CASE("bitonic network: bookkeeping of the a2a-mpi zhuang workloads up to P = 32") {
  // Run lists only: the default n = 64·P elements of 8 bytes. The bookkeeping is O(P + R) runs
  // per rank; here R stays within P + 2 and a descriptor message within 4·(P + 2) integers.
  for (int P : {2, 4, 8, 16, 32}) {
    for (int which = 1; which <= 4; ++which) {
      const std::string spec = "zhuang" + std::to_string(which);
      CAPTURE(spec);
      CAPTURE(P);
      const NetworkReport r = run_network(workload_matrix(spec, P), 65536, false);
      CHECK(r.max_runs <= static_cast<std::size_t>(P) + 2);
      CHECK(r.max_partner == r.max_runs);
      CHECK(r.max_values == kRunFields * r.max_runs);
      MESSAGE(spec << " P=" << P << ": R <= " << r.max_runs << " runs held, " << r.max_alive
                   << " runs alive while planning (" << r.max_alive * sizeof(Run)
                   << " bytes), descriptor message <= " << r.max_values
                   << " integers, merge moves <= " << r.max_merge_moved
                   << " bytes of N = " << 64 * P * 8);
    }
  }
}

TEST_CASE("bitonic network: runs held can reach P²/4 + 1") {
  // Every rank sends one byte to everybody and a large block to the rank P/2 away. At the last
  // stage the lower half's sorted bytes start with P/2 one-byte blocks for each of the first P/2
  // destinations: rank 0 holds P²/4 runs plus the start of a large block. Runs name blocks (the
  // Pieces of a message must), so a run list cannot stay O(P) here.
  for (int P : {8, 16, 32}) {
    Matrix c(static_cast<std::size_t>(P), std::vector<Bytes>(static_cast<std::size_t>(P), 1));
    for (int s = 0; s < P; ++s)
      c[s][(s + P / 2) % P] += 1000;
    CAPTURE(P);
    const NetworkReport report = run_network(c, 65536, P <= 16);
    CHECK(report.max_runs == static_cast<std::size_t>(P * P / 4 + 1));
    MESSAGE("one byte to all, 1000 to the rank P/2 away, P="
            << P << ": at most " << report.max_runs << " runs per rank, " << report.max_alive
            << " alive while planning");
  }
}

TEST_CASE("bitonic network: skewed, many one-byte blocks") {
  // Rank s sends one byte to the P/2 ranks after it and 3P bytes to the others (a circulant, so
  // balanced): sorted ranges cross many small blocks.
  for (int P : {4, 8, 16}) {
    Matrix c(static_cast<std::size_t>(P), std::vector<Bytes>(static_cast<std::size_t>(P), 0));
    for (int s = 0; s < P; ++s) {
      for (int d = 0; d < P; ++d)
        c[s][d] = ((d - s) % P + P) % P < P / 2 ? 1 : 3 * P;
    }
    for (Bytes chunk : {Bytes{1}, Bytes{5}, Bytes{65536}}) {
      CAPTURE(P);
      CAPTURE(chunk);
      const NetworkReport report = run_network(c, chunk);
      MESSAGE("skewed P=" << P << ": at most " << report.max_runs << " runs per rank, "
                          << report.max_alive << " alive while planning");
    }
  }
}

TEST_CASE("bitonic_inplace check: power of two, balanced, packed") {
  const AlgorithmInfo& info = find_algorithm("bitonic_inplace");
  CHECK(info.family == Family::memory_efficient);
  CHECK(info.handles == Handles::any);
  Params params;
  params.set("chunk", 65536);
  auto shape = [](int P, bool balanced, bool packed) {
    ExchangeShape s;
    s.ranks = P;
    s.balanced = balanced;
    s.contiguous_in_order = packed;
    return s;
  };
  for (int P : {1, 2, 4, 8, 16, 32, 1024})
    CHECK_FALSE(info.check(shape(P, true, true), params));
  for (int P : {3, 5, 6, 7, 12, 17, 100}) {
    const auto reason = info.check(shape(P, true, true), params);
    REQUIRE(reason);
    CHECK(reason->find("power-of-two") != std::string::npos);
  }
  const auto unbalanced = info.check(shape(8, false, true), params);
  REQUIRE(unbalanced);
  CHECK(unbalanced->find("same total") != std::string::npos);
  const auto gaps = info.check(shape(8, true, false), params);
  REQUIRE(gaps);
  CHECK(gaps->find("packed") != std::string::npos);
}

}  // namespace
}  // namespace a2a::bitonic
