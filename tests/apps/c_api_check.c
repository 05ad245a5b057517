/* The C API (mpi/c_api.h) against the MPI library's own MPI_Alltoallv / MPI_Alltoall, byte for
 * byte, for every algorithm spec given on the command line.
 *
 * Usage: c_api_check SPEC...        every case below, for each spec (tuned=FILE: a tuning table)
 *        c_api_check --large SPEC   one exchange of more than 2^31 bytes (P = 2; ~8.5 GB of memory)
 *
 * Cases: contiguous types with gaps and a rank-dependent block order; a contiguous derived type
 * on one side and its element type on the other; vector and resized types (packed by a2a) on the
 * send side, the receive side and both; MPI_IN_PLACE (plain and with a vector type); negative
 * displacements; MPI_Alltoall (plain, in place, resized); a sub-communicator; an
 * inter-communicator (falls back to the vendor). Receive buffers start filled with a sentinel, so
 * the gaps between blocks are checked too. Prints one line per failing case and
 * "c_api_check: N passed, M failed"; exit code 1 if anything failed. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mpi/c_api.h"

static int rank, size;

/* Elements rank s sends to rank d: some zero, unequal otherwise. */
static int count_of(int s, int d) {
  return (s * 7 + d * 3 + 1) % 5;
}
/* In place, rank s sends recvcounts[d] to d: the counts must be symmetric. */
static int symmetric_count(int s, int d) {
  return (s + d) % 4 + (s == d);
}

static unsigned char pattern(long long offset, int rank_seed) {
  return (unsigned char)((offset * 131 + rank_seed * 31 + 7) % 251);
}

static uint64_t word_pattern(size_t word, int seed) {
  return (uint64_t)word * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(seed + 1) << 56;
}

static void fill(void* buffer, size_t bytes, int seed) {
  for (size_t i = 0; i < bytes; ++i)
    ((unsigned char*)buffer)[i] = pattern((long long)i, seed);
}

/* Displacements (in elements of `unit` per count) in reverse rank order with one-unit gaps. */
static int layout(const int* counts, int P, int unit, int* displs) {
  int offset = 1;
  for (int i = P - 1; i >= 0; --i) {
    displs[i] = offset;
    offset += counts[i] * unit + 1;
  }
  return offset; /* extent of the buffer, in elements */
}

typedef struct {
  MPI_Datatype send_type, recv_type;
  int send_unit, recv_unit;        /* counts scale: elements of the type per "count" */
  size_t send_extent, recv_extent; /* bytes per element, for buffer sizes */
  int in_place;
  int negative; /* shift sendbuf so that displacements are negative */
} VCase;

