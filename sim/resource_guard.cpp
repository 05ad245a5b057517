#include "sim/resource_guard.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "sim/scale/memory_model.hpp"
#include "sim/simgrid/memory_model.hpp"

namespace a2a::sim {

MemoryEstimate estimate_memory(const std::string& engine, const RunShape& run) {
  if (engine == "simgrid") return estimate_simgrid_memory(run);
  if (engine == "scale") return estimate_scale_memory(run);
  return {0, "engine " + engine + " has no memory model"};
}

std::int64_t parse_memory_size(const std::string& text, const std::string& option) {
  const auto fail = [&]() -> std::int64_t {
    throw InvalidParameter(option + " '" + text +
                           "': expected a size such as 8G, 512M, 1.5GiB or a byte count");
  };
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end == first || !std::isfinite(value) || value <= 0) return fail();
  std::string unit(end, last);
  for (char& c : unit)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && (unit.ends_with("IB") || unit.ends_with("B")) && unit != "B") {
    unit.erase(unit.size() - (unit.ends_with("IB") ? 2 : 1));
  }
  const std::string units = "BKMGT";
  double scale = 1;
  if (!unit.empty()) {
    const auto at = units.find(unit);
    if (unit.size() != 1 || at == std::string::npos) return fail();
    scale = std::pow(1024.0, static_cast<double>(at));
  }
  const double bytes = value * scale;
  if (bytes < 1 || bytes > 9e18) return fail();
  return static_cast<std::int64_t>(bytes);
}

MemoryLimit memory_limit(const std::string& max_memory) {
  if (!max_memory.empty()) {
    return {parse_memory_size(max_memory, "--max-memory"), "--max-memory " + max_memory};
  }
  return {available_memory(), "available memory; see --max-memory"};
}

void check_memory(const MemoryEstimate& estimate, const MemoryLimit& limit,
                  const std::string& engine) {
  if (limit.bytes <= 0 || estimate.bytes <= limit.bytes) return;
  throw InputError("the " + engine + " simulation needs about " + human_bytes(estimate.bytes) +
                   " (" + estimate.what + ") but the limit is " + human_bytes(limit.bytes) + " (" +
                   limit.source + ")");
}

}  // namespace a2a::sim
