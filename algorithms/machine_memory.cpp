// The machine's available memory; see machine_memory.hpp.
#include "algorithms/machine_memory.hpp"

#include <fstream>
#include <sstream>

namespace a2a {

std::int64_t available_memory_from(const std::string& meminfo) {
  std::istringstream in(meminfo);
  std::string key;
  std::int64_t kib = 0;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::int64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::stringstream text;
  text << in.rdbuf();
  return available_memory_from(text.str());
}

}  // namespace a2a
