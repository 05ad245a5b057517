// The communication rounds of the Bruck family, written once (Fan et al., HPDC 2022, §2.1; Fan et
// al., HPDC 2025, §3.1 for radix r). The variants differ only in where a block is kept between
// rounds; they plug that in.
//
// Round (x, z) (bruck_indices.hpp): send every block whose relative index i has digit z at r^x to
// send_peer, receive as many from recv_peer into the same relative indices. The pieces of both
// messages follow for_each_index, so sender and receiver agree block by block; each piece names the
// block it carries, computed from (P, rank, i, r^x) when the message is posted, never stored.
#pragma once

#include <string>

#include "algorithms/bruck/bruck_indices.hpp"
#include "algorithms/comm.hpp"
#include "algorithms/digits.hpp"
#include "algorithms/errors.hpp"

namespace a2a::bruck {

// Bytes per block of a uniform exchange; the uniform Bruck variants refuse anything else.
inline Bytes uniform_block_bytes(Comm& comm, const char* algorithm) {
  const auto bytes = comm.uniform_block_bytes();
  if (!bytes)
    throw NotApplicable(std::string(algorithm) + " needs a uniform exchange (equal blocks)");
  return *bytes;
}

// Runs every round. `source(i, round)` is where the block at relative index i leaves from,
// `target(i, round)` where the incoming block for i lands, and `after(round, from)` runs once the
// round's messages have completed (a variant's local copies; `from` is the rank received from).
template <typename Source, typename Target, typename After>
void exchange_rounds(Comm& comm, Orientation o, int radix, Bytes block, Source source,
                     Target target, After after) {
  const int P = comm.size();
  const int p = comm.rank();
  for_each_round(P, radix, [&](const Round& round) {
    const int to = send_peer(P, p, o, round);
    const int from = recv_peer(P, p, o, round);
    comm.set_phase(phase::data);
    comm.next_round();
    {
      Group group(comm);
      comm.irecv(from, [&](PieceSink out) {
        for_each_index(P, round, radix, [&](int i) {
          out({block_at(P, from, o, i, round.place), target(i, round), block});
        });
      });
      comm.isend_runs(
          to, [&](RunSink out) { for_each_run(P, p, o, round, radix, block, out); },
          [&](PieceSink out) {
            for_each_index(P, round, radix, [&](int i) {
              out({block_at(P, p, o, i, round.place), source(i, round), block});
            });
          });
    }
    comm.wait_all();
    after(round, from);
  });
}

// The papers' storage: R holds every block that has moved; a round receives into a staging buffer,
// packed by round slot, and afterwards copies each arrival over the block it replaced in R (the
// MPI_Sendrecv into a temporary and the "replace" step of Fan et al., HPDC 2022, §2.1). Receiving
// straight into R would overwrite a block still being sent from the same position. `unmoved(i)` is
// where the rank's own block at relative index i sits before its first hop; `home(j)` is position j
// of R.
template <typename Unmoved, typename Home>
void staged_rounds(Comm& comm, Orientation o, int radix, Bytes block, Unmoved unmoved, Home home) {
  const int P = comm.size();
  const int p = comm.rank();
  TempBuffer staging(comm, max_blocks_per_round(P, radix) * block);
  auto staged = [&](int i, const Round& round) {
    return staging.at(slot_in_round(i, round, radix) * block);
  };
  exchange_rounds(
      comm, o, radix, block,
      [&](int i, const Round& round) {
        return has_moved(i, round.place) ? home(position(P, p, o, i)) : unmoved(i);
      },
      staged,
      [&](const Round& round, int from) {
        comm.set_phase(phase::copy);
        comm.copy_runs([&](RunSink out) { for_each_run(P, from, o, round, radix, block, out); },
                       [&](MoveSink out) {
                         for_each_index(P, round, radix, [&](int i) {
                           out({block_at(P, from, o, i, round.place), staged(i, round),
                                home(position(P, p, o, i)), block});
                         });
                       });
      });
}

// The rounds of zero-rotation Bruck in base `radix` (Fan et al., HPDC 2022, §2.1, "Zero Rotation
// Bruck"): modified orientation, no rotation at all. Every block but the self block leaves from
// where the caller keeps it until its first hop: relative index i is the block for p - i, which the
// paper finds through the rotation index I[(p + i) mod P] = (2p - (p + i)) mod P.
// `send_place(dst)` is this rank's block for dst; `recv_place(src)` is position src of R, where the
// block from src ends. The self block is the caller's to copy (it never moves in a round).
template <typename SendPlace, typename RecvPlace>
void zero_rotation_rounds(Comm& comm, int radix, Bytes block, SendPlace send_place,
                          RecvPlace recv_place) {
  const int P = comm.size();
  const int p = comm.rank();
  staged_rounds(
      comm, Orientation::modified, radix, block,
      [&](int i) { return send_place(static_cast<int>(mod(p - i, P))); }, recv_place);
}

// Zero-rotation Bruck: the self block copied to R, then the rounds.
template <typename SendPlace, typename RecvPlace>
void zero_rotation_bruck(Comm& comm, int radix, Bytes block, SendPlace send_place,
                         RecvPlace recv_place) {
  const int p = comm.rank();
  comm.set_phase(phase::copy);
  comm.copy([&](MoveSink out) { out({{p, p}, send_place(p), recv_place(p), block}); });
  zero_rotation_rounds(comm, radix, block, send_place, recv_place);
}

}  // namespace a2a::bruck
