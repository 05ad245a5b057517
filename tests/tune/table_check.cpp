// Reads a tuning table written by `a2a tune --table` with the reader the interposer and the C API
// use (a2a::mpi::TuningTable) and checks which row it finds for given calls.
// Usage: a2a_tune_table_check TABLE COLLECTIVE:RANKS:BLOCK=SPEC...   (SPEC "none": no row, vendor)
// Exit 0 when the table loads and every lookup finds the expected spec; else one line per miss.
#include <cstdio>
#include <string>

#include "algorithms/errors.hpp"
#include "mpi/tuning_table.hpp"

namespace {

using a2a::mpi::Collective;

// "alltoallv:16:2048=parlogna:radix=4" -> the lookup and the expected spec.
struct Expectation {
  Collective collective = Collective::alltoallv;
  int ranks = 0;
  std::int64_t block = 0;
  std::string spec;
};

Expectation parse(const std::string& text) {
  const size_t first = text.find(':'), second = text.find(':', first + 1);
  const size_t equals = text.find('=', second + 1);
  if (first == std::string::npos || second == std::string::npos || equals == std::string::npos) {
    throw a2a::InputError("expectation '" + text + "' is not COLLECTIVE:RANKS:BLOCK=SPEC");
  }
  Expectation out;
  const std::string collective = text.substr(0, first);
  if (collective != "alltoall" && collective != "alltoallv") {
    throw a2a::InputError("expectation '" + text + "': collective is alltoall or alltoallv");
  }
  out.collective = collective == "alltoall" ? Collective::alltoall : Collective::alltoallv;
  out.ranks = std::stoi(text.substr(first + 1, second - first - 1));
  out.block = std::stoll(text.substr(second + 1, equals - second - 1));
  out.spec = text.substr(equals + 1);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TABLE COLLECTIVE:RANKS:BLOCK=SPEC...\n", argv[0]);
    return 2;
  }
  try {
    const a2a::mpi::TuningTable table = a2a::mpi::TuningTable::read(argv[1]);
    int misses = 0;
    for (int i = 2; i < argc; ++i) {
      const Expectation expected = parse(argv[i]);
      const a2a::mpi::TuningRow* row =
          table.find(expected.collective, expected.ranks, expected.block);
      const std::string found = row ? row->algorithm : "none";
      const bool ok = found == expected.spec;
      std::printf("%s %s: found %s\n", ok ? "ok  " : "MISS", argv[i], found.c_str());
      misses += ok ? 0 : 1;
    }
    return misses == 0 ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 2;
  }
}
