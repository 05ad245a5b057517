#include "mpi/recording.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "algorithms/errors.hpp"
#include "algorithms/text_table.hpp"
#include "mpi/comm_contexts.hpp"
#include "mpi/log.hpp"

namespace a2a::mpi {

namespace {

// "libfftw3_mpi.so.3+0x1c2a0": the same on every rank and run (addresses are not, under ASLR).
std::string call_site(const void* caller) {
  Dl_info info{};
  if (caller == nullptr || dladdr(caller, &info) == 0 || info.dli_fname == nullptr) {
    return "unknown";
  }
  std::string object = info.dli_fname;
  object = object.substr(object.find_last_of('/') + 1);
  if (object.empty()) object = "program";
  for (char& c : object) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  }
  const auto offset = static_cast<unsigned long long>(static_cast<const char*>(caller) -
                                                      static_cast<const char*>(info.dli_fbase));
  char text[32];
  std::snprintf(text, sizeof text, "+0x%llx", offset);
  return object + text;
}

// This rank's row: bytes it sends to each rank.
std::vector<std::int64_t> send_row(const AlltoallCall& call) {
  const bool in_place = call.sendbuf == MPI_IN_PLACE;
  const std::vector<std::int64_t>& counts = in_place ? call.recvcounts : call.sendcounts;
  MPI_Count size = 0;
  PMPI_Type_size_x(in_place ? call.recvtype : call.sendtype, &size);
  std::vector<std::int64_t> row(counts.size());
  for (std::size_t i = 0; i < row.size(); ++i)
    row[i] = counts[i] * static_cast<std::int64_t>(size);
  return row;
}

}  // namespace

Recorder::Recorder(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) throw InvalidParameter("A2A_RECORD: empty directory name");
  if (::mkdir(dir_.c_str(), 0777) != 0 && errno != EEXIST) {
    throw InvalidParameter("A2A_RECORD=" + dir_ + ": cannot create: " + std::strerror(errno));
  }
  struct stat status {};
  if (::stat(dir_.c_str(), &status) != 0 || !S_ISDIR(status.st_mode) ||
      ::access(dir_.c_str(), W_OK) != 0) {
    throw InvalidParameter("A2A_RECORD=" + dir_ + ": not a writable directory");
  }
}

void Recorder::record(const AlltoallCall& call, const void* caller) {
  int inter = 0;
  PMPI_Comm_test_inter(call.comm, &inter);
  if (inter) {
    log(LogLevel::info, "A2A_RECORD: an inter-communicator exchange is not recorded");
    return;
  }
  const Context& context = context_for(call.comm);
  const int P = context.size();
  const std::vector<std::int64_t> row = send_row(call);
  std::vector<std::int64_t> matrix(context.rank() == 0 ? static_cast<std::size_t>(P) * P : 0);
  PMPI_Gather(row.data(), P, MPI_INT64_T, matrix.data(), P, MPI_INT64_T, 0, context.comm());
  if (context.rank() != 0) return;
  const std::string where = call_site(caller);
  const std::string collective = call.collective == Collective::alltoall ? "alltoall" : "alltoallv";
  std::lock_guard<std::mutex> guard(mutex_);
  Site& site = sites_[collective + "-" + where + "-P" + std::to_string(P)];
  site.collective = collective_name(call.collective);
  site.where = where;
  site.ranks = P;
  add(site, std::move(matrix));
}

void Recorder::add(Site& site, std::vector<std::int64_t> matrix) {
  for (Pattern& pattern : site.patterns) {
    if (pattern.matrix == matrix) {
      ++pattern.calls;
      return;
    }
  }
  if (static_cast<int>(site.patterns.size()) >= kMaxPatterns) {
    if (site.unrecorded++ == 0) {
      log(LogLevel::warn, "A2A_RECORD: " + site.where + " has more than " +
                              std::to_string(kMaxPatterns) +
                              " distinct count matrices; further ones are counted, not written");
    }
    return;
  }
  int world_rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const std::string prefix = site.collective == "MPI_Alltoall" ? "alltoall" : "alltoallv";
  std::string name = prefix + "-" + site.where + "-P" + std::to_string(site.ranks);
  // Several communicators of one size may call from one site (rows of a process grid): their
  // rank 0s are different processes, so the writer's world rank keeps their names apart.
  if (world_rank != 0) name += "-w" + std::to_string(world_rank);
  name += "-" + std::to_string(site.patterns.size() + 1) + ".csv";
  site.patterns.push_back({std::move(matrix), 1, dir_ + "/" + name});
  try {
    write(site, site.patterns.back(), static_cast<int>(site.patterns.size()));
  } catch (const Error& error) {
    log(LogLevel::warn, std::string("A2A_RECORD: ") + error.what());
  }
}

void Recorder::write(const Site& site, const Pattern& pattern, int number) const {
  std::ostringstream out;
  const std::string file = pattern.path.substr(pattern.path.find_last_of('/') + 1);
  out << "# a2a recording: " << site.collective << " at " << site.where << ", P=" << site.ranks
      << ", pattern " << number << " of this call site\n"
      << "# calls with exactly this matrix: " << pattern.calls << "\n"
      << "# row = sender rank, column = receiver rank, bytes. Replay in simulation:\n"
      << "#   a2a run --set ranks=" << site.ranks << " --set workload=matrix:file=" << file
      << ",elem=1\n";
  const auto P = static_cast<std::size_t>(site.ranks);
  for (std::size_t s = 0; s < P; ++s) {
    for (std::size_t d = 0; d < P; ++d)
      out << (d ? "," : "") << pattern.matrix[s * P + d];
    out << "\n";
  }
  write_output(pattern.path, out.str());
}

void Recorder::finish() {
  std::lock_guard<std::mutex> guard(mutex_);
  for (const auto& [key, site] : sites_) {
    long long calls = 0;
    for (std::size_t i = 0; i < site.patterns.size(); ++i) {
      calls += site.patterns[i].calls;
      if (site.patterns[i].calls > 1) {
        try {
          write(site, site.patterns[i], static_cast<int>(i + 1));
        } catch (const Error& error) {
          log(LogLevel::warn, std::string("A2A_RECORD: ") + error.what());
        }
      }
    }
    log(LogLevel::info, "A2A_RECORD: " + site.collective + " at " + site.where +
                            ", P=" + std::to_string(site.ranks) + ": " + std::to_string(calls) +
                            " calls, " + std::to_string(site.patterns.size()) +
                            " distinct matrices written to " + dir_ +
                            (site.unrecorded ? ", " + std::to_string(site.unrecorded) +
                                                   " calls with further matrices not written"
                                             : ""));
  }
}

}  // namespace a2a::mpi
