// Work in a child process. SimGrid allows one platform per process, and builds it on first use:
// a simulation of another platform runs in a process of its own, forked from the caller
// (`a2a calibrate` fitting a link's latency or bandwidth: run_in_child; `a2a sweep`'s worker
// processes have their own protocol and share write_all and exit_text).
#pragma once

#include <functional>
#include <string>

namespace a2a::sim {

// Writes all of `text` to `fd`; false if it could not.
bool write_all(int fd, const std::string& text);

// What a child's wait status says when it gave no answer ("... ended by signal 9 (Killed)").
std::string exit_text(int status);

// Runs `work` in a forked child and returns what it returned. The child's exception is thrown
// again here as an Error with its message; a child that dies throws an Error saying how.
std::string run_in_child(const std::function<std::string()>& work);

}  // namespace a2a::sim
