// Workload generators (workloads/): exact counts of the deterministic families against formulas
// restated here from the papers (docs/references.md), statistics and ranges of the random ones,
// determinism, the powerlaw shuffle's bijection, the uniform/balanced flags against the whole
// matrix, and every class of spec error.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "algorithms/errors.hpp"
#include "tests/approx.hpp"
#include "workloads/column_prefix_sums.hpp"
#include "workloads/counter_rng.hpp"
#include "workloads/distance_residue_sums.hpp"
#include "workloads/powerlaw.hpp"
#include "workloads/workload.hpp"

namespace {

using a2a::make_workload;
using a2a::Workload;
using Matrix = std::vector<std::vector<std::int64_t>>;

Matrix matrix_of(const Workload& w) {
  const int P = w.ranks();
  Matrix m(P, std::vector<std::int64_t>(P));
  for (int s = 0; s < P; ++s) {
    for (int d = 0; d < P; ++d)
      m[s][d] = w.count(s, d);
  }
  return m;
}

Matrix matrix_of(const std::string& spec, int P) {
  return matrix_of(*make_workload(spec, P));
}

bool all_blocks_equal(const Matrix& m) {
  for (const auto& row : m) {
    for (auto c : row) {
      if (c != m[0][0]) return false;
    }
  }
  return true;
}

bool all_totals_equal(const Matrix& m) {
  const std::size_t P = m.size();
  std::set<std::int64_t> totals;
  for (std::size_t r = 0; r < P; ++r) {
    std::int64_t sent = 0, received = 0;
    for (std::size_t o = 0; o < P; ++o) {
      sent += m[r][o];
      received += m[o][r];
    }
    totals.insert(sent);
    totals.insert(received);
  }
  return totals.size() == 1;
}

// The InvalidParameter message of make_workload(spec, P), or "" when it does not throw.
std::string error_of(const std::string& spec, int P) {
  try {
    make_workload(spec, P);
  } catch (const a2a::InvalidParameter& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const std::vector<std::string> kRandomFamilies = {"uniform", "normal", "sparse", "powerlaw"};

}  // namespace

TEST_CASE("workload catalog: every family builds, lists its options, and its spec round-trips") {
  std::set<std::string> names;
  for (const auto& info : a2a::workload_catalog()) {
    CAPTURE(info.name);
    CHECK(names.insert(info.name).second);
    CHECK_FALSE(info.description.empty());
    CHECK_FALSE(info.source.empty());
    // The keys the catalog lists ("key=... (default)" items) are exactly the canonical spec's.
    std::vector<std::string> listed;
    for (std::size_t at = 0; at < info.options.size();) {
      const auto eq = info.options.find('=', at);
      REQUIRE(eq != std::string::npos);
      listed.push_back(info.options.substr(at, eq - at));
      const auto comma = info.options.find(", ", eq);
      at = comma == std::string::npos ? info.options.size() : comma + 2;
    }
    // matrix needs a file: test_workloads_matrix.cpp checks its catalog entry and spec.
    if (info.name == "matrix") continue;
    for (int P : {1, 2, 3, 8, 12}) {
      auto w = make_workload(info.name, P);
      CHECK(w->ranks() == P);
      CHECK(w->element_bytes() == 8);
      const std::string& spec = w->spec();
      REQUIRE(spec.rfind(info.name + ":", 0) == 0);
      std::vector<std::string> keys;
      std::string rest = spec.substr(info.name.size() + 1);
      for (std::size_t at = 0; at < rest.size();) {
        const auto eq = rest.find('=', at);
        keys.push_back(rest.substr(at, eq - at));
        const auto comma = rest.find(',', eq);
        at = comma == std::string::npos ? rest.size() : comma + 1;
      }
      CHECK(keys == listed);
      // The canonical spec names the same workload.
      auto again = make_workload(spec, P);
      CHECK(again->spec() == spec);
      CHECK(matrix_of(*again) == matrix_of(*w));
    }
  }
  for (const char* expected :
       {"constant", "zero", "huge", "uniform", "normal", "sparse", "powerlaw", "fft_n1", "fft_n2",
        "zhuang1", "zhuang2", "zhuang3", "zhuang4"}) {
    CHECK(names.count(expected) == 1);
  }
}

TEST_CASE("workload spec: defaults are filled in, in option order") {
  CHECK(make_workload("uniform", 4)->spec() == "uniform:max=1024,elem=8,seed=1");
  CHECK(make_workload("uniform:seed=7,max=16", 4)->spec() == "uniform:max=16,elem=8,seed=7");
  CHECK(make_workload("constant", 4)->spec() == "constant:size=1024,elem=8");
  CHECK(make_workload("zero", 4)->spec() == "zero:elem=8");
  CHECK(make_workload("normal:mean=500", 4)->spec() ==
        "normal:mean=500,stddev=240,max=2000,elem=8,seed=1");
  CHECK(make_workload("powerlaw", 4)->spec() == "powerlaw:max=1024,x=0.95,elem=8,seed=1");
  CHECK(make_workload("sparse:density=0.25", 4)->spec() ==
        "sparse:density=0.25,max=1024,elem=8,seed=1");
  CHECK(make_workload("huge", 7)->spec() == "huge:size=1048576,small=8,src=0,dst=6,elem=8");
  CHECK(make_workload("fft_n1:elem=16", 7)->spec() == "fft_n1:elem=16");
  CHECK(make_workload("zhuang2", 6)->spec() == "zhuang2:n=384,elem=8");
  CHECK(make_workload("uniform:elem=4", 3)->element_bytes() == 4);
}

TEST_CASE("workload randomness: same spec gives the same counts, another seed other counts") {
  for (const auto& family : kRandomFamilies) {
    CAPTURE(family);
    for (int P : {2, 5, 16}) {
      const Matrix first = matrix_of(family, P);
      CHECK(matrix_of(family, P) == first);
      CHECK(matrix_of(family + ":seed=1", P) == first);
      if (P == 16) CHECK(matrix_of(family + ":seed=2", P) != first);
    }
  }
  // A count does not depend on P for the independent-block families (src, dst, seed only).
  CHECK(make_workload("uniform", 8)->count(3, 5) == make_workload("uniform", 100)->count(3, 5));
}

TEST_CASE("workload constant and zero: exact counts, floored to whole elements") {
  for (int P : {1, 2, 7}) {
    CHECK(matrix_of("constant", P) == Matrix(P, std::vector<std::int64_t>(P, 128)));
    CHECK(matrix_of("constant:size=100,elem=8", P) == Matrix(P, std::vector<std::int64_t>(P, 12)));
    CHECK(matrix_of("constant:size=7", P) == Matrix(P, std::vector<std::int64_t>(P, 0)));
    CHECK(matrix_of("zero", P) == Matrix(P, std::vector<std::int64_t>(P, 0)));
  }
}

TEST_CASE("workload huge: one large block, the rest small") {
  const Matrix m = matrix_of("huge:size=4096,small=16,src=2,dst=5", 7);
  for (int s = 0; s < 7; ++s) {
    for (int d = 0; d < 7; ++d)
      CHECK(m[s][d] == (s == 2 && d == 5 ? 512 : 2));
  }
  const Matrix defaults = matrix_of("huge", 5);
  CHECK(defaults[0][4] == (1 << 20) / 8);
  CHECK(defaults[4][0] == 1);
  CHECK(matrix_of("huge:small=0", 5)[1][1] == 0);
}

TEST_CASE("workload uniform: counts in (0, max/elem), every value reached, mean max/2") {
  for (auto [max, elem] : {std::pair{64, 8}, {100, 8}, {1024, 8}, {5, 1}, {0, 8}, {7, 8}}) {
    CAPTURE(max);
    CAPTURE(elem);
    const std::string spec = "uniform:max=" + std::to_string(max) + ",elem=" + std::to_string(elem);
    const Matrix m = matrix_of(spec, 64);
    const std::int64_t top = max / elem;
    std::map<std::int64_t, int> seen;
    double sum = 0;
    for (const auto& row : m) {
      for (auto c : row) {
        CHECK(c >= 0);
        CHECK(c <= top);
        ++seen[c];
        sum += static_cast<double>(c);
      }
    }
    if (top <= 16) CHECK(seen.size() == static_cast<std::size_t>(top + 1));
    CHECK(sum / (64 * 64) == a2a::testing::approx(top / 2.0).epsilon(0.05));
  }
}

TEST_CASE("workload normal: mean and spread of Fan et al. 2025, Fig. 13, truncation to (0, max)") {
  // elem=1 so counts are bytes. 128² = 16384 samples: the sample mean's error is about 2 bytes.
  const Matrix m = matrix_of("normal:elem=1", 128);
  double sum = 0, squares = 0;
  for (const auto& row : m) {
    for (auto c : row) {
      CHECK(c >= 0);
      CHECK(c <= 4000);
      sum += static_cast<double>(c);
      squares += static_cast<double>(c) * static_cast<double>(c);
    }
  }
  const double n = 128.0 * 128.0, mean = sum / n;
  CHECK(mean == a2a::testing::approx(1000).epsilon(0.01));
  CHECK(std::sqrt(squares / n - mean * mean) == a2a::testing::approx(240).epsilon(0.03));

  // A wide distribution cut hard on both sides: every count inside, both ends reached.
  const Matrix cut = matrix_of("normal:mean=100,stddev=400,max=300,elem=1", 64);
  std::int64_t low = 1 << 30, high = -1;
  for (const auto& row : cut) {
    for (auto c : row) {
      low = std::min(low, c);
      high = std::max(high, c);
    }
  }
  CHECK(low >= 0);
  CHECK(high <= 300);
  CHECK(low < 10);
  CHECK(high > 290);
  // Whole elements: floor(bytes / elem) <= max / elem.
  for (const auto& row : matrix_of("normal:elem=16", 32)) {
    for (auto c : row)
      CHECK(c <= 4000 / 16);
  }
  // No spread: every block is the mean, or max when the mean lies above it.
  CHECK(matrix_of("normal:stddev=0,elem=1", 5) == Matrix(5, std::vector<std::int64_t>(5, 1000)));
  CHECK(matrix_of("normal:mean=900,stddev=0,max=500,elem=1", 3) ==
        Matrix(3, std::vector<std::int64_t>(3, 500)));
}

TEST_CASE("workload sparse: density of non-empty blocks, sizes in (1, max/elem)") {
  const Matrix m = matrix_of("sparse:density=0.25,max=80", 128);
  int non_empty = 0;
  for (const auto& row : m) {
    for (auto c : row) {
      CHECK(c >= 0);
      CHECK(c <= 10);
      non_empty += c > 0;
    }
  }
  CHECK(non_empty / (128.0 * 128.0) == a2a::testing::approx(0.25).epsilon(0.05));
  CHECK(matrix_of("sparse:density=0", 9) == Matrix(9, std::vector<std::int64_t>(9, 0)));
  for (const auto& row : matrix_of("sparse:density=1,max=24", 20)) {
    for (auto c : row) {
      CHECK(c >= 1);
      CHECK(c <= 3);
    }
  }
}

TEST_CASE("workload powerlaw helper: floor(max·x^k), close to std::pow, never above max") {
  using a2a::workload_detail::powerlaw_bytes;
  for (double x : {0.0, 0.5, 0.95, 0.999, 1.0}) {
    for (std::int64_t k = 0; k < 200; ++k) {
      const double exact = 1024.0 * std::pow(x, static_cast<double>(k));
      const std::int64_t got = powerlaw_bytes(1024, x, k);
      CHECK(got <= 1024);
      CHECK(std::abs(static_cast<double>(got) - std::floor(exact)) <= 1.0);
    }
  }
  CHECK(powerlaw_bytes(1024, 0.95, 0) == 1024);
  CHECK(powerlaw_bytes(1024, 0.95, 1) == 972);  // 972.8
  CHECK(powerlaw_bytes(1024, 0.0, 1) == 0);
}

TEST_CASE("workload powerlaw: each sender's sizes are a permutation of floor(max·x^k / elem)") {
  using a2a::workload_detail::powerlaw_bytes;
  for (auto [max, x, elem] :
       {std::tuple{1024, 0.95, 8}, {4096, 0.5, 8}, {1000, 0.99, 1}, {64, 0.9, 16}}) {
    for (int P = 1; P <= 40; ++P) {
      CAPTURE(P);
      const std::string spec = "powerlaw:max=" + std::to_string(max) + ",x=" + std::to_string(x) +
                               ",elem=" + std::to_string(elem);
      const auto w = make_workload(spec, P);
      std::multiset<std::int64_t> expected;
      for (int k = 0; k < P; ++k)
        expected.insert(powerlaw_bytes(max, x, k) / elem);
      std::set<std::vector<std::int64_t>> rows;
      for (int s = 0; s < P; ++s) {
        std::vector<std::int64_t> row;
        for (int d = 0; d < P; ++d)
          row.push_back(w->count(s, d));
        CHECK(std::multiset<std::int64_t>(row.begin(), row.end()) == expected);
        rows.insert(row);
      }
      // Shuffled per sender: at 40 ranks with distinct sizes, the senders' orders differ.
      if (P == 40 && x <= 0.95) CHECK(rows.size() > 30);
    }
  }
}

TEST_CASE("keyed permutation: a bijection of (0, n) for every n and key") {
  for (std::uint64_t n = 1; n <= 300; ++n) {
    for (std::uint64_t key : {0ull, 1ull, 17ull, 123456789ull}) {
      const a2a::workload_rng::KeyedPermutation perm(n, 42, key);
      std::vector<bool> hit(n, false);
      for (std::uint64_t x = 0; x < n; ++x) {
        const std::uint64_t y = perm(x);
        REQUIRE(y < n);
        CHECK_FALSE(hit[y]);
        hit[y] = true;
      }
    }
  }
  // Different keys give different permutations.
  const a2a::workload_rng::KeyedPermutation a(1000, 1, 0), b(1000, 1, 1), c(1000, 2, 0);
  int same_ab = 0, same_ac = 0;
  for (std::uint64_t x = 0; x < 1000; ++x) {
    same_ab += a(x) == b(x);
    same_ac += a(x) == c(x);
  }
  CHECK(same_ab < 20);
  CHECK(same_ac < 20);
}

TEST_CASE("workload fft_n1 and fft_n2: exact counts of Fan et al., HPDC 2025, §6.1 for P = 1..40") {
  for (int P = 1; P <= 40; ++P) {
    CAPTURE(P);
    // 0.625 and 0.78125 are exact binary fractions, so these ceilings are exact in double.
    const auto workers = static_cast<int>(std::ceil(0.625 * P));
    const auto targets = static_cast<int>(std::ceil(0.78125 * P));
    const Matrix n1 = matrix_of("fft_n1", P);
    const Matrix n2 = matrix_of("fft_n2", P);
    const Matrix n1_complex = matrix_of("fft_n1:elem=16", P);
    std::int64_t n1_total = 0, n2_total = 0;
    for (int s = 0; s < P; ++s) {
      for (int d = 0; d < P; ++d) {
        CHECK(n1[s][d] == (s < workers && d < targets ? 8 : 0));
        CHECK(n1_complex[s][d] == (s < workers && d < targets ? 4 : 0));
        CHECK(n2[s][d] == (d == P - 1 ? 16 : 64));
        n1_total += n1[s][d];
        n2_total += n2[s][d];
      }
    }
    // The paper's problem sizes: N1 = T·W·8 (as FP64 values, the unit of "8 FP64 values" per
    // block) and N2 = ((P − 1)·32 + 8)·P complex values, i.e. twice that in FP64 values.
    CHECK(n1_total == static_cast<std::int64_t>(targets) * workers * 8);
    CHECK(n2_total == 2 * (static_cast<std::int64_t>(P - 1) * 32 + 8) * P);
  }
}

TEST_CASE(
    "workload zhuang1..4: the formulas of Zhuang et al., IPSJ SIG-HPC 2009, §4 and equal totals "
    "per rank") {
  for (int P : {1, 2, 3, 4, 5, 6, 7, 8, 12, 16}) {
    const std::int64_t N = 64 * P * 3;  // a multiple of P, 4 and 2
    for (int which = 1; which <= 4; ++which) {
      CAPTURE(P);
      CAPTURE(which);
      const auto w = make_workload("zhuang" + std::to_string(which) + ":n=" + std::to_string(N), P);
      std::int64_t expected_total = 0;
      for (int d = 0; d < P; ++d) {
        // d < P/4 and d < P/2 as exact rationals; for P = 1, d = 0 = P − 1 takes the last case.
        std::int64_t c = 0;
        const bool last = d == P - 1;
        switch (which) {
          case 1:
            c = N / P;
            break;
          case 2:
            c = last ? N / 4 : (d < P / 4.0 ? 0 : N / P);
            break;
          case 3:
            c = last ? N / 2 : (d < P / 2.0 ? 0 : N / P);
            break;
          case 4:
            c = last ? N : 0;
            break;
        }
        expected_total += c;
        for (int s = 0; s < P; ++s)
          CHECK(w->count(s, (s + d) % P) == c);
      }
      const Matrix m = matrix_of(*w);
      for (int r = 0; r < P; ++r) {
        std::int64_t sent = 0, received = 0;
        for (int o = 0; o < P; ++o) {
          sent += m[r][o];
          received += m[o][r];
        }
        CHECK(sent == expected_total);
        CHECK(received == expected_total);
      }
      // Cases 1 and 4 move all N elements of a rank; cases 2 and 3 leave out the self block's
      // share (N/P) once P is large enough for it to fall in the empty range.
      if (which == 1 || which == 4) CHECK(expected_total == N);
      if (which == 2 && P % 4 == 0) CHECK(expected_total == N - N / P);
      if (which == 3 && P % 2 == 0 && P >= 2) CHECK(expected_total == N - N / P);
    }
  }
  // Default n = 64·P elements.
  CHECK(make_workload("zhuang1", 16)->count(3, 9) == 64);
  CHECK(make_workload("zhuang4", 16)->count(3, 2) == 64 * 16);
}

TEST_CASE("workload run sums and row maxima equal the block-by-block ones, every family") {
  std::vector<std::string> specs;
  for (const auto& info : a2a::workload_catalog()) {
    if (info.name != "matrix") specs.push_back(info.name);  // matrix needs a file
  }
  // Bounds of 2^32 - 1 elements and more take the scalar path of the vectorised sums.
  specs.push_back("uniform:max=1099511627776");
  specs.push_back("uniform:max=34359738368,elem=8");  // bound + 1 = 2^32 + 1: scalar
  specs.push_back("uniform:max=34359738360,elem=8");  // bound + 1 = 2^32: scalar
  specs.push_back("uniform:max=34359738352,elem=8");  // bound + 1 = 2^32 - 1: vectorised
  for (const auto& spec : specs) {
    for (int P : {1, 2, 3, 7, 16, 29}) {
      CAPTURE(spec);
      CAPTURE(P);
      const auto workload = a2a::make_workload(spec, P);
      for (int src = 0; src < P; ++src) {
        std::int64_t largest = 0;
        for (int d = 0; d < P; ++d)
          largest = std::max(largest, workload->count(src, d));
        CHECK(workload->row_max(src) == largest);
      }
      for (int src = 0; src < P; src += 3) {
        for (int dst = 0; dst < P; dst += 2) {
          for (int src_step : {0, 1 % P, P - 1, (P / 2) % P}) {
            for (int dst_step : {0, 1 % P, (P - 3 + 3 * P) % P}) {
              for (std::int64_t n : {0, 1, 5, 2 * P + 1}) {
                std::int64_t expected = 0;
                int s = src, d = dst;
                for (std::int64_t k = 0; k < n; ++k) {
                  expected += workload->count(s, d);
                  s = (s + src_step) % P;
                  d = (d + dst_step) % P;
                }
                CHECK(workload->run_count(src, dst, src_step, dst_step, n) == expected);
              }
            }
          }
        }
      }
    }
  }
}

namespace run_caches {

std::vector<std::uint64_t> row_keys(int P) {
  std::vector<std::uint64_t> rows(static_cast<size_t>(P));
  for (int s = 0; s < P; ++s)
    rows[static_cast<size_t>(s)] =
        a2a::workload_rng::row_key(0x5EED, static_cast<std::uint64_t>(s));
  return rows;
}

std::int64_t drawn(const std::vector<std::uint64_t>& rows, std::int64_t src, std::int64_t dst,
                   std::int64_t bound) {
  return a2a::workload_rng::below_or_equal(
      a2a::workload_rng::draw_in_row(rows[static_cast<size_t>(src)],
                                     static_cast<std::uint64_t>(dst)),
      bound);
}

}  // namespace run_caches

TEST_CASE("workload run caches: a residue class of the distance sums to its draws, both ways") {
  using a2a::workload_rng::DistanceResidueSums;
  for (const int P : {2, 3, 5, 16, 29, 64, 100, 257}) {
    const auto rows = run_caches::row_keys(P);
    for (const std::int64_t bound : {0, 7, 128}) {
      for (const int sign : {1, -1}) {
        CAPTURE(P);
        CAPTURE(bound);
        CAPTURE(sign);
        const DistanceResidueSums sums(rows, bound, sign);
        const std::int64_t M = sums.largest_modulus();
        REQUIRE(M >= 2);  // every P here has a cache, so the lookups below are exercised
        CHECK(M * M <= 4 * P);
        for (int src = 0; src < P; ++src) {
          for (std::int64_t m = 2; m <= M; m *= 2) {
            for (std::int64_t c = 0; c < m; ++c) {
              const std::int64_t n = (P - 1 - c) / m + 1;
              const std::int64_t dst = ((src + sign * c) % P + P) % P;
              std::int64_t expected = 0;
              for (std::int64_t k = 0; k < n; ++k)
                expected += run_caches::drawn(rows, src, ((dst + sign * k * m) % P + P) % P, bound);
              const auto got = sums.whole_class(src, dst, sign * m, n);
              REQUIRE(got.has_value());
              CHECK(*got == expected);
              // Not a whole class: a run one block short.
              CHECK_FALSE(sums.whole_class(src, dst, sign * m, n - 1).has_value());
            }
          }
          // A run starting beyond the class's smallest distance is not a whole class either.
          if (P > 2 * M) {
            const std::int64_t dst = ((src + sign * M) % P + P) % P;
            CHECK_FALSE(sums.whole_class(src, dst, sign * M, (P - 1 - M) / M + 1).has_value());
          }
        }
      }
    }
  }
  // Sums that could pass 32 bits are not cached.
  const auto rows = run_caches::row_keys(64);
  CHECK(DistanceResidueSums(rows, std::int64_t{1} << 26, 1).largest_modulus() == 0);
  CHECK(DistanceResidueSums(rows, (std::int64_t{1} << 26) - 2, 1).largest_modulus() == 16);
}

TEST_CASE("workload run caches: a long run down a column sums to its draws") {
  using a2a::workload_rng::ColumnPrefixSums;
  for (const int P : {256, 300, 1000}) {
    const auto rows = run_caches::row_keys(P);
    for (const std::int64_t bound : {0, 128}) {
      CAPTURE(P);
      CAPTURE(bound);
      const ColumnPrefixSums columns(rows, bound);
      REQUIRE(columns.block() == 64);
      for (int dst = 0; dst < P; dst += 7) {
        for (int src = 0; src < P; src += 13) {
          for (const std::int64_t n :
               {std::int64_t{127}, std::int64_t{128}, std::int64_t{200}, std::int64_t{P - src}}) {
            if (src + n > P) continue;
            std::int64_t expected = 0;
            for (std::int64_t k = 0; k < n; ++k)
              expected += run_caches::drawn(rows, src + k, dst, bound);
            const auto got = columns.run(src, dst, n);
            CHECK(got.has_value() == (n >= 128));
            if (got) CHECK(*got == expected);
          }
        }
      }
    }
  }
  const auto rows = run_caches::row_keys(255);
  CHECK(ColumnPrefixSums(rows, 128).block() == 0);  // too few ranks for two blocks in a run
  // So many ranks that even one block per column passes the budget: no cache (and no overflow
  // while looking for a block size).
  CHECK(ColumnPrefixSums::block_for((std::int64_t{1} << 27) + 1, 8) == 0);
  CHECK(ColumnPrefixSums::block_for(std::int64_t{1} << 17, 128) == 256);
}

TEST_CASE("workload run caches: Bruck-shaped runs of the uniform family equal the draws") {
  // Through Uniform::run_count, which picks the cache: rows that are whole residue classes in
  // both directions (steps m and P - m), rows that are not, and column runs up and down, aligned
  // to the column cache's blocks or not (P = 300: blocks of 64, runs of at most P/2 use them).
  const int P = 300;
  const auto workload = make_workload("uniform:max=1024", P);
  auto brute = [&](int src, int dst, int src_step, int dst_step, std::int64_t n) {
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < n; ++k)
      total += workload->count(static_cast<int>((src + k * src_step) % P),
                               static_cast<int>((dst + k * dst_step) % P));
    return total;
  };
  for (int src = 0; src < P; src += 7) {
    for (const int m : {2, 4, 8, 16, 32, 3}) {
      for (int c = 0; c < m; ++c) {
        const std::int64_t n = (P - 1 - c) / m + 1;
        for (const int dst : {(src + c) % P, ((src - c) % P + P) % P}) {
          for (const int step : {m, P - m}) {
            CAPTURE(src);
            CAPTURE(dst);
            CAPTURE(step);
            CAPTURE(n);
            CHECK(workload->run_count(src, dst, 0, step, n) == brute(src, dst, 0, step, n));
            CHECK(workload->run_count(src, dst, 0, step, n - 1) == brute(src, dst, 0, step, n - 1));
          }
        }
      }
    }
  }
  for (int dst = 0; dst < P; dst += 11) {
    for (int src = 0; src < P; src += 5) {
      for (const std::int64_t n : {std::int64_t{128}, std::int64_t{131}, std::int64_t{150},
                                   std::int64_t{151}, std::int64_t{299}}) {
        for (const int step : {1, P - 1}) {
          CAPTURE(src);
          CAPTURE(dst);
          CAPTURE(n);
          CAPTURE(step);
          CHECK(workload->run_count(src, dst, step, 0, n) == brute(src, dst, step, 0, n));
        }
      }
    }
  }
}

TEST_CASE("workload run caches: threads filling the same sources get the same sums") {
  const int P = 4096;
  const auto workload = make_workload("uniform:max=1024", P);
  // A Bruck round's row (modified orientation, period 2) and a late round's column, block by block.
  auto row = [&](int src) { return workload->run_count(src, src, 0, P - 2, P / 2); };
  // (in two halves: a run over more than half a column does not use the cache)
  auto column = [&](int dst) {
    return workload->run_count(0, dst, 1, 0, P / 2) + workload->run_count(P / 2, dst, 1, 0, P / 2);
  };
  std::vector<std::int64_t> expected_rows(P), expected_columns(P);
  for (int r = 0; r < P; ++r) {
    for (int k = 0; k < P / 2; ++k) {
      expected_rows[static_cast<size_t>(r)] += workload->count(r, ((r - 2 * k) % P + P) % P);
      expected_columns[static_cast<size_t>(r)] +=
          workload->count(k, r) + workload->count(k + P / 2, r);
    }
  }
  std::vector<std::int64_t> rows_a(P), rows_b(P), columns_a(P), columns_b(P);
  auto work = [&](std::vector<std::int64_t>& rows, std::vector<std::int64_t>& columns) {
    for (int r = 0; r < P; ++r) {
      rows[static_cast<size_t>(r)] = row(r);
      columns[static_cast<size_t>(r)] = column(r);
    }
  };
  std::thread other([&] { work(rows_a, columns_a); });
  work(rows_b, columns_b);
  other.join();
  CHECK(rows_a == expected_rows);
  CHECK(rows_b == expected_rows);
  CHECK(columns_a == expected_columns);
  CHECK(columns_b == expected_columns);
  CHECK(workload->cache_bytes() > 0);
}

TEST_CASE("workload flags: uniform() and balanced() match the whole matrix") {
  // Deterministic families: the flags are exact.
  const std::vector<std::string> exact = {
      "constant",
      "constant:size=0",
      "zero",
      "huge",
      "huge:small=0",
      "huge:size=8,small=8",
      "huge:size=8,small=15",
      "fft_n1",
      "fft_n1:elem=128",
      "fft_n2",
      "fft_n2:elem=256",
      "fft_n2:elem=1024",
      "zhuang1",
      "zhuang2",
      "zhuang3",
      "zhuang4",
      "zhuang4:n=0",
      "zhuang2:n=0",
      "powerlaw:x=1",
      "powerlaw:max=7",
      "powerlaw:x=0",
      "powerlaw:max=1024,x=0.9999,elem=512",
  };
  for (const auto& spec : exact) {
    for (int P = 1; P <= 20; ++P) {
      CAPTURE(spec);
      CAPTURE(P);
      auto w = make_workload(spec, P);
      const Matrix m = matrix_of(*w);
      CHECK(w->uniform() == all_blocks_equal(m));
      if (spec.rfind("powerlaw", 0) == 0) {
        // Balance of a non-uniform powerlaw depends on the shuffles: only "true" is promised.
        if (w->balanced()) CHECK(all_totals_equal(m));
      } else {
        CHECK(w->balanced() == all_totals_equal(m));
      }
    }
  }
  // Random families: true is always right, and is reported whenever the options force it.
  const std::vector<std::pair<std::string, bool>> random = {
      {"uniform", false},         {"uniform:max=7", true},          {"normal", false},
      {"normal:stddev=0", true},  {"normal:max=7", true},           {"sparse", false},
      {"sparse:density=0", true}, {"sparse:density=1,max=8", true}, {"powerlaw", false},
  };
  for (const auto& [spec, forced] : random) {
    for (int P = 1; P <= 20; ++P) {
      CAPTURE(spec);
      CAPTURE(P);
      auto w = make_workload(spec, P);
      const Matrix m = matrix_of(*w);
      if (w->uniform()) CHECK(all_blocks_equal(m));
      if (w->balanced()) CHECK(all_totals_equal(m));
      CHECK(w->uniform() == (forced || P == 1));
      CHECK(w->balanced() == (forced || P == 1));
    }
  }
}

TEST_CASE("workload errors: one clear InvalidParameter naming the option") {
  // Unknown family: the message lists the known ones.
  const std::string unknown = error_of("unifrom:max=3", 4);
  CHECK(contains(unknown, "unknown workload 'unifrom'"));
  for (const auto& info : a2a::workload_catalog())
    CHECK(contains(unknown, info.name));
  CHECK(contains(error_of("", 4), "unknown workload ''"));

  CHECK(error_of("uniform:max=-3", 4) == "workload uniform: option max=-3 must be >= 0");
  CHECK(error_of("uniform:max=1.5", 4) == "workload uniform: option max=1.5 must be an integer");
  CHECK(error_of("uniform:max=12kb", 4) == "workload uniform: option max=12kb must be an integer");
  CHECK(error_of("uniform:max=99999999999999999999", 4) ==
        "workload uniform: option max=99999999999999999999 is out of range [0, 1099511627776]");
  CHECK(error_of("uniform:max=2199023255552", 4) ==
        "workload uniform: option max=2199023255552 must be <= 1099511627776");
  CHECK(error_of("uniform:mx=3", 4) ==
        "workload uniform: unknown option 'mx' (options: max, elem, seed)");
  CHECK(error_of("zero:seed=3", 4) == "workload zero: unknown option 'seed' (options: elem)");
  CHECK(error_of("fft_n1:n=3", 4) == "workload fft_n1: unknown option 'n' (options: elem)");
  CHECK(error_of("uniform:max=3,max=4", 4) == "workload uniform: option max given twice");
  CHECK(error_of("uniform:max", 4) == "workload uniform: expected key=value, got 'max'");
  CHECK(error_of("uniform:max=", 4) == "workload uniform: expected key=value, got 'max='");
  CHECK(error_of("uniform:=3", 4) == "workload uniform: expected key=value, got '=3'");
  CHECK(error_of("uniform:max=3,", 4) == "workload uniform: expected key=value, got ''");
  CHECK(error_of("uniform:", 4) == "workload uniform: expected key=value, got ''");
  CHECK(error_of("uniform:elem=0", 4) == "workload uniform: option elem=0 must be >= 1");
  CHECK(error_of("uniform:seed=-1", 4) == "workload uniform: option seed=-1 must be >= 0");
  CHECK(error_of("uniform", 0) == "workload uniform: P=0 ranks, must be >= 1");
  CHECK(error_of("zero", -5) == "workload zero: P=-5 ranks, must be >= 1");

  CHECK(error_of("powerlaw:x=1.5", 4) == "workload powerlaw: option x=1.5 must be in [0, 1]");
  CHECK(error_of("powerlaw:x=-0.1", 4) == "workload powerlaw: option x=-0.1 must be in [0, 1]");
  CHECK(error_of("powerlaw:x=nan", 4) == "workload powerlaw: option x=nan must be a number");
  CHECK(error_of("powerlaw:x=inf", 4) == "workload powerlaw: option x=inf must be a number");
  CHECK(error_of("powerlaw:x=0.5q", 4) == "workload powerlaw: option x=0.5q must be a number");
  CHECK(error_of("sparse:density=2", 4) == "workload sparse: option density=2 must be in [0, 1]");
  CHECK(error_of("sparse:max=4", 4) ==
        "workload sparse: option max=4 must be >= elem=8 when density > 0 (a non-empty block "
        "holds at least one element)");
  CHECK(error_of("sparse:max=4,density=0", 4).empty());
  CHECK(error_of("normal:stddev=-1", 4) == "workload normal: option stddev=-1 must be >= 0");

  CHECK(error_of("huge:src=7", 7) == "workload huge: option src=7 must be <= 6 (P - 1)");
  CHECK(error_of("huge:dst=-1", 7) == "workload huge: option dst=-1 must be >= 0");

  CHECK(error_of("zhuang1:n=10", 4) ==
        "workload zhuang1: option n=10 must be a multiple of 4 for P = 4 (N/P must be whole)");
  CHECK(error_of("zhuang2:n=30", 6) ==
        "workload zhuang2: option n=30 must be a multiple of 12 for P = 6 (N/P and N/4 must be "
        "whole)");
  CHECK(error_of("zhuang3:n=3", 3) ==
        "workload zhuang3: option n=3 must be a multiple of 6 for P = 3 (N/P and N/2 must be "
        "whole)");
  CHECK(error_of("zhuang4:n=7", 3).empty());
  CHECK(error_of("zhuang2:n=-4", 4) == "workload zhuang2: option n=-4 must be >= 0");

  // Every error is an InvalidParameter (an a2a::Error).
  CHECK_THROWS_AS(make_workload("nope", 4), a2a::InvalidParameter);
  CHECK_THROWS_AS(make_workload("uniform:max=x", 4), a2a::Error);
}
