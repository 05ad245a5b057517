// The tuning map: a sweep's rows grouped by machine and workload, and per (P, S) cell the best
// configuration (lowest predicted time among the rows whose payload check did not fail) with its
// speed-up over `vendor`. Cells without a usable row are kept, marked missing, never guessed.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/tune/sweep_results.hpp"

namespace a2a::tune {

// What one map is about: the rows sharing these values.
struct GroupKey {
  std::string platform;
  std::string engine;
  int ranks_per_node = 0;
  std::string workload;             // the template: the workload spec with "{S}" for block_bytes
  std::string vendor;               // the MPI library: `vendor` and the speed-ups are its
  std::optional<double> tolerance;  // the scale engine's simulation.tolerance (its batching error)
  auto operator<=>(const GroupKey&) const = default;
  // "platform polaris, engine scale, 32 ranks per node, workload uniform:max={S}, vendor mpich,
  // tolerance 0.05"
  std::string describe() const;
};

// Narrows the sweep to some groups (a2a tune --platform/--engine/--ranks-per-node/--workload/
// --vendor/--tolerance).
struct GroupFilter {
  std::string platform, engine, workload, vendor;  // empty: any; workload: template or family
  int ranks_per_node = 0;                          // 0: any
  std::optional<double> tolerance;                 // empty: any
  bool matches(const GroupKey& key) const;
};

struct Cell {
  int ranks = 0;
  std::optional<std::int64_t> block;    // S
  const SweepRow* best = nullptr;       // empty: missing (no row, or every row failed its check)
  const SweepRow* runner_up = nullptr;  // the next best configuration whose check passed, if any
  std::optional<double> vendor_seconds;
  std::vector<const SweepRow*> measured;  // one row per configuration (the first listed)
  int failed = 0;                         // measured rows whose check failed

  bool missing() const { return best == nullptr; }
  // vendor / best, when a vendor row passed here.
  std::optional<double> speedup() const;
  // runner-up / best: how far the best leads, when a second configuration passed here.
  std::optional<double> lead() const;
};

struct TuningMap {
  GroupKey key;
  std::vector<int> ranks;                           // the P axis, ascending
  std::vector<std::optional<std::int64_t>> blocks;  // the S axis, ascending; {nullopt} without S
  std::vector<Cell> cells;                          // ranks.size() x blocks.size(), P-major
  std::vector<const SweepRow*> rows;                // every row of the group, in input order

  const Cell& at(size_t p, size_t s) const { return cells[p * blocks.size() + s]; }
  // The workload spec of a cell: the template with S substituted.
  std::string workload_at(size_t s) const;
};

// Every group of `rows` that `filter` selects, each with its cells. `rows` must outlive the maps.
// Throws InputError when the filter selects nothing (naming the groups there are).
std::vector<TuningMap> build_maps(const std::vector<SweepRow>& rows, const GroupFilter& filter);

// "uniform:max=1024,elem=8" with S = 1024 -> "uniform:max={S},elem=8": every option value equal to
// S becomes {S} (elem and seed excepted: an element size or seed equal to S is a coincidence).
std::string workload_template(const std::string& spec, std::optional<std::int64_t> block_bytes);
// The inverse: {S} replaced by the number.
std::string substitute_block(const std::string& workload_template, std::int64_t block_bytes);

// 3.0 -> "3.00x": how terminal and files show a speed-up.
std::string speedup_text(double speedup);

// "parlogna:radix=4" -> "parlogna r=4"; "parlinna_coalesced:ranks_per_node=4,radix=2" ->
// "parlinna_coalesced q=4 r=2". For maps, where space is short.
std::string short_config(const std::string& config);

}  // namespace a2a::tune
