// liba2a_pmpi.so's Fortran entry points. Open MPI's Fortran bindings (mpif.h and `use mpi`:
// mpi_alltoallv_ in libmpi_mpifh; `use mpi_f08`: mpi_alltoallv_f08_ in libmpi_usempif08, which
// calls the former's internals) convert their arguments and call PMPI_Alltoallv directly, so a
// Fortran program never reaches the C symbol MPI_Alltoallv. The same holds for MPI_Alltoall and the
// non-blocking MPI_Ialltoall(v) (whose request comes back as MPI_Request_c2f of the C one). These
// definitions take the Fortran symbols' place when the library is preloaded, convert the arguments
// as the bindings do, and run the call like a C caller's (interposer.hpp). Names and argument
// passing are gfortran's and Open MPI 4.1's (nm -D libmpi_mpifh.so libmpi_usempif08.so): lower case
// with one trailing underscore, every argument by reference, handles as MPI_Fint, and the _f08
// routines' optional ierror passed as a null pointer when absent.
//
// Fortran's MPI_IN_PLACE and MPI_BOTTOM are addresses of common blocks (Open MPI:
// mpi_fortran_in_place_, mpi_fortran_bottom_). When they cannot be found — another MPI library —
// every Fortran call goes to the library's own routine, untouched (logged once at A2A_LOG=info).
//
// mpi_init_ / mpi_init_thread_ (and _f08) call the library's own routine (found with
// dlsym(RTLD_NEXT)), then read the settings as MPI_Init does: Open MPI's Fortran initialisation
// calls PMPI_Init, which the C MPI_Init of this library never sees.
#include <dlfcn.h>
#include <mpi.h>

#include <string>

#include "mpi/interposer.hpp"
#include "mpi/log.hpp"

#define A2A_EXPORT extern "C" __attribute__((visibility("default")))

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER counts are read as C int");

namespace {

// The next definition of a Fortran symbol (the MPI library's), or null with one line on stderr.
template <typename Function>
Function next(const char* name) {
  void* found = dlsym(RTLD_NEXT, name);
  if (found == nullptr) {
    a2a::mpi::log(a2a::mpi::LogLevel::error,
                  std::string("liba2a_pmpi: the MPI library has no ") + name);
  }
  return reinterpret_cast<Function>(found);
}

struct Sentinels {
  const void* in_place = nullptr;
  const void* bottom = nullptr;
};

// Open MPI's Fortran MPI_IN_PLACE and MPI_BOTTOM, as the process resolved them.
const Sentinels& sentinels() {
  static const Sentinels found = [] {
    Sentinels s{dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_"),
                dlsym(RTLD_DEFAULT, "mpi_fortran_bottom_")};
    if (s.in_place == nullptr || s.bottom == nullptr) {
      a2a::mpi::log(a2a::mpi::LogLevel::info,
                    "liba2a_pmpi: this MPI library's Fortran MPI_IN_PLACE is unknown "
                    "(no mpi_fortran_in_place_): Fortran all-to-alls use the library's own");
      s = {};
    }
    return s;
  }();
  return found;
}

// A Fortran buffer argument as C sees it.
const void* c_buffer(const void* buffer) {
  if (buffer == sentinels().in_place) return MPI_IN_PLACE;
  if (buffer == sentinels().bottom) return MPI_BOTTOM;
  return buffer;
}

void set_error(MPI_Fint* ierr, int code) {
  if (ierr != nullptr) *ierr = static_cast<MPI_Fint>(code);  // optional in mpi_f08
}

using InitFn = void (*)(MPI_Fint*);
using InitThreadFn = void (*)(MPI_Fint*, MPI_Fint*, MPI_Fint*);
using AlltoallvFn = void (*)(const void*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, void*,
                             const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*,
                             MPI_Fint*);
using AlltoallFn = void (*)(const void*, const MPI_Fint*, const MPI_Fint*, void*, const MPI_Fint*,
                            const MPI_Fint*, const MPI_Fint*, MPI_Fint*);

void init(InitFn real, MPI_Fint* ierr) {
  MPI_Fint code = MPI_ERR_OTHER;
  if (real != nullptr) real(&code);
  set_error(ierr, code);
  if (code == MPI_SUCCESS) a2a::mpi::start_interposer();
}

void init_thread(InitThreadFn real, MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  MPI_Fint code = MPI_ERR_OTHER;
  if (real != nullptr) real(required, provided, &code);
  set_error(ierr, code);
  if (code == MPI_SUCCESS) a2a::mpi::start_interposer();
}

void alltoallv(AlltoallvFn real, const void* sendbuf, const MPI_Fint* sendcounts,
               const MPI_Fint* sdispls, const MPI_Fint* sendtype, void* recvbuf,
               const MPI_Fint* recvcounts, const MPI_Fint* rdispls, const MPI_Fint* recvtype,
               const MPI_Fint* comm, MPI_Fint* ierr, const void* site) {
  if (sentinels().in_place == nullptr) {
    MPI_Fint code = MPI_ERR_OTHER;
    if (real != nullptr) {
      real(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
           &code);
    }
    return set_error(ierr, code);
  }
  set_error(ierr, a2a::mpi::intercept_alltoallv(
                      c_buffer(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype),
                      const_cast<void*>(c_buffer(recvbuf)), recvcounts, rdispls,
                      PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), site));
}

