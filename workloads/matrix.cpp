// matrix: a recorded exchange read from a file, row = sender, column = receiver. For replaying
// real patterns (e.g. the matrices in the repositories of Fan et al., HPDC 2025) at modest P:
// unlike every other family it stores the P x P matrix (P^2 int64), so it is the one exception to
// "no run needs the matrix" (docs/design.md, "Workloads").
//
// The format is detected from the first matrix line:
// - CSV: P lines of P comma-separated non-negative integers (a line containing a comma);
// - the authors' text format: P lines of P whitespace-separated non-negative integers.
// Lines starting with '#' (a header) and blank lines are skipped in both; a trailing '\r' (CRLF
// files) is ignored. The first line's value count is the file's P; it must equal the run's P
// (InvalidParameter), and every later problem is an InputError "FILE:LINE: what".
//
// Options: unit=bytes (entries are bytes, floored to whole elements of elem bytes, like every
// other family's sizes) or unit=elements (entries are element counts); elem=BYTES (8). An entry
// may not exceed kMaxBytes (1 TiB) once in bytes.
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <system_error>

#include "algorithms/errors.hpp"
#include "workloads/workload_family.hpp"

namespace a2a::workload_detail {

namespace {

// Row-major P x P element counts.
using Counts = std::vector<std::int64_t>;

class Matrix final : public FlaggedWorkload {
 public:
  Matrix(int ranks, std::int64_t elem, std::string spec, Counts counts)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags(ranks, counts)),
        counts_(std::move(counts)) {}
  std::int64_t count(int src, int dst) const override {
    return counts_[static_cast<std::size_t>(src) * static_cast<std::size_t>(ranks()) +
                   static_cast<std::size_t>(dst)];
  }

 private:
  // Exact, from the whole matrix: uniform when every count equals the first; balanced when every
  // row total and every column total are the same (the grand total makes them equal to each other).
  static Flags flags(int ranks, const Counts& counts) {
    const auto P = static_cast<std::size_t>(ranks);
    bool uniform = true;
    std::vector<std::int64_t> sent(P, 0), received(P, 0);
    for (std::size_t s = 0; s < P; ++s) {
      for (std::size_t d = 0; d < P; ++d) {
        const std::int64_t c = counts[s * P + d];
        uniform = uniform && c == counts[0];
        sent[s] += c;
        received[d] += c;
      }
    }
    bool balanced = true;
    for (std::size_t r = 0; r < P; ++r)
      balanced = balanced && sent[r] == sent[0] && received[r] == sent[0];
    return {.uniform = uniform, .balanced = balanced};
  }

  Counts counts_;
};

// Reads the file line by line, reporting "FILE:LINE: what" for every malformed line.
class MatrixReader {
 public:
  MatrixReader(std::string file, int ranks, bool in_bytes, std::int64_t elem)
      : file_(std::move(file)), ranks_(ranks), in_bytes_(in_bytes), elem_(elem) {}

  Counts read() {
    std::ifstream in(file_);
    if (!in) throw InputError(file_ + ": cannot open: " + std::strerror(errno));
    std::string text;
    while (std::getline(in, text)) {
      ++line_;
      if (!text.empty() && text.back() == '\r') text.pop_back();
      const std::size_t first = text.find_first_not_of(" \t");
      if (first == std::string::npos || text[first] == '#') continue;
      if (rows_ == 0) csv_ = text.find(',') != std::string::npos;
      add_row(text);
    }
    if (in.bad() || !in.eof()) fail("read error: " + std::string(std::strerror(errno)));
    if (rows_ == 0) fail("no matrix rows (only comments and blank lines)");
    if (rows_ < ranks_) {
      fail(std::to_string(rows_) + " rows, expected " + std::to_string(ranks_) +
           " (a P x P matrix: one row per rank)");
    }
    return std::move(counts_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_ + ":" + std::to_string(line_ == 0 ? 1 : line_) + ": " + what);
  }

