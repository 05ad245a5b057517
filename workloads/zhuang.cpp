// zhuang1..zhuang4 — Zhuang et al., IPSJ SIG-HPC 2009, §4: the four initial settings of Zhuang et
// al.'s memory-efficient all-to-all, with N elements per rank, sender i, receiver j and d = (j − i)
// mod P:
//   case 1: |s(i,j)| = N/P
//   case 2: 0 if d < P/4,  N/P if P/4 <= d < P − 1,  N/4 if d = P − 1
//   case 3: 0 if d < P/2,  N/P if P/2 <= d < P − 1,  N/2 if d = P − 1
//   case 4: N if d = P − 1, else 0
// Readings where the paper is silent:
// - d < P/4 is compared exactly (4d < P), so P need not be a multiple of 4.
// - The piecewise cases overlap only for P = 1 (d = 0 is both < P/4 and = P − 1); there d = P − 1
//   wins, as the large block to the left neighbour is what cases 2–4 are about.
// - N must make the sizes whole: a multiple of P (case 1), of lcm(P, 4) (case 2), of lcm(P, 2)
//   (case 3); any N for case 4. Other values are rejected rather than rounded, so the counts are
//   always exactly the formula. n is in elements; the default 64·P satisfies every case.
// - Cases 2 and 3 put the self block (d = 0) in the empty range, so a rank sends less than N: in
//   total N − N/P when 4 | P (case 2) or 2 | P (case 3). Cases 1 and 4 send exactly N.
// Each count depends on d only, so every row and every column holds each d once: balanced always.
#include <numeric>

#include "algorithms/digits.hpp"
#include "workloads/workload_family.hpp"

namespace a2a::workload_detail {

namespace {

// The count of case `which` at distance d (0 <= d < P).
std::int64_t by_distance(int which, std::int64_t n, std::int64_t P, std::int64_t d) {
  const bool last = d == P - 1;
  switch (which) {
    case 1:
      return n / P;
    case 2:
      return last ? n / 4 : (4 * d < P ? 0 : n / P);
    case 3:
      return last ? n / 2 : (2 * d < P ? 0 : n / P);
    default:
      return last ? n : 0;
  }
}

class Zhuang final : public FlaggedWorkload {
 public:
  Zhuang(int which, int ranks, std::int64_t elem, std::string spec, std::int64_t n)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags(which, ranks, n)),
        which_(which),
        n_(n) {}

  std::int64_t count(int src, int dst) const override {
    return by_distance(which_, n_, ranks(), mod(std::int64_t{dst} - src, ranks()));
  }

 private:
  // Balanced always; uniform when every distance gives the same count (one O(P) pass).
  static Flags flags(int which, std::int64_t P, std::int64_t n) {
    bool same = true;
    for (std::int64_t d = 1; same && d < P; ++d) {
      same = by_distance(which, n, P, d) == by_distance(which, n, P, 0);
    }
    return {.uniform = same, .balanced = true};
  }

  int which_;
  std::int64_t n_;
};

// What n must be a multiple of for case `which`, and why.
std::pair<std::int64_t, const char*> divisor(int which, std::int64_t P) {
  switch (which) {
    case 1:
      return {P, "N/P"};
    case 2:
      return {std::lcm(P, std::int64_t{4}), "N/P and N/4"};
    case 3:
      return {std::lcm(P, std::int64_t{2}), "N/P and N/2"};
    default:
      return {1, ""};
  }
}

template <int which>
std::unique_ptr<Workload> make_zhuang(OptionReader& options, int ranks) {
  const std::int64_t n = options.integer("n", 64 * std::int64_t{ranks}, 0, kMaxBytes);
  const std::int64_t elem = options.elem();
  const auto [multiple, why] = divisor(which, ranks);
  if (n % multiple != 0) {
    options.fail("option n=" + std::to_string(n) + " must be a multiple of " +
                 std::to_string(multiple) + " for P = " + std::to_string(ranks) + " (" + why +
                 " must be whole)");
  }
  return std::make_unique<Zhuang>(which, ranks, elem, options.finish(), n);
}

WorkloadFamily family(const char* name, const char* description,
                      std::unique_ptr<Workload> (*make)(OptionReader&, int)) {
  return {{.name = name,
           .options = "n=ELEMENTS per rank (64*P), elem=BYTES (8)",
           .description = description,
           .source = "Zhuang et al., IPSJ SIG-HPC 2009, §4"},
          make};
}

}  // namespace

std::vector<WorkloadFamily> zhuang_families() {
  return {
      family("zhuang1", "every block N/P elements", make_zhuang<1>),
      family("zhuang2", "0 for d < P/4, N/P up to d = P-2, N/4 to the left neighbour (d = P-1)",
             make_zhuang<2>),
      family("zhuang3", "0 for d < P/2, N/P up to d = P-2, N/2 to the left neighbour (d = P-1)",
             make_zhuang<3>),
      family("zhuang4", "all N elements to the left neighbour (d = P-1), nothing else",
             make_zhuang<4>),
  };
}

}  // namespace a2a::workload_detail