void alltoall(AlltoallFn real, const void* sendbuf, const MPI_Fint* sendcount,
              const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount,
              const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr, const void* site) {
  if (sentinels().in_place == nullptr) {
    MPI_Fint code = MPI_ERR_OTHER;
    if (real != nullptr)
      real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &code);
    return set_error(ierr, code);
  }
  set_error(ierr,
            a2a::mpi::intercept_alltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                         const_cast<void*>(c_buffer(recvbuf)), *recvcount,
                                         PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), site));
}

using IalltoallvFn = void (*)(const void*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, void*,
                              const MPI_Fint*, const MPI_Fint*, const MPI_Fint*, const MPI_Fint*,
                              MPI_Fint*, MPI_Fint*);
using IalltoallFn = void (*)(const void*, const MPI_Fint*, const MPI_Fint*, void*, const MPI_Fint*,
                             const MPI_Fint*, const MPI_Fint*, MPI_Fint*, MPI_Fint*);

// The C request as the Fortran handle the call returns.
void set_request(MPI_Fint* request, int code, MPI_Request c_request) {
  if (code == MPI_SUCCESS) *request = PMPI_Request_c2f(c_request);
}

void ialltoallv(IalltoallvFn real, const void* sendbuf, const MPI_Fint* sendcounts,
                const MPI_Fint* sdispls, const MPI_Fint* sendtype, void* recvbuf,
                const MPI_Fint* recvcounts, const MPI_Fint* rdispls, const MPI_Fint* recvtype,
                const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  if (sentinels().in_place == nullptr) {
    MPI_Fint code = MPI_ERR_OTHER;
    if (real != nullptr) {
      real(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
           request, &code);
    }
    return set_error(ierr, code);
  }
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int code = a2a::mpi::intercept_ialltoallv(
      c_buffer(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype),
      const_cast<void*>(c_buffer(recvbuf)), recvcounts, rdispls, PMPI_Type_f2c(*recvtype),
      PMPI_Comm_f2c(*comm), &c_request);
  set_request(request, code, c_request);
  set_error(ierr, code);
}

void ialltoall(IalltoallFn real, const void* sendbuf, const MPI_Fint* sendcount,
               const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount,
               const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  if (sentinels().in_place == nullptr) {
    MPI_Fint code = MPI_ERR_OTHER;
    if (real != nullptr) {
      real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, &code);
    }
    return set_error(ierr, code);
  }
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int code = a2a::mpi::intercept_ialltoall(
      c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), const_cast<void*>(c_buffer(recvbuf)),
      *recvcount, PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), &c_request);
  set_request(request, code, c_request);
  set_error(ierr, code);
}

}  // namespace

// mpif.h and `use mpi`.
A2A_EXPORT void mpi_init_(MPI_Fint* ierr) {
  static const InitFn real = next<InitFn>("mpi_init_");
  init(real, ierr);
}

A2A_EXPORT void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  static const InitThreadFn real = next<InitThreadFn>("mpi_init_thread_");
  init_thread(real, required, provided, ierr);
}

