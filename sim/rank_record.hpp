// What one simulated rank did during one run, filled the same way by every simulation engine
// (SimGrid and scale), and the small bookkeeping both engines share: phase spans and the ledger of
// temporary buffers of size-only runs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/stats.hpp"

namespace a2a::sim {

// A span of simulated time on one rank, for traces.
struct Span {
  const char* label;
  double start;
  double end;
};

struct RankRecord {
  RunStats stats;
  double start = 0;  // simulated seconds
  double end = 0;
  bool finished = false;
  std::map<std::string, double> phase_seconds;  // by Comm::set_phase label
  double wait_seconds = 0;                      // blocked in wait / wait_all
  double copy_seconds = 0;                      // local copies at memory bandwidth
  std::int64_t intra_node_bytes = 0;            // data bytes sent to ranks on the same node
  std::int64_t inter_node_bytes = 0;
  std::string waiting_for;  // what the rank is blocked on right now (deadlock reports)
  std::vector<Span> spans;  // phase spans, when tracing this rank
};

// The current phase of a rank (Comm::set_phase) and when it began; closing a phase adds its time to
// the record and, when traced, a span.
class PhaseTracker {
 public:
  explicit PhaseTracker(double now) : start_(now) {}
  void switch_to(const char* label, double now, RankRecord& record, bool traced) {
    if (now > start_) {
      seconds_of(phase_, record) += now - start_;
      if (traced) record.spans.push_back({phase_, start_, now});
    }
    phase_ = label;
    start_ = now;
  }
  // Closes the current phase; call when the algorithm returns.
  void finish(double now, RankRecord& record, bool traced) {
    switch_to(phase_, now, record, traced);
  }

 private:
  // The record's entry for a label. Labels have static storage, so the last few are remembered by
  // address (map entries never move): the map is searched once per label, not per switch — an
  // algorithm with 722 rounds switches phase 1,444 times on each of 131,072 ranks.
  double& seconds_of(const char* label, RankRecord& record) {
    for (const auto& [known, seconds] : recent_) {
      if (known == label) return *seconds;
    }
    double& seconds = record.phase_seconds[label];
    recent_[next_recent_] = {label, &seconds};
    next_recent_ = (next_recent_ + 1) % recent_.size();
    return seconds;
  }

  const char* phase_ = phase::setup;
  double start_ = 0;
  std::array<std::pair<const char*, double*>, 4> recent_{};
  std::size_t next_recent_ = 0;
};

// Temporary buffers of a size-only run: only their sizes, for the peak.
class TempLedger {
 public:
  int alloc(Bytes bytes, RunStats& stats) {
    if (bytes < 0) throw ContractViolation("negative temporary buffer size");
    sizes_.push_back(bytes);
    in_use_ += bytes;
    stats.temp_peak = std::max(stats.temp_peak, in_use_);
    return static_cast<int>(sizes_.size()) - 1;
  }
  void free(int buffer) {
    if (buffer < 0 || buffer >= static_cast<int>(sizes_.size())) return;
    in_use_ -= sizes_[static_cast<size_t>(buffer)];
    sizes_[static_cast<size_t>(buffer)] = 0;
  }

 private:
  std::vector<Bytes> sizes_;
  Bytes in_use_ = 0;
};

}  // namespace a2a::sim
