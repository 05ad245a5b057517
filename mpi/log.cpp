#include "mpi/log.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace a2a::mpi {

namespace {

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::error:
      return "error";
    case LogLevel::warn:
      return "warn";
    case LogLevel::info:
      return "info";
    case LogLevel::debug:
      return "debug";
  }
  return "?";
}

}  // namespace

std::optional<LogLevel> parse_log_level(const std::string& text) {
  for (LogLevel level : {LogLevel::error, LogLevel::warn, LogLevel::info, LogLevel::debug}) {
    if (text == level_name(level)) return level;
  }
  return std::nullopt;
}

LogLevel log_level() {
  static const LogLevel level = [] {
    const char* text = std::getenv("A2A_LOG");
    if (text == nullptr || *text == '\0') return LogLevel::warn;
    return parse_log_level(text).value_or(LogLevel::warn);
  }();
  return level;
}

bool log_enabled(LogLevel level) {
  return static_cast<int>(level) <= static_cast<int>(log_level());
}

void write_line(const std::string& line) {
  const std::string whole = line + "\n";
  const char* at = whole.data();
  std::size_t left = whole.size();
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, at, left);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // stderr closed: nowhere to report
    at += written;
    left -= static_cast<std::size_t>(written);
  }
}

void log(LogLevel level, const std::string& text) {
  if (!log_enabled(level)) return;
  write_line(std::string("a2a: ") + level_name(level) + ": " + text);
}

void fatal(MPI_Comm comm, const std::string& text) {
  int rank = -1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  write_line("a2a: error: rank " + std::to_string(rank) + ": " + text);
  PMPI_Abort(comm, 1);
  std::abort();  // PMPI_Abort does not return
}

}  // namespace a2a::mpi
