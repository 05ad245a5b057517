// Run bookkeeping and in-place data movement for bitonic_inplace (Zhuang et al., IPSJ SIG-HPC 2009,
// §3.1–3.2), as plain functions so that tests/unit/test_bitonic_model.cpp can run the very same
// code on arrays of keys.
//
// The exchange is a parallel sort of bytes keyed by (destination, source, offset in the block).
// A rank never sees bytes, so its N bytes are described by a RunList: pieces (dst, src, offset,
// bytes) of blocks, in position order. Two pieces of one block cover disjoint offset ranges, so
// the key ranges of two runs never interleave: runs are compared and merged as units, and a run is
// only ever cut at the boundary of a compare-exchange.
//
// A compare-exchange needs only the two partners' RunLists: each sends its own (encode_runs) and
// plans the swap and the merge from both (decode_runs, plan_swap).
//
// Moves are described on two areas: the rank's working array (the receive buffer) and the
// constant-size transfer buffer. Every emitted move copies the bytes of one run piece.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/function_ref.hpp"

namespace a2a::bitonic {

// Bytes [offset, offset + bytes) of block (src, dst).
struct Run {
  int dst = 0;
  int src = 0;
  Bytes offset = 0;
  Bytes bytes = 0;
  BlockId block() const { return {src, dst}; }
  friend bool operator==(const Run&, const Run&) = default;
};
using RunList = std::vector<Run>;

// The sort order of Zhuang et al., IPSJ SIG-HPC 2009, §3.2: destination, then source, then position
// in the block.
inline bool key_less(const Run& a, const Run& b) {
  return std::tie(a.dst, a.src, a.offset) < std::tie(b.dst, b.src, b.offset);
}

inline Bytes total_bytes(const RunList& runs) {
  Bytes total = 0;
  for (const Run& run : runs)
    total += run.bytes;
  return total;
}

// Appends a run, extending the last one when it continues the same block; drops empty runs.
inline void append(RunList& runs, const Run& run) {
  if (run.bytes == 0) return;
  if (!runs.empty()) {
    Run& last = runs.back();
    if (last.dst == run.dst && last.src == run.src && last.offset + last.bytes == run.offset) {
      last.bytes += run.bytes;
      return;
    }
  }
  runs.push_back(run);
}

// The same layout with continuing pieces joined (the canonical form compared between ranks).
inline RunList normalized(const RunList& runs) {
  RunList out;
  for (const Run& run : runs)
    append(out, run);
  return out;
}

// Walks a RunList front to back, handing out the runs of consecutive byte ranges.
class RunCursor {
 public:
  explicit RunCursor(const RunList& runs) : runs_(runs) {}
  // The runs of the next `length` bytes (fewer if the list ends).
  RunList next(Bytes length) {
    RunList out;
    while (length > 0 && index_ < runs_.size()) {
      const Run& run = runs_[index_];
      const Bytes take = std::min(length, run.bytes - inside_);
      append(out, {run.dst, run.src, run.offset + inside_, take});
      length -= take;
      inside_ += take;
      if (inside_ == run.bytes) {
        ++index_;
        inside_ = 0;
      }
    }
    return out;
  }
  // Skips `length` bytes.
  void skip(Bytes length) { next(length); }

