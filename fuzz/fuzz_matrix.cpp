// Fuzz target: the workload matrix reader (workloads/matrix.cpp), which only reads files. The
// first input byte picks P (1..16) and the unit option, the rest is written to a scratch file
// that `matrix:file=` reads; a matrix that loads is then queried in full.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz/fuzz_target.hpp"
#include "workloads/workload.hpp"

namespace {

// In memory when the machine has /dev/shm: ten times the inputs per second of a disk-backed /tmp.
const std::string& scratch_file() {
  static const std::filesystem::path directory = std::filesystem::is_directory("/dev/shm")
                                                     ? std::filesystem::path("/dev/shm")
                                                     : std::filesystem::temp_directory_path();
  static const std::string path =
      (directory / ("a2a-fuzz-matrix-" + std::to_string(getpid()) + ".csv")).string();
  static const bool cleanup = std::atexit([] { std::remove(scratch_file().c_str()); }) == 0;
  (void)cleanup;
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int ranks = 1 + data[0] % 16;
  const char* unit = data[0] & 0x10 ? "elements" : "bytes";
  return a2a::fuzz::run_on_text(data + 1, size - 1, [&](const std::string& text) {
    {
      std::ofstream out(scratch_file(), std::ios::binary | std::ios::trunc);
      out << text;
    }
    const auto workload =
        a2a::make_workload("matrix:file=" + scratch_file() + ",unit=" + unit + ",elem=4", ranks);
    std::int64_t total = 0;
    for (int src = 0; src < ranks; ++src)
      for (int dst = 0; dst < ranks; ++dst)
        total += workload->count(src, dst);
    if (total < 0 || (workload->uniform() && workload->count(0, 0) * ranks * ranks != total)) {
      std::abort();  // counts are non-negative; a uniform matrix is count(0,0) everywhere
    }
  });
}
