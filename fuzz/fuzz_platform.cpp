// Fuzz target: the platform YAML loader (platforms/platform.cpp), and what `a2a run` asks of a
// platform once loaded (node count, rank capacity, whether P ranks fit).
#include "fuzz/fuzz_target.hpp"
#include "platforms/platform.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return a2a::fuzz::run_on_text(data, size, [](const std::string& text) {
    const a2a::PlatformSpec spec = a2a::parse_platform(text, "fuzz.yaml");
    for (std::int64_t ranks : {std::int64_t{1}, spec.max_ranks(), spec.max_ranks() + 1}) {
      try {
        a2a::check_fits(spec, ranks);
      } catch (const a2a::InvalidParameter&) {
      }
    }
  });
}
