// a2a-mpi bench --fftw SHAPE: a real application's all-to-alls timed with each algorithm against
// the vendor's. FFTW 3's distributed complex DFT (fftw3-mpi; FFTW_ESTIMATE | FFTW_DESTROY_INPUT,
// which makes FFTW's transposes call MPI_Alltoallv — MPI_Alltoall when the blocks are equal) runs
// inside a2a-mpi, and this file defines MPI_Alltoallv and MPI_Alltoall for the process: FFTW's
// calls resolve to them (an executable's symbols come before libmpi's), and they run the
// configuration being measured through the same code as liba2a_pmpi.so (run_call), or pass
// straight to the library (PMPI_*) when none is set — the rest of a2a-mpi never calls them.
//
// Per shape and configuration: warm-up executions, then timed ones (input refilled outside the
// timer, a barrier, fftw_execute; time = the slowest rank's); the last result is compared byte for
// byte with the vendor run's (`check`); `fallback` says calls went to the vendor instead (the
// algorithm does not apply to FFTW's exchange).
#include <fftw3-mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "mpi/alltoall_call.hpp"
#include "mpi/call_ledger.hpp"
#include "mpi/commands.hpp"

namespace {

// The configuration FFTW's all-to-alls run with; null: the library's own calls.
const a2a::mpi::AlgorithmChoice* current = nullptr;
long long intercepted = 0;

}  // namespace

extern "C" int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  auto vendor = [&] {
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  };
  ++intercepted;
  if (current == nullptr) return vendor();
  return a2a::mpi::run_call(a2a::mpi::alltoallv_call(sendbuf, sendcounts, sdispls, sendtype,
                                                     recvbuf, recvcounts, rdispls, recvtype, comm),
                            *current, vendor);
}

extern "C" int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  auto vendor = [&] {
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  };
  ++intercepted;
  if (current == nullptr) return vendor();
  return a2a::mpi::run_call(
      a2a::mpi::alltoall_call(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm),
      *current, vendor);
}

namespace a2a::mpi {

namespace {

std::vector<ptrdiff_t> parse_shape(const std::string& text) {
  std::vector<ptrdiff_t> n;
  std::stringstream items(text);
  std::string item;
  bool ok = true;
  while (std::getline(items, item, 'x')) {
    char* end = nullptr;
    const long value = std::strtol(item.c_str(), &end, 10);
    ok = ok && !item.empty() && *end == '\0' && value >= 1 && value <= (1L << 20);
    n.push_back(value);
  }
  if (!ok || n.size() < 2 || n.size() > 3) {
    throw InvalidParameter("--fftw: shape '" + text +
                           "' is not N0xN1 or N0xN1xN2 (sizes 1 to 1048576)");
  }
  return n;
}

// One shape's plan and buffers; execute() refills the (destroyed) input first.
class Transform {
 public:
  Transform(const std::vector<ptrdiff_t>& n, MPI_Comm comm) {
    const ptrdiff_t alloc =
        fftw_mpi_local_size(static_cast<int>(n.size()), n.data(), comm, &local_n0_, &start_);
    row_ = 1;
    for (std::size_t d = 1; d < n.size(); ++d)
      row_ *= n[d];
    in_ = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
    out_ = fftw_alloc_complex(static_cast<std::size_t>(std::max<ptrdiff_t>(alloc, 1)));
    plan_ = fftw_mpi_plan_dft(static_cast<int>(n.size()), n.data(), in_, out_, comm, FFTW_FORWARD,
                              FFTW_ESTIMATE | FFTW_DESTROY_INPUT);
  }
  ~Transform() {
    fftw_destroy_plan(plan_);
    fftw_free(in_);
    fftw_free(out_);
  }
  Transform(const Transform&) = delete;
  Transform& operator=(const Transform&) = delete;

  void fill() {
    for (ptrdiff_t i = 0; i < local_n0_ * row_; ++i) {
      const double x = static_cast<double>(start_ * row_ + i);
      in_[i][0] = std::sin(0.37 * x);
      in_[i][1] = std::cos(0.11 * x);
    }
  }
  void execute() { fftw_execute(plan_); }
  std::vector<unsigned char> result() const {
    const auto* bytes = reinterpret_cast<const unsigned char*>(out_);
    return {bytes, bytes + local_n0_ * row_ * static_cast<ptrdiff_t>(sizeof(fftw_complex))};
  }

