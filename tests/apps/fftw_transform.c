/* A real application for the interposer tests: FFTW 3's distributed complex DFTs (fftw3-mpi),
 * whose transposes call MPI_Alltoallv (MPI_Alltoall when the blocks happen to be equal).
 *
 * Usage: fftw_transform OUT SHAPE...    SHAPE = N0xN1 or N0xN1xN2
 *
 * For each shape: plans a forward DFT with FFTW_ESTIMATE | FFTW_DESTROY_INPUT (deterministic
 * plans; with these flags FFTW picks its MPI_Alltoall(v) transpose — the program fails if the
 * plan does not use it, so a test cannot pass without the interposer being exercised), fills the
 * input from a formula of the global index, executes twice, gathers the result on rank 0,
 * compares it with a serial FFTW transform of the whole array (relative error below 1e-10) and
 * appends its raw bytes to OUT, so that runs with and without the interposer can be compared
 * byte for byte. Exit code 0 on success, 1 on a wrong result, 2 on bad usage. */
#include <fftw3-mpi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double input_value(ptrdiff_t index, int part) {
  return sin(0.37 * (double)index + part) + 0.01 * (double)(index % 17);
}

static int parse_shape(const char* text, ptrdiff_t n[3]) {
  long a = 0, b = 0, c = 0;
  char extra;
  int fields = sscanf(text, "%ldx%ldx%ld%c", &a, &b, &c, &extra);
  if (fields == 2 && a > 0 && b > 0) {
    n[0] = a, n[1] = b;
    return 2;
  }
  if (fields == 3 && a > 0 && b > 0 && c > 0) {
    n[0] = a, n[1] = b, n[2] = c;
    return 3;
  }
  return 0;
}

/* One shape; returns 0 when the distributed result matches the serial one. */
static int transform(int rank_count, const ptrdiff_t* n, FILE* out, int rank, int size) {
  ptrdiff_t local_n0 = 0, start = 0, total = 1, row = 1;
  for (int d = 0; d < rank_count; ++d)
    total *= n[d];
  for (int d = 1; d < rank_count; ++d)
    row *= n[d];
  const ptrdiff_t alloc = fftw_mpi_local_size(rank_count, n, MPI_COMM_WORLD, &local_n0, &start);
  fftw_complex* in = fftw_alloc_complex(alloc > 0 ? alloc : 1);
  fftw_complex* result = fftw_alloc_complex(alloc > 0 ? alloc : 1);
  fftw_plan plan = fftw_mpi_plan_dft(rank_count, n, in, result, MPI_COMM_WORLD, FFTW_FORWARD,
                                     FFTW_ESTIMATE | FFTW_DESTROY_INPUT);
  char* text = fftw_sprint_plan(plan);
  const int uses_alltoall = strstr(text, "mpi-transpose-alltoall") != NULL;
  free(text);
  if (!uses_alltoall) {
    if (rank == 0)
      fprintf(stderr, "fftw_transform: error: the plan does not use MPI_Alltoall(v)\n");
    return 1;
  }
  for (int repeat = 0; repeat < 2; ++repeat) { /* the input is destroyed: refill each time */
    for (ptrdiff_t i = 0; i < local_n0 * row; ++i) {
      in[i][0] = input_value(start * row + i, 0);
      in[i][1] = input_value(start * row + i, 1);
    }
    fftw_execute(plan);
  }
  /* Gather the rows (MPI_Gatherv: not an all-to-all, so the check does not depend on a2a). */
  int* counts = malloc(sizeof(int) * size);
  int* displs = malloc(sizeof(int) * size);
  int mine = (int)(local_n0 * row * 2);
  MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  fftw_complex* whole = rank == 0 ? fftw_alloc_complex(total) : NULL;
  if (rank == 0) {
    displs[0] = 0;
    for (int r = 1; r < size; ++r)
      displs[r] = displs[r - 1] + counts[r - 1];
  }
  MPI_Gatherv(result, mine, MPI_DOUBLE, whole, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  int wrong = 0;
  if (rank == 0) {
    fftw_complex* serial_in = fftw_alloc_complex(total);
    fftw_complex* serial_out = fftw_alloc_complex(total);
    int dims[3] = {(int)n[0], (int)n[1], rank_count == 3 ? (int)n[2] : 1};
    fftw_plan serial =
        fftw_plan_dft(rank_count, dims, serial_in, serial_out, FFTW_FORWARD, FFTW_ESTIMATE);
    for (ptrdiff_t i = 0; i < total; ++i) {
      serial_in[i][0] = input_value(i, 0);
      serial_in[i][1] = input_value(i, 1);
    }
    fftw_execute(serial);
    double error = 0, norm = 0;
    for (ptrdiff_t i = 0; i < total; ++i) {
      for (int part = 0; part < 2; ++part) {
        error = fmax(error, fabs(whole[i][part] - serial_out[i][part]));
        norm = fmax(norm, fabs(serial_out[i][part]));
      }
    }
    wrong = !(error <= 1e-10 * norm);
    if (wrong) fprintf(stderr, "fftw_transform: error: max error %g (max value %g)\n", error, norm);
    fwrite(whole, sizeof(fftw_complex), (size_t)total, out);
    fftw_destroy_plan(serial);
    fftw_free(serial_in);
    fftw_free(serial_out);
    fftw_free(whole);
  }
  MPI_Bcast(&wrong, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(counts);
  free(displs);
  fftw_destroy_plan(plan);
  fftw_free(in);
  fftw_free(result);
  return wrong;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 3) {
    if (rank == 0) fprintf(stderr, "usage: fftw_transform OUT N0xN1[xN2]...\n");
    MPI_Finalize();
    return 2;
  }
  FILE* out = NULL;
  if (rank == 0 && (out = fopen(argv[1], "wb")) == NULL) {
    fprintf(stderr, "fftw_transform: error: cannot write %s\n", argv[1]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int failed = 0;
  for (int a = 2; a < argc; ++a) {
    ptrdiff_t n[3] = {0, 0, 0};
    const int rank_count = parse_shape(argv[a], n);
    if (rank_count == 0) {
      if (rank == 0) fprintf(stderr, "fftw_transform: error: bad shape '%s'\n", argv[a]);
      failed = 2;
      break;
    }
    failed |= transform(rank_count, n, out, rank, size);
  }
  if (out) fclose(out);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return failed;
}
