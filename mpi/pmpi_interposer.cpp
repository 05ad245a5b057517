// liba2a_pmpi.so: a2a under an unmodified MPI program. Preloaded (LD_PRELOAD), it defines
// MPI_Alltoallv and MPI_Alltoall, which the program's and its libraries' calls resolve to before
// the MPI library's, and reaches the library's own through the profiling interface (PMPI_*).
// MPI_Init / MPI_Init_thread read the settings (interposer_settings.hpp) right after the
// library's own initialisation; a bad setting ends every rank there with one line from the lowest
// failing rank and exit code 2. Until then, and when a collective's setting is vendor, calls pass
// straight to the library. C and C++ callers, and Python through mpi4py, are covered; Fortran's
// bindings call the library internally and are not.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/errors.hpp"
#include "mpi/alltoall_call.hpp"
#include "mpi/call_ledger.hpp"
#include "mpi/comm_contexts.hpp"
#include "mpi/interposer_settings.hpp"
#include "mpi/log.hpp"

#define A2A_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using a2a::mpi::InterposerSettings;

// Set once by MPI_Init on the main thread, before any collective can run; read-only afterwards.
std::unique_ptr<InterposerSettings> settings;

// Every rank learns whether any rank has `problem`; the lowest such rank prints it. On failure
// every rank finalizes MPI and exits with 2, so no rank is left waiting for the others.
void agree_or_exit(const std::string& problem) {
  int size = 0, rank = 0;
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int mine = problem.empty() ? size : rank, first = size;
  PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size) return;
  if (rank == first) a2a::mpi::write_line("a2a: error: " + problem);
  PMPI_Finalize();
  std::exit(2);
}

void finish_recording() {
  if (settings && settings->recorder) settings->recorder->finish();
}

void start() {
  std::string problem;
  auto loaded = std::make_unique<InterposerSettings>();
  try {
    *loaded = a2a::mpi::read_settings();
  } catch (const a2a::Error& error) {
    problem = error.what();
  }
  agree_or_exit(problem);
  const a2a::mpi::Context& world = a2a::mpi::context_for(MPI_COMM_WORLD);  // collective
  std::vector<std::string> notes;
  try {
    notes = a2a::mpi::check_for_world(*loaded, world.size(), world.ranks_per_node());
  } catch (const a2a::Error& error) {
    problem = error.what();
  }
  agree_or_exit(problem);
  settings = std::move(loaded);
  if (settings->recorder) a2a::mpi::at_finalize(finish_recording);
  if (world.rank() == 0) {
    auto text = [](const auto& choice) { return choice ? choice->describe() : "vendor"; };
    a2a::mpi::log(
        a2a::mpi::LogLevel::info,
        "liba2a_pmpi: MPI_Alltoallv -> " + text(settings->alltoallv) + ", MPI_Alltoall -> " +
            text(settings->alltoall) +
            (settings->recorder ? ", recording to " + std::string(std::getenv("A2A_RECORD")) : ""));
    for (const std::string& note : notes)
      a2a::mpi::log(a2a::mpi::LogLevel::info, note);
  }
}

}  // namespace

A2A_EXPORT int MPI_Init(int* argc, char*** argv) {
  const int code = PMPI_Init(argc, argv);
  if (code == MPI_SUCCESS) start();
  return code;
}

A2A_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int code = PMPI_Init_thread(argc, argv, required, provided);
  if (code == MPI_SUCCESS) start();
  return code;
}

A2A_EXPORT int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  auto vendor = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  };
  if (!settings || (!settings->alltoallv && !settings->recorder)) return vendor();
  const a2a::mpi::AlltoallCall call = a2a::mpi::alltoallv_call(
      sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  if (settings->recorder) settings->recorder->record(call, __builtin_return_address(0));
  if (!settings->alltoallv) {
    a2a::mpi::note_run(a2a::mpi::Collective::alltoallv, "vendor");
    return vendor();
  }
  return a2a::mpi::run_call(call, *settings->alltoallv, vendor);
}

A2A_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  auto vendor = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  if (!settings || (!settings->alltoall && !settings->recorder)) return vendor();
  const a2a::mpi::AlltoallCall call =
      a2a::mpi::alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (settings->recorder) settings->recorder->record(call, __builtin_return_address(0));
  if (!settings->alltoall) {
    a2a::mpi::note_run(a2a::mpi::Collective::alltoall, "vendor");
    return vendor();
  }
  return a2a::mpi::run_call(call, *settings->alltoall, vendor);
}
