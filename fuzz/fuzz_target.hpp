// What every fuzz target of fuzz/ shares: the libFuzzer entry point, and the rule it checks.
// The rule: a loader given any bytes either returns a value or throws a2a::Error (which the tools
// print as one clear line). Any other exception, a crash, or a sanitizer report is a finding;
// each one found becomes an input in fuzz/regressions/<target>/ that ctest replays forever.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "algorithms/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace a2a::fuzz {

// Runs `body` on the input as text; a2a::Error is the expected outcome of bad input.
template <typename Body>
int run_on_text(const std::uint8_t* data, std::size_t size, Body body) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    body(text);
  } catch (const a2a::Error&) {
  }
  return 0;
}

}  // namespace a2a::fuzz