 private:
  const RunList& runs_;
  std::size_t index_ = 0;
  Bytes inside_ = 0;
};

// The runs at byte positions [from, from + length).
inline RunList slice(const RunList& runs, Bytes from, Bytes length) {
  RunCursor cursor(runs);
  cursor.skip(from);
  return cursor.next(length);
}

// A rank's bytes before the network: its send blocks in destination order (Zhuang et al., IPSJ
// SIG-HPC 2009, §3.2: the initial sequence s(i, 0) • … • s(i, P−1) is already ascending).
// `size_of(BlockId)` gives a block's bytes; only the rank's own blocks are asked for.
template <typename SizeOf>
RunList send_runs(int rank, int ranks, SizeOf&& size_of) {
  RunList runs;
  for (int d = 0; d < ranks; ++d)
    append(runs, {d, rank, 0, size_of(BlockId{rank, d})});
  return runs;
}

// ---- the network (Zhuang et al., IPSJ SIG-HPC 2009, §3.2, Fig. 2, with every local sequence kept
// ascending)
// ---------------------

// k with 2^k = P, or -1 when P is not a power of two.
inline int log2_exact(int P) {
  if (P <= 0 || (P & (P - 1)) != 0) return -1;
  int k = 0;
  while ((1 << k) < P)
    ++k;
  return k;
}

// Stage k = 1..log2 P sorts groups of 2^k ranks whose halves are already sorted, in k steps.
// Step 0 pairs a rank with its mirror in the group (rank XOR (2^k − 1)): this is Batcher's first
// bitonic split with the upper half read backwards, which the paper gets by reversing every other
// sequence. Step t ≥ 1 pairs it with rank XOR 2^(k−1−t). In every pair the lower rank keeps the
// smaller keys, so no direction flags are needed.
inline int partner(int rank, int stage, int step) {
  const int mask = step == 0 ? (1 << stage) - 1 : 1 << (stage - 1 - step);
  return rank ^ mask;
}

// ---- run descriptors on the wire
// ----------------------------------------------------------------

// Before a compare-exchange the partners tell each other their runs (Zhuang et al., IPSJ SIG-HPC
// 2009, §3.2 keeps O(P) integers per rank for the same purpose): first the count, one value, then
// kRunFields values (dst, src, offset in the block, bytes) per run, in position order.
inline constexpr std::size_t kRunFields = 4;

inline std::vector<std::int64_t> encode_runs(const RunList& runs) {
  std::vector<std::int64_t> values;
  values.reserve(runs.size() * kRunFields);
  for (const Run& run : runs)
    values.insert(values.end(), {run.dst, run.src, run.offset, run.bytes});
  return values;
}

// The runs of a partner holding n bytes among `ranks` ranks. Throws ContractViolation unless the
// values describe non-empty pieces of real blocks, strictly ascending by key and non-overlapping,
// n bytes in all: what any rank's RunList is, so anything else is a bug on one side.
inline RunList decode_runs(std::span<const std::int64_t> values, int ranks, Bytes n) {
  auto fail = [](const std::string& why) {
    throw ContractViolation("bitonic_inplace: partner's run descriptors are malformed: " + why);
  };
  if (values.size() % kRunFields != 0) fail(std::to_string(values.size()) + " values");
  RunList runs;
  runs.reserve(values.size() / kRunFields);
  Bytes total = 0;
  for (std::size_t i = 0; i < values.size(); i += kRunFields) {
    const std::int64_t dst = values[i], src = values[i + 1];
    const Run run{static_cast<int>(dst), static_cast<int>(src), values[i + 2], values[i + 3]};
    if (dst < 0 || dst >= ranks || src < 0 || src >= ranks || run.offset < 0 || run.bytes <= 0) {
      fail("run " + std::to_string(i / kRunFields));
    }
    if (!runs.empty()) {
      const Run& last = runs.back();
      const bool same_block = last.dst == run.dst && last.src == run.src;
      if (!key_less(last, run) || (same_block && last.offset + last.bytes > run.offset)) {
        fail("runs " + std::to_string(i / kRunFields - 1) + " and " +
             std::to_string(i / kRunFields) + " out of order");
      }
    }
    total += run.bytes;
    runs.push_back(run);
  }
  if (total != n) fail(std::to_string(total) + " bytes, not " + std::to_string(n));
  return runs;
}

// ---- compare-exchange on run lists
// ---------------------------------------------------------------

// How many of low's bytes are among the n smallest of low ∪ high (both sorted, n bytes each).
inline Bytes low_keeps(const RunList& low, const RunList& high, Bytes n) {
  Bytes taken = 0, from_low = 0;
  std::size_t i = 0, j = 0;
  while (taken < n) {
    const bool take_low = j == high.size() || (i < low.size() && key_less(low[i], high[j]));
    if (take_low && i == low.size()) break;  // cannot happen for n-byte lists; stops a bad input
    const Run& run = take_low ? low[i++] : high[j++];
    const Bytes take = std::min(run.bytes, n - taken);
    taken += take;
    if (take_low) from_low += take;
  }
  return from_low;
}

// One rank's side of a compare-exchange (Zhuang et al., IPSJ SIG-HPC 2009, §3.1 swap): the low rank
// gives its largest n − m bytes for the partner's smallest n − m, the high rank the other way
// round. Both swap regions have the same length, and each rank receives into the region it sends
// from.
struct SwapPlan {
  Bytes at = 0;            // where the swapped region starts on this rank
  Bytes bytes = 0;         // its length, the same on both ranks
  RunList give;            // this rank's runs in the region, sent away
  RunList take;            // the partner's runs that arrive there
  RunList layout;          // this rank's runs after the swap: two sorted sequences, not yet merged
  std::size_t middle = 0;  // index in layout where the second sequence starts
};

inline SwapPlan plan_swap(const RunList& mine, const RunList& theirs, bool keep_low) {
  const Bytes n = total_bytes(mine);
  const Bytes m = keep_low ? low_keeps(mine, theirs, n) : low_keeps(theirs, mine, n);
  const Bytes swapped = n - m;
  SwapPlan plan;
  plan.bytes = swapped;
  RunList kept;
  if (keep_low) {
    plan.at = m;
    plan.give = slice(mine, m, swapped);
    plan.take = slice(theirs, 0, swapped);
    kept = slice(mine, 0, m);
    plan.layout = kept;
    plan.middle = plan.layout.size();
    plan.layout.insert(plan.layout.end(), plan.take.begin(), plan.take.end());
  } else {
    plan.at = 0;
    plan.give = slice(mine, 0, swapped);
    plan.take = slice(theirs, m, swapped);
    kept = slice(mine, swapped, m);
    plan.layout = plan.take;
    plan.middle = plan.layout.size();
    plan.layout.insert(plan.layout.end(), kept.begin(), kept.end());
  }
  return plan;
}

// ---- in-place movement through a constant-size buffer
// --------------------------------------------

enum class Area : std::uint8_t { array, buffer };

// Copy run.bytes bytes (piece `run` of its block) from one place to another; memmove semantics.
struct LocalMove {
  Run run;
  Area from = Area::array;
  Bytes from_at = 0;
  Area to = Area::array;
  Bytes to_at = 0;
};
using LocalMoveSink = FunctionRef<void(const LocalMove&)>;

// Copies runs laid out from `from_at` to `to_at`, first run first (safe when the destination lies
// in another area or below the source).
inline void copy_forward(const RunList& runs, Area from, Bytes from_at, Area to, Bytes to_at,
                         LocalMoveSink out) {
  for (const Run& run : runs) {
    out({run, from, from_at, to, to_at});
    from_at += run.bytes;
    to_at += run.bytes;
  }
}

// The same, last run first: for a shift to higher positions within the array.
inline void copy_backward(const RunList& runs, Area from, Bytes from_at, Area to, Bytes to_at,
                          LocalMoveSink out) {
  const Bytes length = total_bytes(runs);
  from_at += length;
  to_at += length;
  for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
    from_at -= it->bytes;
    to_at -= it->bytes;
    out({*it, from, from_at, to, to_at});
  }
}

