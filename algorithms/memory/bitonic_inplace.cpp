// bitonic_inplace — seed 004 (Zhuang, Nakashima, Nagamochi) §2, §3.1–3.2: the memory-efficient
// variable-size all-to-all based on bitonic sort and in-place merge.
//
// §3.2: an all-to-all is a parallel sort of the data elements keyed by (destination j, source i,
// offset k). With every rank sending and receiving the same total N (§2), after the sort rank j
// holds exactly S(j) = s(0, j) • … • s(P−1, j), in source order. P = 2^p ranks run a bitonic merge
// network (Fig. 2): stage k = 1..p merges groups of 2^k ranks whose two halves are sorted, in k
// steps. Each step is a compare-exchange between two ranks holding n = N sorted bytes each: the
// low rank must end with the n smallest of both, the high rank with the rest. It is done as
//   swap (§3.1): the low rank's largest n − m bytes for the high rank's smallest n − m (equal
//        lengths), sendrecv-replace through a fixed `chunk`-byte buffer, then
//   merge (§3.1): an in-place stable merge of the two sorted sequences now on each rank.
// The paper's local_sort is unnecessary (a rank's send blocks are already in key order), and
// instead of marking every other sequence as reversed, step 0 of a stage pairs a rank with its
// mirror in the group (bitonic_runs.hpp, partner()).
//
// Mapping onto the comm interface. The caller's receive buffer is the working array: step 0 copies
// the send blocks into it in destination order; from then on every byte moves in place inside it
// or through the one chunk buffer. This needs the receive blocks packed back to back in rank order
// (then the sorted array is exactly the receive blocks) and balanced totals: check() refuses other
// exchanges and run() re-checks the totals collectively (InvalidParameter).
// Algorithms never see bytes, so a rank tracks its bytes as runs (bitonic_runs.hpp): pieces of
// blocks in position order; keys, swap boundaries and merge rotations all come from the counts.
//
// Bookkeeping and an interface limit. A compare-exchange needs the partner's runs. The interface's
// metadata carries only sizes of blocks the receiver names in advance, not arbitrary integers, so a
// partner's run descriptors (offsets, cut points) cannot be sent. Instead, at the start of stage k
// each rank learns the send counts of the other half of its group from its step-0 partner, which
// knows them (2^(k−1)·P sizes; by induction a rank knows the rows of its whole group), and
// replays the stage for the whole group on run lists (merge_split), which gives every partner's
// runs exactly. The algorithm's own data motion is checked against that replay at every step.
// Cost: O(2^k·P) learned sizes and O(2^k·R) runs of bookkeeping in stage k (R runs per rank: at
// most P at the end, up to 2.6·P in between in the unit tests) — O(P²) integers at the last
// stage, plain vectors on the heap, not counted as temporary memory. With a metadata call for
// arbitrary integers the partner's run list (O(R) integers) would suffice and the bookkeeping would
// be the paper's O(P).
//
// Temporary memory: the transfer buffer only, min(chunk, N) bytes (a backend that packs messages
// of several pieces may stage up to one more chunk for the send and one for the receive). Time:
// each step swaps at most N bytes and merges N bytes by rotations through the buffer (O(N log R)
// bytes moved), p(p+1)/2 steps: O(N log² P) communication, O(N log² P log R) local copying.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/catalog.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/memory/bitonic_runs.hpp"

