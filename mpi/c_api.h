/* a2a's C API: MPI_Alltoallv and MPI_Alltoall with the catalog's algorithms.
 *
 * a2a_alltoallv / a2a_alltoall take exactly MPI_Alltoallv's / MPI_Alltoall's arguments plus a
 * configuration handle, so switching an application is a one-line change per call:
 *
 *   a2a_config config;
 *   a2a_config_create("parlogna:radix=4", &config);      // or a2a_config_create_tuned(FILE, ...)
 *   a2a_alltoallv(sbuf, scounts, sdispls, MPI_DOUBLE, rbuf, rcounts, rdispls, MPI_DOUBLE,
 *                 comm, config);
 *   a2a_config_free(&config);
 *
 * Semantics are MPI's: any datatype (by extent; non-contiguous ones are packed), MPI_IN_PLACE,
 * exchanges beyond 2^31 bytes. What a2a does not handle (inter-communicators, an algorithm that
 * does not apply to the exchange or to the communicator size) runs the MPI library's own call,
 * logged at A2A_LOG=info. Temporary memory is kept per communicator between calls, up to
 * A2A_POOL_MAX bytes (default 256M; 0: allocate on every call). Link with -la2a_mpi
 * (docs/application.md).
 */
#ifndef A2A_C_API_H
#define A2A_C_API_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes of the configuration functions; the collectives return MPI error codes. */
#define A2A_SUCCESS 0
#define A2A_ERR_INVALID 1 /* a bad spec or tuning table: a2a_error_message() says why */

typedef struct a2a_config_s* a2a_config;

/* A malformed A2A_POOL_MAX in the environment is reported by both create functions.
 * spec: a catalog algorithm with optional parameters, "name" or "name:key=value,...", as listed
 * by `a2a-mpi list` (e.g. "parlogna:radix=4", "scattered:batch=8", "vendor"). Parameters that
 * depend on the communicator size (radix <= P) are checked at each call. */
int a2a_config_create(const char* spec, a2a_config* config);
/* A tuning table (format in docs/application.md) that picks the algorithm per call by collective,
 * communicator size and block size. */
int a2a_config_create_tuned(const char* tuning_file, a2a_config* config);
/* Frees the handle and sets *config to NULL; a NULL handle is ignored. */
void a2a_config_free(a2a_config* config);
/* The last configuration error of this thread, one line ("" if none). */
const char* a2a_error_message(void);

int a2a_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm, a2a_config config);
int a2a_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, a2a_config config);

#ifdef __cplusplus
}
#endif

#endif /* A2A_C_API_H */