/* One MPI_Alltoallv case on comm: vendor vs a2a. Returns 1 if the results differ. */
static int alltoallv_case(MPI_Comm comm, const VCase* c, a2a_config config) {
  int P = 0, me = 0, inter = 0;
  MPI_Comm_test_inter(comm, &inter);
  MPI_Comm_rank(comm, &me);
  if (inter)
    MPI_Comm_remote_size(comm, &P);
  else
    MPI_Comm_size(comm, &P);
  int* sc = malloc(sizeof(int) * P);
  int* sd = malloc(sizeof(int) * P);
  int* rc = malloc(sizeof(int) * P);
  int* rd = malloc(sizeof(int) * P);
  for (int i = 0; i < P; ++i) {
    sc[i] = (c->in_place ? symmetric_count(me, i) : count_of(me, i)) * c->send_unit;
    rc[i] = (c->in_place ? symmetric_count(i, me) : count_of(i, me)) * c->recv_unit;
  }
  if (c->in_place) memcpy(sc, rc, sizeof(int) * P);
  const int send_elems = layout(sc, P, 1, sd) + 4;
  const int recv_elems = layout(rc, P, 1, rd) + 4;
  const size_t send_bytes = (size_t)send_elems * c->send_extent + 64;
  const size_t recv_bytes = (size_t)recv_elems * c->recv_extent + 64;
  unsigned char* send = malloc(send_bytes);
  unsigned char* expected = malloc(recv_bytes);
  unsigned char* got = malloc(recv_bytes);
  fill(send, send_bytes, me + 1);
  const void* sendbuf = send;
  if (c->negative) {
    for (int i = 0; i < P; ++i)
      sd[i] -= send_elems / 2;
    sendbuf = send + (size_t)(send_elems / 2) * c->send_extent;
  }
  if (c->in_place) {
    fill(expected, recv_bytes, me + 100);
    fill(got, recv_bytes, me + 100);
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, expected, rc, rd, c->recv_type,
                  comm);
    a2a_alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, got, rc, rd, c->recv_type, comm,
                  config);
  } else {
    memset(expected, 0xA5, recv_bytes);
    memset(got, 0xA5, recv_bytes);
    MPI_Alltoallv(sendbuf, sc, sd, c->send_type, expected, rc, rd, c->recv_type, comm);
    a2a_alltoallv(sendbuf, sc, sd, c->send_type, got, rc, rd, c->recv_type, comm, config);
  }
  const int differ = memcmp(expected, got, recv_bytes) != 0;
  free(sc);
  free(sd);
  free(rc);
  free(rd);
  free(send);
  free(expected);
  free(got);
  return differ;
}

/* MPI_Alltoall: vendor vs a2a, `count` elements per block. */
static int alltoall_case(MPI_Comm comm, MPI_Datatype send_type, int send_count,
                         MPI_Datatype recv_type, int recv_count, size_t extent, int in_place,
                         a2a_config config) {
  int P = 0, me = 0;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  const size_t bytes =
      (size_t)P * (size_t)(send_count > recv_count ? send_count : recv_count) * extent + 64;
  unsigned char* send = malloc(bytes);
  unsigned char* expected = malloc(bytes);
  unsigned char* got = malloc(bytes);
  fill(send, bytes, me + 1);
  if (in_place) {
    fill(expected, bytes, me + 50);
    fill(got, bytes, me + 50);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, expected, recv_count, recv_type, comm);
    a2a_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, recv_count, recv_type, comm, config);
  } else {
    memset(expected, 0xA5, bytes);
    memset(got, 0xA5, bytes);
    MPI_Alltoall(send, send_count, send_type, expected, recv_count, recv_type, comm);
    a2a_alltoall(send, send_count, send_type, got, recv_count, recv_type, comm, config);
  }
  const int differ = memcmp(expected, got, bytes) != 0;
  free(send);
  free(expected);
  free(got);
  return differ;
}

static int passed = 0, failed = 0;

