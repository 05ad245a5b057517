// How much memory this machine can still give, for every guard that refuses work which would not
// fit (the simulators' memory guard, a2a-mpi's buffers, the viewer's recording).
#pragma once

#include <cstdint>
#include <string>

namespace a2a {

// MemAvailable of a /proc/meminfo text, in bytes; 0 if absent.
std::int64_t available_memory_from(const std::string& meminfo);

// MemAvailable of this machine's /proc/meminfo; 0 when unknown (no check can be made).
std::int64_t available_memory();

}  // namespace a2a
