// `a2a-mpi bench --fftw` when a2a was configured without FFTW 3 (CMakeLists.txt): one clear error
// instead of the benchmark of fftw_bench.cpp.
#include "algorithms/errors.hpp"
#include "mpi/commands.hpp"

namespace a2a::mpi {

int run_fftw_bench(const BenchOptions&) {
  throw InvalidParameter(
      "--fftw: this a2a-mpi was built without FFTW 3 with MPI (Debian: libfftw3-dev "
      "libfftw3-mpi-dev); install it and configure again");
}

}  // namespace a2a::mpi