static void report(const char* spec, const char* name, int differ) {
  int any = 0;
  MPI_Allreduce(&differ, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (any) {
    ++failed;
    if (rank == 0) printf("FAIL %s: %s: result differs from the vendor's\n", spec, name);
  } else {
    ++passed;
  }
}

/* SPEC, or tuned=FILE for a tuning table. */
static void run_cases(const char* spec) {
  a2a_config config = NULL;
  const int made = strncmp(spec, "tuned=", 6) == 0 ? a2a_config_create_tuned(spec + 6, &config)
                                                   : a2a_config_create(spec, &config);
  if (made != A2A_SUCCESS) {
    if (rank == 0) printf("FAIL %s: a2a_config_create: %s\n", spec, a2a_error_message());
    ++failed;
    return;
  }
  MPI_Datatype contig3, vector, resized, column;
  MPI_Type_contiguous(3, MPI_DOUBLE, &contig3);
  MPI_Type_vector(2, 1, 3, MPI_INT, &vector); /* size 8, extent 16 */
  MPI_Datatype strided;
  MPI_Type_create_resized(MPI_INT, 0, 8, &resized); /* size 4, extent 8 */
  MPI_Type_vector(2, 1, 4, MPI_DOUBLE, &strided);
  MPI_Type_create_resized(strided, 0, sizeof(double), &column); /* overlapping columns */
  MPI_Type_commit(&contig3);
  MPI_Type_commit(&vector);
  MPI_Type_commit(&resized);
  MPI_Type_commit(&column);

  const VCase plain = {MPI_INT, MPI_INT, 1, 1, 4, 4, 0, 0};
  const VCase mixed = {contig3, MPI_DOUBLE, 1, 3, 24, 8, 0, 0};
  const VCase vector_send = {vector, MPI_INT, 1, 2, 16, 4, 0, 0};
  const VCase vector_both = {vector, vector, 1, 1, 16, 16, 0, 0};
  const VCase resized_both = {resized, resized, 1, 1, 8, 8, 0, 0};
  const VCase column_send = {column, MPI_DOUBLE, 1, 2, 40, 8, 0, 0};
  const VCase in_place = {MPI_INT, MPI_INT, 1, 1, 4, 4, 1, 0};
  const VCase in_place_vector = {vector, vector, 1, 1, 16, 16, 1, 0};
  const VCase negative = {MPI_INT, MPI_INT, 1, 1, 4, 4, 0, 1};
  report(spec, "alltoallv MPI_INT with gaps", alltoallv_case(MPI_COMM_WORLD, &plain, config));
  report(spec, "alltoallv contiguous(3) to MPI_DOUBLE",
         alltoallv_case(MPI_COMM_WORLD, &mixed, config));
  report(spec, "alltoallv vector to MPI_INT", alltoallv_case(MPI_COMM_WORLD, &vector_send, config));
  report(spec, "alltoallv vector to vector", alltoallv_case(MPI_COMM_WORLD, &vector_both, config));
  report(spec, "alltoallv resized to resized",
         alltoallv_case(MPI_COMM_WORLD, &resized_both, config));
  report(spec, "alltoallv resized vector columns",
         alltoallv_case(MPI_COMM_WORLD, &column_send, config));
  report(spec, "alltoallv MPI_IN_PLACE", alltoallv_case(MPI_COMM_WORLD, &in_place, config));
  report(spec, "alltoallv MPI_IN_PLACE vector",
         alltoallv_case(MPI_COMM_WORLD, &in_place_vector, config));
  report(spec, "alltoallv negative displacements",
         alltoallv_case(MPI_COMM_WORLD, &negative, config));
  report(spec, "alltoall MPI_INT",
         alltoall_case(MPI_COMM_WORLD, MPI_INT, 3, MPI_INT, 3, 4, 0, config));
  report(spec, "alltoall MPI_IN_PLACE",
         alltoall_case(MPI_COMM_WORLD, MPI_INT, 3, MPI_INT, 3, 4, 1, config));
  report(spec, "alltoall resized to MPI_INT",
         alltoall_case(MPI_COMM_WORLD, resized, 2, MPI_INT, 2, 8, 0, config));
  /* A sub-communicator (even and odd ranks), freed afterwards, twice (its cached context). */
  for (int round = 0; round < 2; ++round) {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    report(spec, "alltoallv on a sub-communicator", alltoallv_case(half, &plain, config));
    MPI_Comm_free(&half);
  }
  if (size >= 2) { /* an inter-communicator between the two halves: the vendor's call */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 99, &inter);
    report(spec, "alltoallv on an inter-communicator", alltoallv_case(inter, &plain, config));
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
  }
  MPI_Type_free(&contig3);
  MPI_Type_free(&vector);
  MPI_Type_free(&resized);
  MPI_Type_free(&strided);
  MPI_Type_free(&column);
  a2a_config_free(&config);
}

/* P = 2: rank r sends 64 MiB to itself and 2 GiB + 64 MiB to the other rank (one message over
 * INT_MAX bytes, a buffer over 2^31 bytes), counted in elements of a 1 MiB contiguous type, once
 * under each of the `count` specs. The result is checked against the pattern the sender wrote, not
 * against a second buffer. The buffers are allocated and the send buffer written once for all
 * specs: touching 4.3 GiB per rank takes longer than the exchange. */