A2A_EXPORT void mpi_alltoallv_(const void* sendbuf, const MPI_Fint* sendcounts,
                               const MPI_Fint* sdispls, const MPI_Fint* sendtype, void* recvbuf,
                               const MPI_Fint* recvcounts, const MPI_Fint* rdispls,
                               const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  static const AlltoallvFn real = next<AlltoallvFn>("mpi_alltoallv_");
  alltoallv(real, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
            comm, ierr, __builtin_return_address(0));
}

A2A_EXPORT void mpi_alltoall_(const void* sendbuf, const MPI_Fint* sendcount,
                              const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount,
                              const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  static const AlltoallFn real = next<AlltoallFn>("mpi_alltoall_");
  alltoall(real, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr,
           __builtin_return_address(0));
}

// `use mpi_f08` (TYPE(MPI_Comm) and TYPE(MPI_Datatype) hold one MPI_Fint: passed as its address).
A2A_EXPORT void mpi_init_f08_(MPI_Fint* ierr) {
  static const InitFn real = next<InitFn>("mpi_init_f08_");
  init(real, ierr);
}

A2A_EXPORT void mpi_init_thread_f08_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  static const InitThreadFn real = next<InitThreadFn>("mpi_init_thread_f08_");
  init_thread(real, required, provided, ierr);
}

A2A_EXPORT void mpi_alltoallv_f08_(const void* sendbuf, const MPI_Fint* sendcounts,
                                   const MPI_Fint* sdispls, const MPI_Fint* sendtype, void* recvbuf,
                                   const MPI_Fint* recvcounts, const MPI_Fint* rdispls,
                                   const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* ierr) {
  static const AlltoallvFn real = next<AlltoallvFn>("mpi_alltoallv_f08_");
  alltoallv(real, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
            comm, ierr, __builtin_return_address(0));
}

A2A_EXPORT void mpi_alltoall_f08_(const void* sendbuf, const MPI_Fint* sendcount,
                                  const MPI_Fint* sendtype, void* recvbuf,
                                  const MPI_Fint* recvcount, const MPI_Fint* recvtype,
                                  const MPI_Fint* comm, MPI_Fint* ierr) {
  static const AlltoallFn real = next<AlltoallFn>("mpi_alltoall_f08_");
  alltoall(real, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr,
           __builtin_return_address(0));
}

// Non-blocking, both bindings (TYPE(MPI_Request) holds one MPI_Fint too).
A2A_EXPORT void mpi_ialltoallv_(const void* sendbuf, const MPI_Fint* sendcounts,
                                const MPI_Fint* sdispls, const MPI_Fint* sendtype, void* recvbuf,
                                const MPI_Fint* recvcounts, const MPI_Fint* rdispls,
                                const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request,
                                MPI_Fint* ierr) {
  static const IalltoallvFn real = next<IalltoallvFn>("mpi_ialltoallv_");
  ialltoallv(real, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
             comm, request, ierr);
}

A2A_EXPORT void mpi_ialltoall_(const void* sendbuf, const MPI_Fint* sendcount,
                               const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcount,
                               const MPI_Fint* recvtype, const MPI_Fint* comm, MPI_Fint* request,
                               MPI_Fint* ierr) {
  static const IalltoallFn real = next<IalltoallFn>("mpi_ialltoall_");
  ialltoall(real, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr);
}

A2A_EXPORT void mpi_ialltoallv_f08_(const void* sendbuf, const MPI_Fint* sendcounts,
                                    const MPI_Fint* sdispls, const MPI_Fint* sendtype,
                                    void* recvbuf, const MPI_Fint* recvcounts,
                                    const MPI_Fint* rdispls, const MPI_Fint* recvtype,
                                    const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  static const IalltoallvFn real = next<IalltoallvFn>("mpi_ialltoallv_f08_");
  ialltoallv(real, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
             comm, request, ierr);
}

A2A_EXPORT void mpi_ialltoall_f08_(const void* sendbuf, const MPI_Fint* sendcount,
                                   const MPI_Fint* sendtype, void* recvbuf,
                                   const MPI_Fint* recvcount, const MPI_Fint* recvtype,
                                   const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierr) {
  static const IalltoallFn real = next<IalltoallFn>("mpi_ialltoall_f08_");
  ialltoall(real, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr);
}
