// Same command on every rank; see argument_check.hpp.
#include "mpi/argument_check.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace a2a::mpi {

namespace {

// FNV-1a: a fingerprint of the arguments, so that ranks compare 8 bytes, not whole texts.
std::uint64_t fingerprint(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// Rank `from` sends its arguments to rank 0; returns them on rank 0.
std::string arguments_of(int from, const std::string& mine, int rank) {
  if (from == 0) return mine;
  if (rank == from) {
    MPI_Send(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
  if (rank != 0) return {};
  MPI_Status status;
  MPI_Probe(from, 0, MPI_COMM_WORLD, &status);
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  std::string text(static_cast<size_t>(length), '\0');
  MPI_Recv(text.data(), length, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

// The arguments as a command line shows them: separated by spaces.
std::string readable(std::string arguments) {
  if (!arguments.empty() && arguments.back() == '\0') arguments.pop_back();
  std::replace(arguments.begin(), arguments.end(), '\0', ' ');
  return arguments;
}

}  // namespace

std::string joined_arguments(int argc, char** argv) {
  std::string text;
  for (int i = 1; i < argc; ++i)
    text += std::string(argv[i]) + '\0';
  return text;
}

std::string argument_mismatch(const std::string& arguments) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::uint64_t mine = fingerprint(arguments);
  std::vector<std::uint64_t> all(static_cast<size_t>(ranks));
  MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  int differing = 0, first = -1;
  for (int r = 0; r < ranks; ++r) {
    if (all[static_cast<size_t>(r)] == all[0]) continue;
    ++differing;
    if (first < 0) first = r;
  }
  if (differing == 0) return {};
  const std::string rank0 = readable(arguments_of(0, arguments, rank));
  const std::string other = readable(arguments_of(first, arguments, rank));
  return "the ranks were started with different arguments: rank 0 got '" + rank0 + "', rank " +
         std::to_string(first) + " got '" + other + "' (" + std::to_string(differing) + " of " +
         std::to_string(ranks) +
         " ranks differ from rank 0); start every rank with the same command";
}

}  // namespace a2a::mpi
