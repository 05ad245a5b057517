// TEST-ONLY fault injection for a2a-mpi's reliability tests (docs/reliability.md). Nothing here is
// active unless the environment variable A2A_MPI_TEST_FAULT is set; no user-facing option turns
// it on. It lets ctest produce the faults the guards exist for, on real MPI:
//   A2A_MPI_TEST_FAULT=drop_send:R   rank R never posts its first data message (its peer waits
//                                    forever: a hung exchange for --timeout to catch);
//   A2A_MPI_TEST_FAULT=recv_count:R  rank R's layout expects one element less from its first peer
//                                    with a non-empty block than that peer sends (a count mismatch
//                                    for verify's count check to catch).
// A malformed value is an error (one line), never silently ignored.
#pragma once

#include "algorithms/exchange.hpp"

namespace a2a::mpi {

struct TestFault {
  enum class Kind { none, drop_send, recv_count };
  Kind kind = Kind::none;
  int rank = -1;
};

// The fault named by A2A_MPI_TEST_FAULT (read once). Throws InvalidParameter if it is malformed.
const TestFault& test_fault();

// True once, for the first data message rank `rank` posts, under drop_send:rank.
bool test_fault_drops_send(int rank);

// Applies recv_count:rank to rank `rank`'s layout (no effect otherwise).
void apply_test_fault(ExchangeLayout& layout, int rank);

}  // namespace a2a::mpi
