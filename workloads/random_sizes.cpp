// Random block sizes, each block drawn independently from (seed, src, dst) — counter_rng.hpp.
// - uniform (Fan et al., HPDC 2022, §4.1; Fan et al., HPDC 2025, §5.1): sizes uniform in [0, max]
// bytes, average max/2,
//   "generated using FP64 vectors". Our reading: the element count is drawn uniformly from
//   [0, floor(max/elem)], so every whole-element size in range is equally likely.
// - normal (Fan et al., HPDC 2025, §5.4, Fig. 13 a, c): mean 1000 and standard deviation 240 bytes,
// truncated to
//   [0, max] (max defaults to 4·mean). The Gaussian is drawn as an Irwin–Hall sum of 12 uniforms
//   (variance exactly 1, support ±6σ, CDF within 0.0024 of the Gaussian's) because it needs only
//   integer arithmetic: std::log/std::cos may round differently on two machines, and a sender and
//   receiver disagreeing on a size would break the exchange. "Truncated" is read as conditioning:
//   a draw outside [0, max] is redrawn (up to 16 times, then clamped, so a call stays O(1)).
//   The byte size is then floored to whole elements.
// - sparse (from no paper; a test of mostly empty exchanges): each block is non-empty with
//   probability density, and then holds a uniform number of elements in [1, floor(max/elem)].
//
// Flags: a random matrix may be uniform or balanced by chance; the flags only report what the
// options guarantee (P = 1, or a single possible size), so `true` is always correct.
#include <algorithm>
#include <limits>
#include <vector>

#include "algorithms/digits.hpp"

#include "workloads/column_prefix_sums.hpp"
#include "workloads/counter_rng.hpp"
#include "workloads/distance_residue_sums.hpp"
#include "workloads/workload_family.hpp"

namespace a2a::workload_detail {

namespace {

using workload_rng::below_or_equal;
using workload_rng::bernoulli;
using workload_rng::draw;
using workload_rng::mix64;
using workload_rng::stream_key;

// Streams keep the families' draws independent for the same seed.
constexpr std::uint64_t kUniformStream = 1;
constexpr std::uint64_t kSparseStream = 2;
constexpr std::uint64_t kNormalStream = 3;

FlaggedWorkload::Flags flags_if(bool single_value) {
  return {single_value, single_value};
}

// How many terms of value, value + step, ... stay in [0, P) (unbounded for step 0).
std::int64_t steps_inside(std::int64_t value, std::int64_t step, std::int64_t P) {
  if (step > 0) return (P - 1 - value) / step + 1;
  if (step < 0) return value / -step + 1;
  return std::numeric_limits<std::int64_t>::max();
}

class Uniform final : public FlaggedWorkload {
 public:
  Uniform(int ranks, std::int64_t elem, std::string spec, std::uint64_t seed, std::int64_t top)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags_if(ranks == 1 || top == 0)),
        key_(stream_key(seed, kUniformStream)),
        top_(top),
        rows_(row_keys(key_, ranks)),
        by_distance_up_(rows_, top, +1),
        by_distance_down_(rows_, top, -1),
        columns_(rows_, top) {}
  // The hottest call of large simulations: the source's half of the draw is mixed once, here.
  std::int64_t count(int src, int dst) const override {
    return below_or_equal(
        workload_rng::draw_in_row(rows_[static_cast<size_t>(src)], static_cast<std::uint64_t>(dst)),
        top_);
  }
  // The run in straight stretches (no wrap-around modulo P), each summed in one vectorised call.
  std::int64_t run_count(int src, int dst, int src_step, int dst_step,
                         std::int64_t n) const override {
    const std::int64_t P = ranks();
    // A step above P/2 is taken backwards: Bruck rows step down by r^(x+1).
    const std::int64_t ss = src_step > P / 2 ? src_step - P : src_step;
    const std::int64_t ds = dst_step > P / 2 ? dst_step - P : dst_step;
    if (ss == 0) {  // a row: a Bruck round's is a whole residue class of the distance
      const auto& cache = ds > 0 ? by_distance_up_ : by_distance_down_;
      if (const auto sum = cache.whole_class(src, dst, ds, n)) return *sum;
    }
    // A column's cache pays when many runs read parts of it (Bruck's late rounds: at most P/2
    // sources each); a run over most of the column (padded Bruck's unpadding) would fill it, P
    // draws, for one read.
    const bool column_cache = n <= P / 2;
    std::int64_t s = src, d = dst, total = 0;
    while (n > 0) {
      const std::int64_t stretch = std::min({n, steps_inside(s, ss, P), steps_inside(d, ds, P)});
      total += stretch_count(s, d, ss, ds, stretch, column_cache);
      n -= stretch;
      s = mod(s + stretch * ss, P);
      d = mod(d + stretch * ds, P);
    }
    return total;
  }
  // Stops at the first block of the largest possible size (after ~top draws on average).
  std::int64_t row_max(int src) const override {
    const std::uint64_t row = rows_[static_cast<size_t>(src)];
    std::int64_t largest = 0;
    for (int d = 0; d < ranks() && largest < top_; ++d) {
      largest = std::max(
          largest,
          below_or_equal(workload_rng::draw_in_row(row, static_cast<std::uint64_t>(d)), top_));
    }
    return largest;
  }
  std::int64_t cache_bytes() const override {
    return by_distance_up_.bytes() + by_distance_down_.bytes() + columns_.bytes();
  }