 private:
  ptrdiff_t local_n0_ = 0, start_ = 0, row_ = 1;
  fftw_complex* in_ = nullptr;
  fftw_complex* out_ = nullptr;
  fftw_plan plan_ = nullptr;
};

std::string micros(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds * 1e6);
  return text;
}

}  // namespace

int run_fftw_bench(const BenchOptions& options) {
  Context context(MPI_COMM_WORLD, options.common.node_size);
  const bool root = context.rank() == 0;
  if (output_unwritable(context, options.common.csv_path, "a2a-mpi bench")) return 2;
  std::vector<std::vector<ptrdiff_t>> shapes;
  std::vector<Configuration> configs;
  std::string problem;
  try {
    for (const std::string& text : options.fftw)
      shapes.push_back(parse_shape(text));
    configs.push_back(configure("vendor", context.size(), context.ranks_per_node()));
    for (const std::string& name : options.common.selection.algorithms) {
      for (const AlgorithmInfo& info : catalog()) {
        if ((name != "all" && info.name != name) || info.family == Family::vendor) continue;
        if (name == "all" && info.handles == Handles::uniform_only) continue;
        for (Configuration& config : expand(info, options.common.selection.params, context.size(),
                                            context.ranks_per_node()))
          configs.push_back(std::move(config));
      }
      if (name != "all") find_algorithm(name);  // an unknown name is an error
    }
  } catch (const Error& error) {
    problem = error.what();
  }
  if (setup_failed(context, problem, "a2a-mpi bench")) return 2;
  fftw_mpi_init();
  TextTable table({"transform", "all-to-alls/exec", "algorithm", "min us", "median us", "max us",
                   "median/vendor", "check"});
  int failures = 0;
  for (const auto& n : shapes) {
    std::string shape_text;
    for (ptrdiff_t v : n)
      shape_text += (shape_text.empty() ? "" : "x") + std::to_string(v);
    Transform transform(n, context.comm());
    std::vector<unsigned char> vendor_result;
    double vendor_median = 0;
    for (const Configuration& config : configs) {
      const AlgorithmChoice choice = AlgorithmChoice::fixed(config.spec());
      current = config.algorithm->family == Family::vendor ? nullptr : &choice;
      const long long fallbacks_before = fallback_count();
      std::vector<double> samples;
      long long calls = 0;
      for (int i = 0; i < options.warmup + options.iterations; ++i) {
        transform.fill();
        MPI_Barrier(context.comm());
        const long long before = intercepted;
        const double start = MPI_Wtime();
        transform.execute();
        double elapsed = MPI_Wtime() - start;
        calls = intercepted - before;
        MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, context.comm());
        if (i >= options.warmup) samples.push_back(elapsed);
      }
      current = nullptr;
      const std::vector<unsigned char> result = transform.result();
      if (config.algorithm->family == Family::vendor) vendor_result = result;
      int wrong = result == vendor_result ? 0 : 1;
      MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_MAX, context.comm());
      failures += wrong;
      const bool fell_back = fallback_count() != fallbacks_before;
      std::sort(samples.begin(), samples.end());
      const double median = samples[samples.size() / 2];
      if (config.algorithm->family == Family::vendor) vendor_median = median;
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.2f", median / vendor_median);
      table.add({shape_text, std::to_string(calls), config.label(), micros(samples.front()),
                 micros(median), micros(samples.back()), fell_back ? "-" : ratio,
                 wrong ? "FAIL" : (fell_back ? "ok (vendor fallback)" : "ok")});
    }
  }
  if (root) {
    std::cout << "# a2a-mpi bench --fftw: FFTW " << fftw_version
              << " complex DFTs, P=" << context.size() << ", iterations=" << options.iterations
              << " (after " << options.warmup
              << " warm-up), time = slowest rank per execution, microseconds\n";
    table.print(std::cout);
    if (!options.common.csv_path.empty()) table.write_csv(options.common.csv_path);
  }
  fftw_mpi_cleanup();
  return failures == 0 ? 0 : 1;
}

}  // namespace a2a::mpi
