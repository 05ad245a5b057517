// Whether RankBatch (rank_batch.hpp) shares a batch of ranks with its workers or runs it on the
// calling thread, decided from what batches of the same size measured each way.
//
// Why measured: whether sharing pays depends on more than a resume's time. The event loop then
// reads what the ranks posted from the other core's cache, and ranks whose states share cache
// lines move them between cores. Open MPI's pairwise exchange on fugaku (P = 4,096, batches of
// about a hundred cheap ranks) ran 1.1-1.4x slower on 2 threads than on 1 when the expected work
// alone decided (docs/performance.md, stop 57). So for each size of batch (by powers of two) the
// time from a batch's start to the next one's is measured per rank, both ways: each way kMinRuns
// times first, in the order 0, 1, 1, 0, 0, 1, ... (not every other batch, which a run whose
// batches alternate between two kinds would line up with), then the faster way, and the slower
// one every kRecheckEvery-th batch of that size (odd, for the same reason), as conditions change.
//
// The times come from the caller, so the choice itself has no clock and can be tested alone.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <vector>

namespace a2a::sim::scale {

class SharingChoice {
 public:
  static constexpr int kMinRuns = 4;
  static constexpr int kRecheckEvery = 31;
  // How fast a way's estimate follows its latest cycles (an exponential average); its first
  // kMinRuns cycles give it their smallest instead, so that one cycle that waited on a long solve
  // does not decide.
  static constexpr double kCycleWeight = 1.0 / 8;
  // A later cycle that took this many times the estimate (a long solve) counts as this many times
  // only.
  static constexpr double kCycleOutlier = 4;

  // Whether to share the next batch of `ranks` (at least 2) that could be shared.
  bool choose(std::size_t ranks) {
    Cycles& cycles = of(ranks);
    const int eligible = cycles.eligible++;
    if (cycles.runs[0] < kMinRuns || cycles.runs[1] < kMinRuns)
      return ((eligible ^ (eligible >> 1)) & 1) == 1;
    const bool faster_shared = cycles.per_rank[1] < cycles.per_rank[0];
    return eligible % kRecheckEvery == 0 ? !faster_shared : faster_shared;
  }

  // Charges a batch of `ranks`, run `shared` or not, that took `seconds` from its start to the
  // next batch's start (the batch and the event loop's work on what its ranks posted).
  void charge(std::size_t ranks, bool shared, double seconds) {
    Cycles& cycles = of(ranks);
    const int way = shared ? 1 : 0;
    double per_rank = seconds / static_cast<double>(ranks);
    double& estimate = cycles.per_rank[way];
    const int runs = cycles.runs[way]++;
    if (runs < kMinRuns) {
      estimate = runs == 0 ? per_rank : std::min(estimate, per_rank);
      return;
    }
    per_rank = std::min(per_rank, kCycleOutlier * estimate);
    estimate += kCycleWeight * (per_rank - estimate);
  }

  // The estimated seconds per rank of batches of `ranks` run that way (0 before any was charged).
  double per_rank(std::size_t ranks, bool shared) { return of(ranks).per_rank[shared ? 1 : 0]; }

 private:
  struct Cycles {
    double per_rank[2] = {0, 0};  // [0]: on the calling thread alone, [1]: shared
    int runs[2] = {0, 0};         // batches measured each way
    int eligible = 0;             // batches of this size that could have been shared
  };

  Cycles& of(std::size_t ranks) {
    const auto bucket = static_cast<std::size_t>(std::bit_width(ranks));
    if (cycles_.size() <= bucket) cycles_.resize(bucket + 1);
    return cycles_[bucket];
  }

  std::vector<Cycles> cycles_;  // by std::bit_width of a batch's ranks
};

}  // namespace a2a::sim::scale
