// The C API (c_api.h): configuration handles over AlgorithmChoice, collectives over run_call.
#include "mpi/c_api.h"

#include <string>

#include "algorithms/errors.hpp"
#include "mpi/algorithm_choice.hpp"
#include "mpi/alltoall_call.hpp"
#include "mpi/comm_contexts.hpp"

#define A2A_EXPORT __attribute__((visibility("default")))

struct a2a_config_s {
  a2a::mpi::AlgorithmChoice choice;
};

namespace {

using a2a::mpi::pool_cap_setting;

thread_local std::string last_error;

template <typename Make>
int create(a2a_config* config, Make make) {
  if (config == nullptr) {
    last_error = "a2a_config_create: config is NULL";
    return A2A_ERR_INVALID;
  }
  *config = nullptr;
  try {
    pool_cap_setting();  // a malformed A2A_POOL_MAX is a configuration error, reported here
    *config = new a2a_config_s{make()};
    last_error.clear();
    return A2A_SUCCESS;
  } catch (const a2a::Error& error) {
    last_error = error.what();
    return A2A_ERR_INVALID;
  }
}

// A NULL handle is a usage error the collective cannot report otherwise.
int null_config(MPI_Comm comm) {
  PMPI_Comm_call_errhandler(comm, MPI_ERR_ARG);
  return MPI_ERR_ARG;
}

}  // namespace

extern "C" {

A2A_EXPORT int a2a_config_create(const char* spec, a2a_config* config) {
  return create(config, [&] {
    if (spec == nullptr) throw a2a::InvalidParameter("algorithm spec is NULL");
    return a2a::mpi::AlgorithmChoice::fixed(spec);
  });
}

A2A_EXPORT int a2a_config_create_tuned(const char* tuning_file, a2a_config* config) {
  return create(config, [&] {
    if (tuning_file == nullptr) throw a2a::InvalidParameter("tuning file is NULL");
    return a2a::mpi::AlgorithmChoice::tuned(tuning_file);
  });
}

A2A_EXPORT void a2a_config_free(a2a_config* config) {
  if (config == nullptr) return;
  delete *config;
  *config = nullptr;
}

A2A_EXPORT const char* a2a_error_message(void) {
  return last_error.c_str();
}

A2A_EXPORT int a2a_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             a2a_config config) {
  if (config == nullptr) return null_config(comm);
  const a2a::mpi::AlltoallCall call = a2a::mpi::alltoallv_call(
      sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  return a2a::mpi::run_call(call, config->choice, [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  });
}

A2A_EXPORT int a2a_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            a2a_config config) {
  if (config == nullptr) return null_config(comm);
  const a2a::mpi::AlltoallCall call =
      a2a::mpi::alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return a2a::mpi::run_call(call, config->choice, [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  });
}

}  // extern "C"
