// main() of the fuzz targets when they are not built with libFuzzer (any compiler; ctest): runs
// the target once on every file named, and on every file in every directory named — the seed
// corpus and the regression inputs. Prints how many inputs ran; a finding aborts like under
// libFuzzer.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_target.hpp"

namespace {

int replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "replay: error: %s: cannot read\n", file.c_str());
    return 1;
  }
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int inputs = 0, failures = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.push_back(path);
    }
    for (const auto& file : files) {
      failures += replay(file);
      ++inputs;
    }
  }
  std::printf("replay: %d inputs, no finding\n", inputs);
  if (inputs == 0) {
    std::fprintf(stderr, "replay: error: no input files\n");
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