// Exchanges two equal-length, disjoint regions of the array (runs ra at a, rb at b) through the
// buffer, `buffer` bytes at a time.
inline void swap_regions(Bytes a, const RunList& ra, Bytes b, const RunList& rb, Bytes buffer,
                         LocalMoveSink out) {
  const Bytes length = total_bytes(ra);
  RunCursor ca(ra), cb(rb);
  for (Bytes t = 0; t < length; t += buffer) {
    const Bytes c = std::min(buffer, length - t);
    const RunList pa = ca.next(c), pb = cb.next(c);
    copy_forward(pa, Area::array, a + t, Area::buffer, 0, out);
    copy_forward(pb, Area::array, b + t, Area::array, a + t, out);
    copy_forward(pa, Area::buffer, 0, Area::array, b + t, out);
  }
}

// Rotates x·y (runs x at `at`, then runs y) into y·x with a buffer of `buffer` ≥ 1 bytes, in
// O(|x| + |y|) bytes moved: while both parts exceed the buffer, swap the shorter part with the
// far end of the longer one (Gries–Mills block swaps); then three moves through the buffer.
inline void rotate(Bytes at, RunList x, RunList y, Bytes buffer, LocalMoveSink out) {
  for (;;) {
    const Bytes lx = total_bytes(x), ly = total_bytes(y);
    if (lx == 0 || ly == 0) return;
    if (ly <= buffer) {
      copy_forward(y, Area::array, at + lx, Area::buffer, 0, out);
      copy_backward(x, Area::array, at, Area::array, at + ly, out);
      copy_forward(y, Area::buffer, 0, Area::array, at, out);
      return;
    }
    if (lx <= buffer) {
      copy_forward(x, Area::array, at, Area::buffer, 0, out);
      copy_forward(y, Area::array, at + lx, Area::array, at, out);
      copy_forward(x, Area::buffer, 0, Area::array, at + ly, out);
      return;
    }
    if (lx <= ly) {
      // x y1 y2 with |y2| = |x|  →  y2 y1 x: x is in place; y2 y1 still has to become y1 y2.
      RunList y1 = slice(y, 0, ly - lx), y2 = slice(y, ly - lx, lx);
      swap_regions(at, x, at + ly, y2, buffer, out);
      x = std::move(y2);
      y = std::move(y1);
    } else {
      // x1 x2 y with |x1| = |y|  →  y x2 x1: y is in place; x2 x1 still has to become x1 x2.
      RunList x1 = slice(x, 0, ly), x2 = slice(x, ly, lx - ly);
      swap_regions(at, x1, at + lx, y, buffer, out);
      at += ly;
      x = std::move(x2);
      y = std::move(x1);
    }
  }
}

