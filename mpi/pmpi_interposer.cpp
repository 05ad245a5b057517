// liba2a_pmpi.so: a2a under an unmodified MPI program. Preloaded (LD_PRELOAD), it defines
// MPI_Alltoallv and MPI_Alltoall, which the program's and its libraries' calls resolve to before
// the MPI library's, and reaches the library's own through the profiling interface (PMPI_*).
// MPI_Init / MPI_Init_thread read the settings (interposer_settings.hpp) right after the
// library's own initialisation; a bad setting ends every rank there with one line from the lowest
// failing rank and exit code 2. Until then, and when a collective's setting is vendor, calls pass
// straight to the library. C and C++ callers, and Python through mpi4py, call these symbols;
// Fortran's bindings call the library internally, so fortran_bindings.cpp intercepts their entry
// points and comes here (interposer.hpp).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/errors.hpp"
#include "mpi/alltoall_call.hpp"
#include "mpi/call_ledger.hpp"
#include "mpi/comm_contexts.hpp"
#include "mpi/interposer.hpp"
#include "mpi/interposer_settings.hpp"
#include "mpi/log.hpp"
#include "mpi/nonblocking.hpp"

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
  // Once: an MPI whose Fortran initialisation goes through MPI_Init would otherwise start twice.
  static bool started = false;
  if (started) return;
  started = true;
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
  PMPI_Query_thread(&loaded->thread_level);
  PMPI_Allreduce(MPI_IN_PLACE, &loaded->thread_level, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
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

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE:
      return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
      return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
      return "MPI_THREAD_SERIALIZED";
  }
  return "MPI_THREAD_MULTIPLE";
}

// MPI_Ialltoall(v) under `choice`: a catalog algorithm on the communicator's helper thread, or the
// vendor's call where a2a cannot progress it (nonblocking.hpp), with the reason logged.
int intercept_nonblocking(a2a::mpi::AlltoallCall call, const a2a::mpi::AlgorithmChoice* choice,
                          a2a::FunctionRef<int()> vendor_now,
                          std::function<int(MPI_Comm)> vendor_on, MPI_Request* request) {
  if (!settings || choice == nullptr) return vendor_now();
  call.nonblocking = true;
  int inter = 0;
  PMPI_Comm_test_inter(call.comm, &inter);
  std::string reason;
  if (inter) {
    reason = "inter-communicators are not supported";
  } else if (settings->thread_level != MPI_THREAD_MULTIPLE) {
    reason =
        std::string("a catalog algorithm progresses a non-blocking call on a helper thread, ") +
        "which needs MPI_THREAD_MULTIPLE; this job initialised " +
        thread_level_name(settings->thread_level);
  }
  if (!reason.empty()) {
    a2a::mpi::note_fallback(a2a::mpi::call_name(call), reason, call.comm);
    return vendor_now();
  }
  return a2a::mpi::start_nonblocking(std::move(call), *choice, std::move(vendor_on), request);
}

const a2a::mpi::AlgorithmChoice* choice_for(
    const std::optional<a2a::mpi::AlgorithmChoice>& choice) {
  return choice ? &*choice : nullptr;
}

}  // namespace

namespace a2a::mpi {

void start_interposer() {
  start();
}

int intercept_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        const void* site) {
  auto vendor = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  };
  if (!settings || (!settings->alltoallv && !settings->recorder)) return vendor();
  const AlltoallCall call = alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                           recvcounts, rdispls, recvtype, comm);
  if (settings->recorder) settings->recorder->record(call, site);
  if (!settings->alltoallv) {
    note_run(call_name(call), "vendor");
    return vendor();
  }
  return run_call(call, *settings->alltoallv, vendor);
}

int intercept_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const void* site) {
  auto vendor = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  if (!settings || (!settings->alltoall && !settings->recorder)) return vendor();
  const AlltoallCall call =
      alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (settings->recorder) settings->recorder->record(call, site);
  if (!settings->alltoall) {
    note_run(call_name(call), "vendor");
    return vendor();
  }
  return run_call(call, *settings->alltoall, vendor);
}

// The non-blocking variants follow their blocking counterpart's setting (A2A_ALLTOALLV for
// MPI_Ialltoallv). Not recorded: recording gathers counts with a blocking collective.
int intercept_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request* request) {
  auto vendor_now = [&] {
    return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, request);
  };
  if (!settings || !settings->alltoallv) return vendor_now();
  // MPI keeps the arguments, count arrays included, untouched until the request completes.
  auto vendor_on = [=](MPI_Comm on) {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, on);
  };
  return intercept_nonblocking(alltoallv_call(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm),
                               choice_for(settings->alltoallv), vendor_now, vendor_on, request);
}

int intercept_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  auto vendor_now = [&] {
    return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
  };
  if (!settings || !settings->alltoall) return vendor_now();
  auto vendor_on = [=](MPI_Comm on) {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, on);
  };
  return intercept_nonblocking(
      alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
      choice_for(settings->alltoall), vendor_now, vendor_on, request);
}

}  // namespace a2a::mpi

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
  return a2a::mpi::intercept_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                       rdispls, recvtype, comm, __builtin_return_address(0));
}

A2A_EXPORT int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return a2a::mpi::intercept_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, __builtin_return_address(0));
}

A2A_EXPORT int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) {
  return a2a::mpi::intercept_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                        rdispls, recvtype, comm, request);
}

A2A_EXPORT int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  return a2a::mpi::intercept_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request);
}
