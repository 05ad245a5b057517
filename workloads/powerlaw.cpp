// powerlaw — Fan et al., HPDC 2025, §5.4, Fig. 13 (b, d): "a power-law (exponential) distribution",
// exponent 0.95, largest block 1,024 bytes; docs/workloads.md: sizes max·x^k for k = 0..P−1,
// shuffled per rank. Our reading: sender src gives receiver dst the size floor(max·x^k) bytes with
// k = π_src(dst), π_src a permutation of [0, P) keyed by (seed, src), floored to whole elements.
// Every sender therefore sends the same multiset of sizes (equal send totals) while receive totals
// vary. π_src is a Feistel network with cycle walking (counter_rng.hpp), so count() needs no O(P)
// table.
//
// Flags: uniform exactly when all P sizes floor to the same element count. Balanced is reported
// only then: otherwise the column totals depend on how the permutations happen to line up.
#include "workloads/powerlaw.hpp"
#include "workloads/counter_rng.hpp"
#include "workloads/workload_family.hpp"

namespace a2a::workload_detail {

namespace {

class PowerLaw final : public FlaggedWorkload {
 public:
  PowerLaw(int ranks, std::int64_t elem, std::string spec, std::uint64_t seed, std::int64_t max,
           double x)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags(ranks, elem, max, x)),
        seed_(seed),
        max_(max),
        x_(x) {}

  std::int64_t count(int src, int dst) const override {
    const workload_rng::KeyedPermutation shuffle(static_cast<std::uint64_t>(ranks()), seed_,
                                                 static_cast<std::uint64_t>(src));
    const auto k = static_cast<std::int64_t>(shuffle(static_cast<std::uint64_t>(dst)));
    return powerlaw_bytes(max_, x_, k) / element_bytes();
  }

 private:
  // max·x^k does not increase with k, so the sizes are all equal when the first (k = 0) and the
  // last (k = P − 1) are. Unless that is plain (all sizes below one element, or x = 1), a scan —
  // once, O(P) — guards against a last-bit wobble of the rounded powers.
  static Flags flags(int ranks, std::int64_t elem, std::int64_t max, double x) {
    const std::int64_t first = max / elem;
    bool same = first == powerlaw_bytes(max, x, ranks - 1) / elem;
    const bool plain = first == 0 || x == 1.0;
    for (std::int64_t k = 1; same && !plain && k < ranks - 1; ++k) {
      same = powerlaw_bytes(max, x, k) / elem == first;
    }
    return {.uniform = same, .balanced = same};
  }

  std::uint64_t seed_;
  std::int64_t max_;
  double x_;
};

std::unique_ptr<Workload> make_powerlaw(OptionReader& options, int ranks) {
  const std::int64_t max = options.integer("max", 1024, 0, kMaxBytes);
  const double x = options.real("x", 0.95, 0.0, 1.0);
  const std::int64_t elem = options.elem();
  const std::uint64_t seed = options.seed();
  return std::make_unique<PowerLaw>(ranks, elem, options.finish(), seed, max, x);
}

}  // namespace

std::vector<WorkloadFamily> powerlaw_families() {
  return {
      {{.name = "powerlaw",
        .options = "max=BYTES (1024), x=REAL 0..1 (0.95), elem=BYTES (8), seed=N (1)",
        .description = "sizes max*x^k for k = 0..P-1, shuffled per sender rank",
        .source = "Fan et al., HPDC 2025, §5.4, Fig. 13"},
       make_powerlaw},
  };
}

}  // namespace a2a::workload_detail
