#include "mpi/interposer_settings.hpp"

#include <cstdlib>
#include <cstring>
#include <vector>

#include "algorithms/errors.hpp"
#include "mpi/comm_contexts.hpp"
#include "mpi/log.hpp"

extern char** environ;

namespace a2a::mpi {

namespace {

const char* const kKnown[] = {"A2A_ALLTOALLV", "A2A_ALLTOALL", "A2A_TUNING",
                              "A2A_RECORD",    "A2A_LOG",      "A2A_POOL_MAX"};

std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

void check_names() {
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string item = *entry;
    if (item.rfind("A2A_", 0) != 0) continue;
    const std::string name = item.substr(0, item.find('='));
    bool known = false;
    for (const char* k : kKnown)
      known = known || name == k;
    if (!known) {
      throw InvalidParameter("unknown variable " + name +
                             " (known: A2A_ALLTOALLV, A2A_ALLTOALL, A2A_TUNING, A2A_RECORD, "
                             "A2A_LOG, A2A_POOL_MAX)");
    }
  }
}

// One collective's choice: a spec, auto (the table), or unset (the table if given, else none).
std::optional<AlgorithmChoice> read_choice(const char* name, const std::string& value,
                                           const std::optional<AlgorithmChoice>& table) {
  if (value.empty()) return table;
  if (value == "auto") {
    if (!table) throw InvalidParameter(std::string(name) + "=auto needs A2A_TUNING=FILE");
    return table;
  }
  try {
    AlgorithmChoice choice = AlgorithmChoice::fixed(value);
    if (value == "vendor") return std::nullopt;
    return choice;
  } catch (const Error& error) {
    throw InvalidParameter(std::string(name) + "=" + value + ": " + error.what());
  }
}

}  // namespace

InterposerSettings read_settings() {
  check_names();
  const std::string level = variable("A2A_LOG");
  if (!level.empty() && !parse_log_level(level)) {
    throw InvalidParameter("A2A_LOG=" + level + ": expected error, warn, info or debug");
  }
  pool_cap_setting();  // throws for a malformed A2A_POOL_MAX
  std::optional<AlgorithmChoice> table;
  const std::string tuning = variable("A2A_TUNING");
  if (std::getenv("A2A_TUNING") != nullptr) {
    if (tuning.empty()) throw InvalidParameter("A2A_TUNING is set but empty (expected FILE)");
    try {
      table = AlgorithmChoice::tuned(tuning);
    } catch (const Error& error) {
      throw InvalidParameter(std::string("A2A_TUNING: ") + error.what());
    }
  }
  InterposerSettings settings;
  settings.alltoallv_text = variable("A2A_ALLTOALLV");
  settings.alltoall_text = variable("A2A_ALLTOALL");
  settings.alltoallv = read_choice("A2A_ALLTOALLV", settings.alltoallv_text, table);
  settings.alltoall = read_choice("A2A_ALLTOALL", settings.alltoall_text, table);
  if (std::getenv("A2A_RECORD") != nullptr) {
    settings.recorder = std::make_unique<Recorder>(variable("A2A_RECORD"));
  }
  return settings;
}

std::vector<std::string> check_for_world(const InterposerSettings& settings, int ranks,
                                         int ranks_per_node) {
  std::vector<std::string> notes;
  auto check = [&](const char* name, const std::string& spec, bool uniform) {
    if (spec.empty() || spec == "auto" || spec == "vendor") return;
    const std::string setting =
        std::string(name) + "=" + spec + " on MPI_COMM_WORLD (P=" + std::to_string(ranks) + ")";
    try {
      const Configuration config = configure(spec, ranks, ranks_per_node);
      if (config.algorithm->handles == Handles::uniform_only && !uniform) {
        throw InvalidParameter(*not_applicable_reason(config, ExchangeShape{}));
      }
      // The most favourable exchange: if the algorithm refuses even that, no call on the world runs
      // it.
      ExchangeShape shape;
      shape.ranks = ranks;
      shape.ranks_per_node = ranks_per_node;
      shape.uniform = uniform;
      shape.balanced = true;
      shape.contiguous_in_order = true;
      if (auto reason = not_applicable_reason(config, shape)) {
        notes.push_back(setting + ": " + *reason +
                        "; calls on it use the vendor's call, sub-communicators may run it");
      }
    } catch (const Error& error) {
      throw InvalidParameter(setting + ": " + error.what());
    }
  };
  check("A2A_ALLTOALLV", settings.alltoallv_text, false);
  check("A2A_ALLTOALL", settings.alltoall_text, true);
  return notes;
}

}  // namespace a2a::mpi