namespace detail {
inline Bytes bytes_between(const RunList& runs, std::size_t first, std::size_t last) {
  Bytes total = 0;
  for (std::size_t i = first; i < last; ++i)
    total += runs[i].bytes;
  return total;
}
}  // namespace detail

// Stable in-place merge of layout[first, middle) and layout[middle, last) (each sorted by key),
// whose bytes start at `at` in the array: the rotation merge (split the longer sequence in the
// middle, find the cut in the other by binary search, rotate, recurse on both sides). Every level
// of the recursion rotates disjoint ranges, so it moves O(n log R) bytes for n bytes in R runs
// (the paper's Huang–Langston merge moves O(n) but works element by element). `layout` is
// rearranged to match.
inline void merge_in_place(RunList& layout, std::size_t first, std::size_t middle, std::size_t last,
                           Bytes at, Bytes buffer, LocalMoveSink out) {
  if (first == middle || middle == last) return;
  if (!key_less(layout[middle], layout[middle - 1])) return;  // already in order
  std::size_t cut1, cut2;
  if (middle - first >= last - middle) {
    cut1 = first + (middle - first) / 2;
    cut2 = static_cast<std::size_t>(
        std::lower_bound(layout.begin() + static_cast<std::ptrdiff_t>(middle),
                         layout.begin() + static_cast<std::ptrdiff_t>(last), layout[cut1],
                         key_less) -
        layout.begin());
  } else {
    cut2 = middle + (last - middle) / 2;
    cut1 = static_cast<std::size_t>(
        std::upper_bound(layout.begin() + static_cast<std::ptrdiff_t>(first),
                         layout.begin() + static_cast<std::ptrdiff_t>(middle), layout[cut2],
                         key_less) -
        layout.begin());
  }
  const Bytes cut1_at = at + detail::bytes_between(layout, first, cut1);
  const RunList x(layout.begin() + static_cast<std::ptrdiff_t>(cut1),
                  layout.begin() + static_cast<std::ptrdiff_t>(middle));
  const RunList y(layout.begin() + static_cast<std::ptrdiff_t>(middle),
                  layout.begin() + static_cast<std::ptrdiff_t>(cut2));
  rotate(cut1_at, x, y, buffer, out);
  std::rotate(layout.begin() + static_cast<std::ptrdiff_t>(cut1),
              layout.begin() + static_cast<std::ptrdiff_t>(middle),
              layout.begin() + static_cast<std::ptrdiff_t>(cut2));
  const std::size_t new_middle = cut1 + (cut2 - middle);
  merge_in_place(layout, first, cut1, new_middle, at, buffer, out);
  merge_in_place(layout, new_middle, cut2, last, cut1_at + total_bytes(y), buffer, out);
}

}  // namespace a2a::bitonic
