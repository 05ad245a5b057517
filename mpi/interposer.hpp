// What liba2a_pmpi.so's entry points share (pmpi_interposer.cpp): the C symbols MPI_Alltoall(v)
// and MPI_Ialltoall(v) and the Fortran bindings' (fortran_bindings.cpp) all come here with C
// arguments.
#pragma once

#include <mpi.h>

namespace a2a::mpi {

// Reads and checks the settings, collectively over MPI_COMM_WORLD; once per process. Call right
// after the MPI library's own initialisation succeeded.
void start_interposer();

// MPI_Alltoallv / MPI_Alltoall as the settings say: a catalog algorithm, the vendor's call, and
// recording. `site` is the caller's return address (the recording's call site).
int intercept_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        const void* site);
int intercept_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const void* site);

// MPI_Ialltoallv / MPI_Ialltoall: a catalog algorithm on the communicator's helper thread
// (nonblocking.hpp) under MPI_THREAD_MULTIPLE, else the vendor's call with the reason logged.
int intercept_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request* request);
int intercept_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);

}  // namespace a2a::mpi