 private:
  // A straight stretch of a run: a long one down a column from the column's cached sums.
  std::int64_t stretch_count(std::int64_t s, std::int64_t d, std::int64_t ss, std::int64_t ds,
                             std::int64_t n, bool column_cache) const {
    if (column_cache && ds == 0 && (ss == 1 || ss == -1)) {
      if (const auto sum = columns_.run(ss > 0 ? s : s - (n - 1), d, n)) return *sum;
    }
    return workload_rng::sum_below_or_equal(rows_, s, ss, d, ds, n, top_);
  }

  // row_key(key, s) for every source s: a run down a column of the matrix (the Bruck rounds'
  // runs step through sources) reads each source's key instead of mixing it once per block
  // (8 bytes per rank: 8 MiB at P = 2^20).
  static std::vector<std::uint64_t> row_keys(std::uint64_t key, int ranks) {
    std::vector<std::uint64_t> rows(static_cast<size_t>(ranks));
    for (size_t s = 0; s < rows.size(); ++s)
      rows[s] = workload_rng::row_key(key, s);
    return rows;
  }

  std::uint64_t key_;
  std::int64_t top_;  // floor(max / elem)
  std::vector<std::uint64_t> rows_;
  // Row sums by residue class of dst − src (basic Bruck) and of src − dst (modified Bruck).
  workload_rng::DistanceResidueSums by_distance_up_, by_distance_down_;
  workload_rng::ColumnPrefixSums columns_;  // Bruck's late rounds: runs down a column
};

std::unique_ptr<Workload> make_uniform(OptionReader& options, int ranks) {
  const std::int64_t max = options.integer("max", 1024, 0, kMaxBytes);
  const std::int64_t elem = options.elem();
  const std::uint64_t seed = options.seed();
  return std::make_unique<Uniform>(ranks, elem, options.finish(), seed, max / elem);
}

class Normal final : public FlaggedWorkload {
 public:
  Normal(int ranks, std::int64_t elem, std::string spec, std::uint64_t seed, std::int64_t mean,
         std::int64_t stddev, std::int64_t max)
      : FlaggedWorkload(ranks, elem, std::move(spec),
                        flags_if(ranks == 1 || stddev == 0 || max / elem == 0)),
        seed_(seed),
        mean_(mean),
        stddev_(stddev),
        max_(max) {}

  std::int64_t count(int src, int dst) const override {
    std::int64_t bytes = 0;
    for (std::uint64_t attempt = 0; attempt < kAttempts; ++attempt) {
      bytes = sample(attempt, src, dst);
      if (bytes >= 0 && bytes <= max_) return bytes / element_bytes();
    }
    return std::clamp<std::int64_t>(bytes, 0, max_) / element_bytes();
  }

 private:
  static constexpr std::uint64_t kAttempts = 16;

