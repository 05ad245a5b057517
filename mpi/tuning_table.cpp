#include "mpi/tuning_table.hpp"

#include <cerrno>
#include <charconv>
#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>

#include "algorithms/errors.hpp"
#include "algorithms/registry.hpp"

namespace a2a::mpi {

const char* collective_name(Collective collective) {
  return collective == Collective::alltoall ? "MPI_Alltoall" : "MPI_Alltoallv";
}

namespace {

// The largest communicator a spec is checked against when a row's ranks are unbounded.
constexpr std::int64_t kLargestRanks = INT_MAX;

std::int64_t parse_number(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty() || value < 0) {
    throw InvalidParameter(what + ": '" + text + "' is not a non-negative integer");
  }
  return value;
}

Range parse_range(const std::string& text, const std::string& what) {
  if (text == "*") return {};
  const std::size_t dash = text.find('-');
  if (dash == std::string::npos) {
    const std::int64_t v = parse_number(text, what);
    return {v, v};
  }
  Range range{parse_number(text.substr(0, dash), what), INT64_MAX};
  const std::string high = text.substr(dash + 1);
  if (high != "*") range.high = parse_number(high, what);
  if (range.high < range.low) {
    throw InvalidParameter(what + ": range '" + text + "' is empty (high below low)");
  }
  return range;
}

std::optional<Collective> parse_collective(const std::string& text) {
  if (text == "alltoall") return Collective::alltoall;
  if (text == "alltoallv") return Collective::alltoallv;
  if (text == "*") return std::nullopt;
  throw InvalidParameter("collective '" + text + "' is not alltoall, alltoallv or *");
}

// Checks the algorithm spec as far as a row allows: the name, the keys and integer values, the
// ranges at the row's largest communicator, and that an alltoallv row does not name a
// uniform-only algorithm.
void check_algorithm(const TuningRow& row) {
  const std::int64_t ranks = std::min(row.ranks.high, kLargestRanks);
  const Configuration config =
      configure(row.algorithm, static_cast<int>(std::max<std::int64_t>(ranks, 1)), 1);
  if (config.algorithm->handles == Handles::uniform_only &&
      row.collective != Collective::alltoall) {
    throw InvalidParameter("algorithm " + config.algorithm->name +
                           " handles only uniform exchanges (MPI_Alltoall); give the row the "
                           "collective alltoall");
  }
}

TuningRow parse_row(const std::string& text, int line) {
  std::istringstream fields(text);
  std::string collective, ranks, block, algorithm, extra;
  fields >> collective >> ranks >> block >> algorithm;
  if (algorithm.empty()) {
    throw InvalidParameter(
        "expected 4 fields: collective ranks block-bytes algorithm, e.g. "
        "'alltoallv 1-64 * parlogna:radix=4'");
  }
  if (fields >> extra) throw InvalidParameter("unexpected 5th field '" + extra + "'");
  TuningRow row;
  row.collective = parse_collective(collective);
  row.ranks = parse_range(ranks, "ranks");
  row.block = parse_range(block, "block-bytes");
  row.algorithm = algorithm;
  row.line = line;
  if (row.ranks.high == 0) throw InvalidParameter("ranks: a communicator has at least 1 rank");
  check_algorithm(row);
  return row;
}

bool same_range(const Range& a, const Range& b) {
  return a.low == b.low && a.high == b.high;
}

// A row with the collective, ranks and block-bytes of an earlier one would never be used (the
// first matching row wins): like a YAML key given twice, it is refused rather than ignored.
void reject_repeated_key(const std::vector<TuningRow>& rows, const TuningRow& row) {
  for (const TuningRow& earlier : rows) {
    if (earlier.collective == row.collective && same_range(earlier.ranks, row.ranks) &&
        same_range(earlier.block, row.block)) {
      throw InputError("the same collective, ranks and block-bytes as line " +
                       std::to_string(earlier.line) +
                       " (the first matching row wins: this one would never be used)");
    }
  }
}

}  // namespace

TuningTable TuningTable::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  TuningTable table;
  table.path_ = path;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text[first] == '#') continue;
    try {
      TuningRow row = parse_row(text, line);
      reject_repeated_key(table.rows_, row);
      table.rows_.push_back(std::move(row));
    } catch (const Error& error) {
      throw InputError(path + ":" + std::to_string(line) + ": " + error.what());
    }
  }
  if (in.bad()) throw InputError(path + ": read error: " + std::strerror(errno));
  if (table.rows_.empty()) {
    throw InputError(path + ":" + std::to_string(line == 0 ? 1 : line) +
                     ": no rows (only comments and blank lines)");
  }
  return table;
}

const TuningRow* TuningTable::find(Collective collective, int ranks,
                                   std::int64_t block_bytes) const {
  for (const TuningRow& row : rows_) {
    if (row.collective && *row.collective != collective) continue;
    if (row.ranks.contains(ranks) && row.block.contains(block_bytes)) return &row;
  }
  return nullptr;
}

bool TuningTable::depends_on_block(Collective collective, int ranks) const {
  for (const TuningRow& row : rows_) {
    if (row.collective && *row.collective != collective) continue;
    if (!row.ranks.contains(ranks)) continue;
    if (!row.block.any()) return true;
    return false;  // a row matching every block size ends the search
  }
  return false;
}

}  // namespace a2a::mpi
