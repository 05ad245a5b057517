// Logging of the a2a MPI library (C API and LD_PRELOAD interposer): one line per message on
// stderr, "a2a: LEVEL: text", filtered by the A2A_LOG environment variable
// (error | warn | info | debug; default warn). The library runs inside other people's programs, so
// it stays silent unless asked, except for errors that end the job. Each line goes out in one
// write(2) of the whole line, bypassing stdio: it never splits around the application's own output
// on a shared terminal or pipe (a pipe keeps writes up to PIPE_BUF = 4096 bytes whole).
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

namespace a2a::mpi {

enum class LogLevel { error = 0, warn = 1, info = 2, debug = 3 };

// Parses an A2A_LOG value; empty optional for an unknown word.
std::optional<LogLevel> parse_log_level(const std::string& text);

// The level in force: A2A_LOG read once (an unknown value counts as warn here; the interposer
// reports it as a bad setting at MPI_Init).
LogLevel log_level();
bool log_enabled(LogLevel level);

// Prints "a2a: LEVEL: text" if the level is enabled.
void log(LogLevel level, const std::string& text);

// Writes `line` plus a newline to stderr in one write(2) (retried only for what a signal or a full
// pipe left unwritten).
void write_line(const std::string& line);

// An error the library cannot recover from inside a collective (peers may be blocked): prints
// "a2a: error: rank R: text" and aborts the job through MPI_Abort on `comm`.
[[noreturn]] void fatal(MPI_Comm comm, const std::string& text);

}  // namespace a2a::mpi