/* A buffer of `bytes` in transparent huge pages where the kernel grants them (madvise mode, as on
 * the development machine): its first touch then takes 2 MiB page faults rather than 4 KiB ones.
 * In the Firecracker guest this test ran in, 4.3 GiB per rank in 4 KiB pages cost about 40 s of
 * system time, more than every exchange of the test together. NULL if it cannot be mapped. */
static void* map_large(size_t bytes) {
  void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE); /* advice only: without it the test is slower, not wrong */
#endif
  return p;
}

static void run_large(int count, char** specs) {
  if (size != 2) {
    if (rank == 0) printf("FAIL --large needs P = 2\n");
    ++failed;
    return;
  }
  const long long mib = 1 << 20;
  MPI_Datatype megabyte;
  MPI_Type_contiguous((int)mib, MPI_BYTE, &megabyte);
  MPI_Type_commit(&megabyte);
  const int self_count = 64, peer_count = 2048 + 64;
  int counts[2], displs[2];
  const int peer = 1 - rank;
  counts[rank] = self_count;
  counts[peer] = peer_count;
  displs[0] = 0;
  displs[1] = counts[0];
  const size_t bytes = (size_t)(self_count + peer_count) * (size_t)mib;
  const size_t words = bytes / 8, per_mib = (size_t)mib / 8;
  uint64_t* send = map_large(bytes);
  uint64_t* recv = map_large(bytes);
  /* Word w of rank r's send buffer: a function of (w, r), cheap enough for 2 GiB. */
  if (send != NULL)
    for (size_t w = 0; w < words; ++w)
      send[w] = word_pattern(w, rank);
  for (int c = 0; c < count; ++c) {
    a2a_config config = NULL;
    if (a2a_config_create(specs[c], &config) != A2A_SUCCESS) {
      if (rank == 0) printf("FAIL %s: not a valid spec: %s\n", specs[c], a2a_error_message());
      ++failed;
      continue;
    }
    int differ = send == NULL || recv == NULL;
    if (!differ) {
      memset(recv, 0xA5, bytes);
      a2a_alltoallv(send, counts, displs, megabyte, recv, counts, displs, megabyte, MPI_COMM_WORLD,
                    config);
      /* Rank s laid out its blocks like this rank with the roles swapped: its block for rank 0
       * first, of s's count for 0 (self_count if s = 0, else peer_count). */
      for (int s = 0; s < 2 && !differ; ++s) {
        const size_t to = (size_t)displs[s] * per_mib;
        const size_t from = rank == 0 ? 0 : (size_t)(s == 0 ? self_count : peer_count) * per_mib;
        for (size_t k = 0; k < (size_t)counts[s] * per_mib; ++k) {
          if (recv[to + k] != word_pattern(from + k, s)) {
            differ = 1;
            printf("rank %d: word %zu of the block from %d is wrong\n", rank, k, s);
            break;
          }
        }
      }
    }
    report(specs[c], "alltoallv of more than 2^31 bytes", differ);
    a2a_config_free(&config);
  }
  if (send != NULL) munmap(send, bytes);
  if (recv != NULL) munmap(recv, bytes);
  MPI_Type_free(&megabyte);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: c_api_check SPEC... | --large SPEC\n");
    MPI_Finalize();
    return 2;
  }
  if (strcmp(argv[1], "--large") == 0) {
    run_large(argc - 2, argv + 2);
  } else {
    for (int a = 1; a < argc; ++a)
      run_cases(argv[a]);
  }
  if (rank == 0) printf("c_api_check: %d passed, %d failed\n", passed, failed);
  MPI_Finalize();
  return failed == 0 && passed > 0 ? 0 : 1;
}
