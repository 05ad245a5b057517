// bitonic_inplace — Zhuang, Nakashima, Nagamochi, IPSJ SIG-HPC 2009, §2, §3.1–3.2: the
// memory-efficient variable-size all-to-all based on bitonic sort and in-place merge.
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
// Bookkeeping: O(P + R) integers per rank. A compare-exchange needs only the two partners' runs.
// Before every step the partners send each other theirs as metadata (isend_values: the count, then
// (dst, src, offset, bytes) per run; two rounds, as the second message's length comes from the
// first), and each plans the swap and the merge from its own R runs and the partner's R' only
// (plan_swap). No size of another rank's block is learned and nothing is replayed. Alive during a
// step: own runs, the partner's, and the plan's lists (≤ R + R' runs each), 4 integers a run —
// plain vectors on the heap, not temporary memory; every rank starts from its own send counts.
// R, the block pieces a rank holds, is what the paper's O(P) becomes here, and it is O(P) only for
// some workloads: measured at P = 32 (tests/unit/test_bitonic_model.cpp) R ≤ 32 for zhuang1–4 (a
// descriptor message ≤ 128 integers, ≤ 160 runs alive while planning), but R reaches P²/4 + 1
// when every rank sends one byte to every rank and a large block to the rank P/2 away (rank 0
// then holds P/2 one-byte blocks for each of P/2 destinations). Runs name blocks because message
// Pieces do; the paper's 2P + 1 chunk counts (§3.2) describe a sequence per destination only.
// Checks: a partner's descriptors must be n bytes of sorted, non-overlapping pieces
// (decode_runs), and the last merge must leave exactly the receive blocks (ContractViolation).
//
// Temporary memory: the transfer buffer only, min(chunk, N) bytes (a backend that packs messages
// of several pieces may stage up to one more chunk for the send and one for the receive). Time:
// p(p+1)/2 steps, each swapping at most N bytes: O(N log² P) communication. Each merge is a
// rotation merge through the buffer, O(N log R) bytes copied (measured at P = 32 on zhuang1–4:
// ≤ 8.1·N with chunk = 7, ≤ 5.2·N with chunk ≥ N), so O(N log² P log R) local copying: a log R
// above the paper's O(N log² P), which needs the linear Huang–Langston merge. That merge is not
// done here: it uses √n bytes of the data as its buffer and permutes them element by element,
// which run lists cannot follow in O(R) integers.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "algorithms/catalog.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/footprint.hpp"
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
    return "needs every rank to send and receive the same total (Zhuang et al., IPSJ SIG-HPC 2009, "
           "§2)";
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
        "bitonic_inplace needs every rank to send and receive the same total (Zhuang et al., IPSJ "
        "SIG-HPC 2009, §2)");
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

// Tells the step's partner this rank's runs and learns the partner's: first the count, then the
// (dst, src, offset, bytes) of each run. Each message depends on the one before, so each is a
// round of its own.
RunList exchange_runs(Comm& comm, int q, const RunList& mine, Bytes n) {
  comm.set_phase(phase::metadata);
  comm.next_round();
  const std::int64_t count = static_cast<std::int64_t>(mine.size());
  std::int64_t their_count = -1;
  Request received = comm.irecv_values(q, {&their_count, 1});
  Request sent = comm.isend_values(q, {&count, 1});
  comm.wait(received);
  comm.wait(sent);
  // Every run holds at least one byte: a count above n is a bug, not a reason to allocate.
  if (their_count < 0 || their_count > n) {
    throw ContractViolation("bitonic_inplace: partner " + std::to_string(q) + " announced " +
                            std::to_string(their_count) + " runs for " + std::to_string(n) +
                            " bytes");
  }
  comm.next_round();
  std::vector<std::int64_t> theirs(static_cast<std::size_t>(their_count) * bitonic::kRunFields);
  received = comm.irecv_values(q, theirs);
  sent = comm.isend_values(q, bitonic::encode_runs(mine));  // copied at the call
  comm.wait(received);
  comm.wait(sent);
  return bitonic::decode_runs(theirs, comm.size(), n);
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

// Bytes of heap per rank of the exchange that one rank's bookkeeping holds (message_footprint).
constexpr std::int64_t kHeapBytesPerRank = 192;

// Every step sends the partner's run descriptors (metadata) and swaps with it (data), one
// message at a time; the distinct partners are counted from partner() itself: 2·log2 P − 2 for
// P ≥ 4 (the mirrors rank XOR (2^k − 1) and rank XOR 2^j), not log2 P.
MessageFootprint message_footprint(const ExchangeShape& shape, const Params&) {
  const int stages = bitonic::log2_exact(shape.ranks);
  if (stages < 0) return footprint::direct(shape, 1);  // refused by check(): never runs
  std::set<int> partners;
  for (int stage = 1; stage <= stages; ++stage) {
    for (int step = 0; step < stage; ++step)
      partners.insert(bitonic::partner(0, stage, step));
  }
  const auto peers = static_cast<std::int64_t>(partners.size());
  // A rank keeps its runs, its partner's, the plan's lists and the descriptors in flight (4
  // integers a run) while it waits: about 150-165 B per rank of the exchange when each block is
  // one run (constant blocks on fugaku: peak RSS 220 MiB at P = 1,024, 710 MiB at 2,048,
  // 2,479 MiB at 4,096; docs/performance.md, stop 56). Workloads that split blocks into more runs
  // hold more (R up to P²/4 + 1, above).
  return {.in_flight = 1,
          .data_peers = peers,
          .metadata_peers = peers,
          .rank_heap_bytes = kHeapBytesPerRank * shape.ranks};
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
  auto size_of = [&](BlockId b) { return comm.block_bytes(b); };
  RunList mine = bitonic::send_runs(p, P, size_of);

  for (int stage = 1; stage <= stages; ++stage) {
    for (int step = 0; step < stage; ++step) {
      const int q = bitonic::partner(p, stage, step);
      bitonic::SwapPlan plan = [&] {
        const RunList theirs = exchange_runs(comm, q, mine, n);
        return bitonic::plan_swap(mine, theirs, p < q);
      }();
      comm.set_phase(phase::data);
      comm.next_round();
      swap_with(comm, q, plan, buffer, chunk);
      comm.set_phase(phase::copy);
      mine = merge(comm, plan, buffer, chunk);
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
      .source = "Zhuang et al., IPSJ SIG-HPC 2009, §2, §3.1–3.2",
      .params = {{.name = "chunk",
                  .meaning = "transfer buffer in bytes (swaps and rotations go through it)",
                  .default_value = 65536,
                  .default_is_machine = false,
                  .min = 1,
                  .max = ParamBound::unbounded()}},
      .check = check,
      .run = run,
      .footprint = message_footprint,
      .in_place = true,
  };
}

}  // namespace a2a::catalog_entries