  // mean + stddev·z in bytes, floored, z an Irwin–Hall(12) variate: twelve 32-bit uniforms u_i,
  // z = (Σ u_i − 12·(2^32 − 1)/2) / 2^32, computed exactly as a 128-bit integer.
  std::int64_t sample(std::uint64_t attempt, int src, int dst) const {
    __extension__ using i128 = __int128;
    const std::uint64_t base = draw(seed_, kNormalStream + (attempt << 8), src, dst);
    std::int64_t twice_centered = -12 * std::int64_t{0xFFFFFFFF};  // 2·Σ u_i − 12·(2^32 − 1)
    for (std::uint64_t i = 0; i < 6; ++i) {
      const std::uint64_t word = mix64(base + i);
      twice_centered += 2 * static_cast<std::int64_t>((word >> 32) + (word & 0xFFFFFFFF));
    }
    const i128 offset = (static_cast<i128>(stddev_) * twice_centered) >> 33;  // floor
    return mean_ + static_cast<std::int64_t>(offset);
  }

  std::uint64_t seed_;
  std::int64_t mean_, stddev_, max_;
};

std::unique_ptr<Workload> make_normal(OptionReader& options, int ranks) {
  const std::int64_t mean = options.integer("mean", 1000, 0, kMaxBytes);
  const std::int64_t stddev = options.integer("stddev", 240, 0, kMaxBytes);
  const std::int64_t max = options.integer("max", std::min(4 * mean, kMaxBytes), 0, kMaxBytes);
  const std::int64_t elem = options.elem();
  const std::uint64_t seed = options.seed();
  return std::make_unique<Normal>(ranks, elem, options.finish(), seed, mean, stddev, max);
}

class Sparse final : public FlaggedWorkload {
 public:
  Sparse(int ranks, std::int64_t elem, std::string spec, std::uint64_t seed, double density,
         std::int64_t top)
      : FlaggedWorkload(ranks, elem, std::move(spec),
                        flags_if(ranks == 1 || density == 0.0 || (density == 1.0 && top == 1))),
        seed_(seed),
        density_(density),
        top_(top) {}
  std::int64_t count(int src, int dst) const override {
    const std::uint64_t word = draw(seed_, kSparseStream, src, dst);
    if (!bernoulli(word, density_)) return 0;
    return 1 + below_or_equal(mix64(word), top_ - 1);
  }

 private:
  std::uint64_t seed_;
  double density_;
  std::int64_t top_;  // floor(max / elem) >= 1 when density > 0
};

std::unique_ptr<Workload> make_sparse(OptionReader& options, int ranks) {
  const double density = options.real("density", 0.1, 0.0, 1.0);
  const std::int64_t max = options.integer("max", 1024, 0, kMaxBytes);
  const std::int64_t elem = options.elem();
  const std::uint64_t seed = options.seed();
  if (density > 0.0 && max < elem) {
    options.fail("option max=" + std::to_string(max) + " must be >= elem=" + std::to_string(elem) +
                 " when density > 0 (a non-empty block holds at least one element)");
  }
  return std::make_unique<Sparse>(ranks, elem, options.finish(), seed, density, max / elem);
}

}  // namespace

std::vector<WorkloadFamily> random_families() {
  return {
      {{.name = "uniform",
        .options = "max=BYTES (1024), elem=BYTES (8), seed=N (1)",
        .description = "block sizes uniform in [0, max] bytes (average max/2)",
        .source = "Fan et al., HPDC 2022, §4.1; Fan et al., HPDC 2025, §5.1"},
       make_uniform},
      {{.name = "normal",
        .options = "mean=BYTES (1000), stddev=BYTES (240), max=BYTES (4*mean), elem=BYTES (8), "
                   "seed=N (1)",
        .description = "block sizes normal(mean, stddev) truncated to [0, max] bytes",
        .source = "Fan et al., HPDC 2025, §5.4, Fig. 13"},
       make_normal},
      {{.name = "sparse",
        .options = "density=REAL (0.1), max=BYTES (1024), elem=BYTES (8), seed=N (1)",
        .description = "each block non-empty with probability density, then 1..max/elem elements",
        .source = "edge case: mostly empty exchanges"},
       make_sparse},
  };
}

}  // namespace a2a::workload_detail
