// Workloads: how many elements rank `src` sends to rank `dst`, computed lazily and
// deterministically from a seed, so no backend ever needs the P x P matrix (docs/design.md,
// "Workloads").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace a2a {

class Workload {
 public:
  virtual ~Workload() = default;
  // Elements src sends to dst (and so dst receives from src). Pure: same answer on every call,
  // every rank and every backend for the same spec, P and seed. O(1) time and memory per call.
  virtual std::int64_t count(int src, int dst) const = 0;
  // Σ count over the n blocks ((src + k·src_step) mod P, (dst + k·dst_step) mod P), k < n, with
  // steps in [0, P): a run of a message (Comm's BlockRun). The scale engine's hottest loop at
  // 10^5 ranks; families override it when they can do better than n calls of count().
  virtual std::int64_t run_count(int src, int dst, int src_step, int dst_step,
                                 std::int64_t n) const;
  // The largest count(src, d) over every d: a rank's largest send block.
  virtual std::int64_t row_max(int src) const;
  // The most memory the workload's caches of run sums can take (allocated as runs ask for them).
  virtual std::int64_t cache_bytes() const { return 0; }
  // Bytes per element (the exchange's extent).
  std::int64_t element_bytes() const { return element_bytes_; }
  // True when every block has the same count (an MPI_Alltoall).
  virtual bool uniform() const { return false; }
  // True when every rank sends and receives the same total number of elements.
  virtual bool balanced() const { return false; }
  // Both flags are never true wrongly. Deterministic families report them exactly; a random
  // family reports only what its options guarantee (P = 1, a single possible size), not a
  // matrix that happens to come out uniform or balanced.
  int ranks() const { return ranks_; }
  // The spec it was made from, with defaults filled in ("uniform:max=1024,elem=8,seed=1").
  const std::string& spec() const { return spec_; }

 protected:
  Workload(int ranks, std::int64_t element_bytes, std::string spec)
      : ranks_(ranks), element_bytes_(element_bytes), spec_(std::move(spec)) {}

 private:
  int ranks_;
  std::int64_t element_bytes_;
  std::string spec_;
};

// Calls f(src, dst) for the n blocks of a run (Workload::run_count), stepping without divisions.
template <typename F>
inline void for_each_in_run(int ranks, int src, int dst, int src_step, int dst_step, std::int64_t n,
                            F&& f) {
  for (std::int64_t k = 0; k < n; ++k) {
    f(src, dst);
    src += src_step;
    if (src >= ranks) src -= ranks;
    dst += dst_step;
    if (dst >= ranks) dst -= ranks;
  }
}

// One line per workload family for `list`.
struct WorkloadInfo {
  std::string name;
  std::string options;      // "max=BYTES (1024), elem=BYTES (8), seed=N (1)"
  std::string description;  // one line
  std::string source;       // paper and section (docs/references.md)
};
const std::vector<WorkloadInfo>& workload_catalog();

// Parses "name" or "name:key=value,key=value" for P = ranks. Throws InvalidParameter naming the
// option for unknown names, unknown keys, or out-of-range values.
std::unique_ptr<Workload> make_workload(const std::string& spec, int ranks);

}  // namespace a2a
