// Progress on a standard error that is not a terminal (a log file, a pipe, a batch job): a plain
// line at the first report and then at most one every five seconds, so that a long `a2a run` or
// `a2a sweep` shows it is alive without flooding the log. (On a terminal each command rewrites one
// line in place instead.)
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace a2a::sim {

class ProgressLines {
 public:
  static constexpr std::chrono::seconds kInterval{5};

  // Prints `line` and a newline on stderr when one is due: at the first call, then once the
  // interval has passed since the last line printed.
  void report(const std::string& line) {
    const auto now = std::chrono::steady_clock::now();
    if (printed_ && now - last_ < kInterval) return;
    printed_ = true;
    last_ = now;
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
  }

 private:
  bool printed_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace a2a::sim
