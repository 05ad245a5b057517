// The interposer's own cost (issue 17, docs/performance.md): MPI_Alltoallv as an application calls
// it, timed in a loop, to run with and without LD_PRELOAD=liba2a_pmpi.so under
// A2A_ALLTOALLV=vendor (the call passes through a2a to the library untouched).
//
// Usage: a2a_interposer_overhead BLOCK_BYTES CALLS ROUNDS
// Each round times CALLS back-to-back MPI_Alltoallv of BLOCK_BYTES per block (MPI_BYTE, packed in
// rank order) and as many PMPI_Alltoallv — the library's own entry, which the interposer calls —
// in alternating order, each after a barrier; a loop's time per call is the slowest rank's.
// Without the preload both loops call the library directly (a control: their difference is noise);
// with it, their difference is the interposer's cost measured under the same machine load, which
// on a shared 2-core machine varies more between runs than the cost itself. Prints one line:
// "block=B calls=C rounds=R mpi_us=... pmpi_us=... diff_us=..." (medians over rounds of the time
// per call, and of the per-round difference).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

long positive(const char* text, const char* what) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value <= 0) {
    std::fprintf(stderr,
                 "a2a_interposer_overhead: error: %s must be a positive integer, got '%s'\n", what,
                 text);
    std::exit(2);
  }
  return value;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: a2a_interposer_overhead BLOCK_BYTES CALLS ROUNDS\n");
    return 2;
  }
  const long block = positive(argv[1], "BLOCK_BYTES");
  const long calls = positive(argv[2], "CALLS");
  const long rounds = positive(argv[3], "ROUNDS");
  MPI_Init(&argc, &argv);
  int P = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> counts(P, static_cast<int>(block)), displs(P);
  for (int i = 0; i < P; ++i)
    displs[i] = i * static_cast<int>(block);
  std::vector<char> send(static_cast<size_t>(block) * P, 1), recv(send.size(), 0);
  using Alltoallv = int (*)(const void*, const int*, const int*, MPI_Datatype, void*, const int*,
                            const int*, MPI_Datatype, MPI_Comm);
  auto time_loop = [&](Alltoallv call) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    for (long c = 0; c < calls; ++c) {
      call(send.data(), counts.data(), displs.data(), MPI_BYTE, recv.data(), counts.data(),
           displs.data(), MPI_BYTE, MPI_COMM_WORLD);
    }
    double elapsed = (MPI_Wtime() - start) / static_cast<double>(calls);
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return elapsed;
  };
  std::vector<double> mpi, pmpi, diff;
  for (long r = 0; r < rounds + 1; ++r) {  // round 0 warms up
    double a = 0, b = 0;
    if (r % 2 == 0) {
      a = time_loop(MPI_Alltoallv);
      b = time_loop(PMPI_Alltoallv);
    } else {
      b = time_loop(PMPI_Alltoallv);
      a = time_loop(MPI_Alltoallv);
    }
    if (r == 0) continue;
    mpi.push_back(a);
    pmpi.push_back(b);
    diff.push_back(a - b);
  }
  if (rank == 0) {
    std::printf("block=%ld calls=%ld rounds=%ld mpi_us=%.3f pmpi_us=%.3f diff_us=%.3f\n", block,
                calls, rounds, median(mpi) * 1e6, median(pmpi) * 1e6, median(diff) * 1e6);
  }
  MPI_Finalize();
  return 0;
}