namespace a2a::catalog_entries {

namespace {

using bitonic::Run;
using bitonic::RunList;

std::optional<std::string> check(const ExchangeShape& shape, const Params&) {
  if (bitonic::log2_exact(shape.ranks) < 0) {
    return "needs a power-of-two number of ranks for the bitonic network, P = " +
           std::to_string(shape.ranks);
  }
  if (!shape.balanced) {
    return "needs every rank to send and receive the same total (seed 004 §2)";
  }
  if (!shape.contiguous_in_order) {
    return "needs blocks packed back to back in rank order: the sorted send data becomes the "
           "receive buffer in place";
  }
  return std::nullopt;
}

// The common total N, after checking collectively that every rank sends and receives N bytes.
Bytes balanced_total(Comm& comm) {
  const int P = comm.size();
  const int p = comm.rank();
  Bytes sent = 0, received = 0;
  for (int i = 0; i < P; ++i) {
    sent += comm.block_bytes({p, i});
    received += comm.block_bytes({i, p});
  }
  const Bytes n = comm.allreduce_max(sent);
  if (comm.allreduce_max(sent != n || received != n ? 1 : 0) != 0) {
    throw InvalidParameter(
        "bitonic_inplace needs every rank to send and receive the same total (seed 004 §2)");
  }
  return n;
}

Place place(bitonic::Area area, Bytes at, const TempBuffer& buffer) {
  return area == bitonic::Area::array ? Place::recv_buffer(at) : buffer.at(at);
}

// Step 0: the send blocks, in destination order, become the working array.
void copy_send_blocks(Comm& comm) {
  const int P = comm.size();
  const int p = comm.rank();
  comm.copy([&](MoveSink out) {
    Bytes at = 0;
    for (int d = 0; d < P; ++d) {
      const Bytes bytes = comm.block_bytes({p, d});
      if (bytes > 0) out({{p, d}, Place::send_block(d), Place::recv_buffer(at), bytes});
      at += bytes;
    }
  });
}

// Learn the send counts of the other half of this rank's 2^stage group from the step-0 partner,
// telling it those of this half: the rows of `half` ranks starting at `first`, source-major.
void exchange_rows(Comm& comm, int stage) {
  const int P = comm.size();
  const int p = comm.rank();
  const int half = 1 << (stage - 1);
  const int q = bitonic::partner(p, stage, 0);
  const int mine = p & ~(half - 1);
  const int theirs = q & ~(half - 1);
  auto rows = [P, half](int first, BlockSink out) {
    for (int s = first; s < first + half; ++s) {
      for (int d = 0; d < P; ++d)
        out({s, d});
    }
  };
  const Request received = comm.irecv_sizes(q, [&](BlockSink out) { rows(theirs, out); });
  const Request sent = comm.isend_sizes(q, [&](BlockSink out) { rows(mine, out); });
  comm.wait(received);
  comm.wait(sent);
}

// The swap of §3.1 with MPI_Sendrecv_replace's shape: per chunk, copy the outgoing bytes to the
// buffer, receive the partner's into their place, send the buffer.
void swap_with(Comm& comm, int q, const bitonic::SwapPlan& plan, const TempBuffer& buffer,
               Bytes chunk) {
  bitonic::RunCursor give(plan.give), take(plan.take);
  for (Bytes t = 0; t < plan.bytes; t += chunk) {
    const Bytes c = std::min(chunk, plan.bytes - t);
    const RunList out_runs = give.next(c), in_runs = take.next(c);
    const Bytes at = plan.at + t;
    comm.copy([&](MoveSink out) {
      Bytes offset = 0;
      for (const Run& run : out_runs) {
        out({run.block(), Place::recv_buffer(at + offset), buffer.at(offset), run.bytes});
        offset += run.bytes;
      }
    });
    const Request received = comm.irecv(q, [&](PieceSink out) {
      Bytes offset = 0;
      for (const Run& run : in_runs) {
        out({run.block(), Place::recv_buffer(at + offset), run.bytes});
        offset += run.bytes;
      }
    });
    const Request sent = comm.isend(q, [&](PieceSink out) {
      Bytes offset = 0;
      for (const Run& run : out_runs) {
        out({run.block(), buffer.at(offset), run.bytes});
        offset += run.bytes;
      }
    });
    comm.wait(received);
    comm.wait(sent);
  }
}

// The merge of §3.1 on this rank's array; returns the merged runs.
RunList merge(Comm& comm, bitonic::SwapPlan& plan, const TempBuffer& buffer, Bytes chunk) {
  comm.copy([&](MoveSink out) {
    bitonic::merge_in_place(plan.layout, 0, plan.middle, plan.layout.size(), 0, chunk,
                            [&](const bitonic::LocalMove& move) {
                              out({move.run.block(), place(move.from, move.from_at, buffer),
                                   place(move.to, move.to_at, buffer), move.run.bytes});
                            });
  });
  return bitonic::normalized(plan.layout);
}

void run(Comm& comm, const Params& params) {
  const int P = comm.size();
  const int p = comm.rank();
  const int stages = bitonic::log2_exact(P);
  if (stages < 0) throw NotApplicable(*check({.ranks = P}, params));

  comm.set_phase(phase::setup);
  const Bytes n = balanced_total(comm);
  comm.set_phase(phase::copy);
  comm.next_round();
  copy_send_blocks(comm);
  if (P == 1 || n == 0) return;

  const Bytes chunk = std::min<Bytes>(params.get("chunk"), n);
  const TempBuffer buffer(comm, chunk);
  RunList mine =
      bitonic::sorted_windows(p, 1, P, n, [&](BlockId b) { return comm.block_bytes(b); })[0];

  for (int stage = 1; stage <= stages; ++stage) {
    comm.set_phase(phase::metadata);
    comm.next_round();
    exchange_rows(comm, stage);

    // Both halves of the group are sorted: each rank holds its window of its half's sorted bytes.
    const int size = 1 << stage;
    const int base = p & ~(size - 1);
    auto size_of = [&](BlockId b) { return comm.block_bytes(b); };
    std::vector<RunList> group = bitonic::sorted_windows(base, size / 2, P, n, size_of);
    std::vector<RunList> upper = bitonic::sorted_windows(base + size / 2, size / 2, P, n, size_of);
    group.insert(group.end(), upper.begin(), upper.end());
    if (group[p - base] != mine) {
      throw ContractViolation("bitonic_inplace: rank " + std::to_string(p) +
                              " lost track of its runs before stage " + std::to_string(stage));
    }

    for (int step = 0; step < stage; ++step) {
      comm.set_phase(phase::data);
      comm.next_round();
      const int q = bitonic::partner(p, stage, step);
      bitonic::SwapPlan plan = bitonic::plan_swap(group[p - base], group[q - base], p < q);
      swap_with(comm, q, plan, buffer, chunk);
      comm.set_phase(phase::copy);
      mine = merge(comm, plan, buffer, chunk);

      // Replay the step for the whole group: the next step's partner state comes from here.
      for (int x = 0; x < size; ++x) {
        const int y = bitonic::partner(base + x, stage, step) - base;
        if (x < y) bitonic::merge_split(group[x], group[y]);
      }
      if (group[p - base] != mine) {
        throw ContractViolation("bitonic_inplace: rank " + std::to_string(p) +
                                " merged into a layout the replay does not have (stage " +
                                std::to_string(stage) + ", step " + std::to_string(step) + ")");
      }
    }
  }
  // After the last stage the array is S(p): the blocks to p in source order, i.e. its receive
  // blocks.
  RunList expected;
  for (int s = 0; s < P; ++s)
    bitonic::append(expected, {p, s, 0, comm.block_bytes({s, p})});
  if (mine != expected) {
    throw ContractViolation("bitonic_inplace: rank " + std::to_string(p) +
                            " does not end with exactly its receive blocks");
  }
}

}  // namespace

AlgorithmInfo bitonic_inplace() {
  return {
      .name = "bitonic_inplace",
      .family = Family::memory_efficient,
      .handles = Handles::any,
      .description =
          "in-place parallel bitonic sort keyed by (dst, src, offset): pairwise "
          "sendrecv-replace swaps through a fixed buffer, then in-place merges",
      .source = "seed 004 §2, §3.1–3.2",
      .params = {{.name = "chunk",
                  .meaning = "transfer buffer in bytes (swaps and rotations go through it)",
                  .default_value = 65536,
                  .default_is_machine = false,
                  .min = 1,
                  .max = ParamBound::unbounded()}},
      .check = check,
      .run = run,
  };
}

}  // namespace a2a::catalog_entries
