// Command-line errors of every a2a tool: one line `PROGRAM: error: ...` and exit code 2, like
// every other bad input (docs/reliability.md) — not CLI11's own exit codes (104..109) and its
// "Run with --help" second line — and numeric ranges that read as numbers.
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace a2a::cli {

// The error line as printed: on one line, and without a huge echoed value (a 100 MB argument
// would otherwise be printed whole): any word longer than kLongWord is cut to its first
// kShownPart characters and "…".
inline std::string error_line(std::string text) {
  constexpr size_t kLongWord = 120, kShownPart = 60;
  for (char& c : text)
    c = c == '\n' || c == '\r' ? ' ' : c;
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const size_t length = end - start;
    out += length > kLongWord ? text.substr(start, kShownPart) + "…" : text.substr(start, length);
    if (end < text.size()) out += ' ';
    start = end + 1;
  }
  return out;
}

// Prints `message` as the one error line of `program`.
inline void print_error(const char* program, const std::string& message) {
  std::fprintf(stderr, "%s: error: %s\n", program, error_line(message).c_str());
}

// Prints `error` and returns the exit code; --help and --version print what was asked, exit 0.
inline int report_parse_error(const CLI::App& app, const CLI::ParseError& error,
                              const char* program) {
  if (error.get_exit_code() == 0) return app.exit(error);
  print_error(program, error.what());
  return 2;
}

// "2", "0.5", "1e+06": a bound as people write it.
inline std::string bound_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// A numeric option's range, checked on the text given: finite (no nan, no inf) and in
// [low, high], with the range in the message ("must be a number >= 0, got 'nan'") rather than
// CLI11's Range, which accepts nan and prints its double bounds with 309 digits.
inline CLI::Validator number_in(double low, double high = std::numeric_limits<double>::infinity()) {
  const std::string wanted =
      std::isinf(high) ? "a number >= " + bound_text(low)
                       : "a number in [" + bound_text(low) + ", " + bound_text(high) + "]";
  return CLI::Validator(
      [low, high, wanted](std::string& input) {
        double value = 0;
        const bool fits = CLI::detail::lexical_cast(input, value) && std::isfinite(value) &&
                          value >= low && value <= high;
        return fits ? std::string() : "must be " + wanted + ", got '" + input + "'";
      },
      wanted);
}

}  // namespace a2a::cli