  // Splits on commas (CSV, fields trimmed) or on runs of blanks (text format).
  std::vector<std::string> fields(const std::string& text) const {
    std::vector<std::string> out;
    if (csv_) {
      std::size_t start = 0;
      while (true) {
        const std::size_t comma = text.find(',', start);
        std::string item = text.substr(start, comma - start);
        const std::size_t lo = item.find_first_not_of(" \t");
        const std::size_t hi = item.find_last_not_of(" \t");
        out.push_back(lo == std::string::npos ? "" : item.substr(lo, hi - lo + 1));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    } else {
      std::size_t at = text.find_first_not_of(" \t");
      while (at != std::string::npos) {
        const std::size_t end = text.find_first_of(" \t", at);
        out.push_back(text.substr(at, end - at));
        at = end == std::string::npos ? end : text.find_first_not_of(" \t", end);
      }
    }
    return out;
  }

  void add_row(const std::string& text) {
    const std::vector<std::string> values = fields(text);
    const auto n = static_cast<std::int64_t>(values.size());
    if (rows_ == 0) {
      // The first row gives the file's P: compare it with the run's before storing anything.
      if (n != ranks_) {
        throw InvalidParameter("workload matrix: " + file_ + " has " + std::to_string(n) +
                               " ranks, the run has " + std::to_string(ranks_));
      }
      counts_.reserve(static_cast<std::size_t>(ranks_) * static_cast<std::size_t>(ranks_));
    } else if (n != ranks_) {
      fail(std::to_string(n) + " values, expected " + std::to_string(ranks_) + " (as on row 1)");
    }
    if (rows_ == ranks_) {
      fail("row " + std::to_string(rows_ + 1) + ", but the matrix has " + std::to_string(ranks_) +
           " columns (a P x P matrix: one row per rank)");
    }
    for (std::int64_t column = 1; column <= n; ++column)
      counts_.push_back(entry(values[static_cast<std::size_t>(column - 1)], column));
    ++rows_;
  }

  // One entry as an element count.
  std::int64_t entry(const std::string& value, std::int64_t column) const {
    const std::string where = "column " + std::to_string(column) + ": ";
    std::int64_t number = 0;
    const char* end = value.data() + value.size();
    auto [ptr, ec] = std::from_chars(value.data(), end, number);
    if (ec == std::errc::result_out_of_range) fail(where + value + " is out of range");
    if (ec != std::errc() || ptr != end || value.empty()) {
      fail(where + "'" + value + "' is not an integer");
    }
    if (number < 0) fail(where + "negative count " + value);
    const std::int64_t largest = in_bytes_ ? kMaxBytes : kMaxBytes / elem_;
    if (number > largest) {
      fail(where + value + " exceeds the largest block (" + std::to_string(kMaxBytes) + " bytes)");
    }
    return in_bytes_ ? number / elem_ : number;
  }

  std::string file_;
  int ranks_;
  bool in_bytes_;
  std::int64_t elem_;
  bool csv_ = false;
  std::int64_t line_ = 0;
  int rows_ = 0;
  Counts counts_;
};

std::unique_ptr<Workload> make_matrix(OptionReader& options, int ranks) {
  const std::string file = options.text("file", "");
  if (file.empty()) options.fail("option file=PATH is required");
  const bool in_bytes = options.choice("unit", "bytes", {"bytes", "elements"}) == "bytes";
  const std::int64_t elem = options.elem();
  std::string spec = options.finish();
  Counts counts = MatrixReader(file, ranks, in_bytes, elem).read();
  return std::make_unique<Matrix>(ranks, elem, std::move(spec), std::move(counts));
}

}  // namespace

std::vector<WorkloadFamily> matrix_families() {
  return {
      {{.name = "matrix",
        .options = "file=PATH (required), unit=bytes|elements (bytes), elem=BYTES (8)",
        .description = "a recorded P x P matrix (row = sender, column = receiver) from a CSV or "
                       "whitespace-separated file; stores P^2 int64, for real patterns at modest P",
        .source = "recordings; authors' matrix format of Fan et al., HPDC 2025"},
       make_matrix},
  };
}

}  // namespace a2a::workload_detail
