#include "mpi/call_ledger.hpp"

#include <map>
#include <mutex>
#include <set>

#include "mpi/comm_contexts.hpp"
#include "mpi/log.hpp"

namespace a2a::mpi {

namespace {

struct Ledger {
  std::mutex mutex;
  std::map<std::string, std::map<std::string, long long>> runs;  // collective -> label -> calls
  std::set<std::string> reasons_logged;
  long long fallbacks = 0;
  bool hook_installed = false;
};

Ledger& ledger() {
  static Ledger instance;
  return instance;
}

void print_summary() {
  Ledger& l = ledger();
  std::lock_guard<std::mutex> guard(l.mutex);
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (const auto& [collective, labels] : l.runs) {
    long long total = 0;
    std::string parts;
    for (const auto& [label, calls] : labels) {
      total += calls;
      parts += (parts.empty() ? "" : ", ") + std::to_string(calls) + " " + label;
    }
    log(LogLevel::info, "rank " + std::to_string(rank) + ": " + collective + ": " +
                            std::to_string(total) + " calls: " + parts);
  }
}

void count(const std::string& call, const std::string& label) {
  Ledger& l = ledger();
  bool install = false;
  {
    std::lock_guard<std::mutex> guard(l.mutex);
    ++l.runs[call][label];
    install = !l.hook_installed;
    l.hook_installed = true;
  }
  if (install) at_finalize(print_summary);
}

}  // namespace

void note_run(const std::string& call, const std::string& label) {
  count(call, label);
}

void note_fallback(const std::string& call, const std::string& reason, MPI_Comm comm) {
  count(call, "vendor (fallback)");
  {
    std::lock_guard<std::mutex> guard(ledger().mutex);
    ++ledger().fallbacks;
  }
  if (!log_enabled(LogLevel::info)) return;
  const std::string text = call + ": " + reason;
  {
    std::lock_guard<std::mutex> guard(ledger().mutex);
    if (!ledger().reasons_logged.insert(text).second) return;
  }
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  if (rank == 0) log(LogLevel::info, text + "; using the vendor's call");
}

long long fallback_count() {
  std::lock_guard<std::mutex> guard(ledger().mutex);
  return ledger().fallbacks;
}

}  // namespace a2a::mpi
