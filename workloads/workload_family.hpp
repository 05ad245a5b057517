// What the workload families share: the option reader that validates "key=value" options and
// writes the canonical spec, the base class holding the uniform/balanced flags, and the list of
// families each source file contributes to the catalog (workload.cpp puts them together).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "workloads/workload.hpp"

namespace a2a::workload_detail {

// Largest size any option may give, in bytes (and largest per-rank element count for zhuang):
// 1 TiB. Keeps every block, and a rank's total over 2^21 ranks, inside a 64-bit byte count.
inline constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;
// Largest element size: 1 GiB.
inline constexpr std::int64_t kMaxElementBytes = std::int64_t{1} << 30;

// Reads one family's options. Each read names the option, its default and its range; the reads'
// order is the canonical spec's order. finish() rejects options the family never read (unknown
// keys) and returns the canonical spec with every default filled in.
class OptionReader {
 public:
  OptionReader(std::string family, std::vector<std::pair<std::string, std::string>> given);

  // An integer option in [min, max]; `max_label` (e.g. "P - 1") explains max in the error.
  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                       std::int64_t max, std::string_view max_label = {});
  // A real option in [min, max] (finite).
  double real(std::string_view key, double fallback, double min, double max);
  // A text option taken as given (e.g. a file path); `fallback` when absent ("" = not given).
  std::string text(std::string_view key, std::string_view fallback);
  // A text option that must be one of `choices`, which the error lists.
  std::string choice(std::string_view key, std::string_view fallback,
                     std::initializer_list<std::string_view> choices);
  // The common options: elem=BYTES per element (8, FP64) and seed=N (1).
  std::int64_t elem() { return integer("elem", 8, 1, kMaxElementBytes); }
  std::uint64_t seed() { return static_cast<std::uint64_t>(integer("seed", 1, 0, INT64_MAX)); }

  // Throws for a given option that no read asked for; returns "name:key=value,...".
  std::string finish() const;
  // Throws InvalidParameter("workload NAME: what").
  [[noreturn]] void fail(const std::string& what) const;

 private:
  struct Given {
    std::string key, value;
    bool read = false;
  };
  const Given* take(std::string_view key);
  void record(std::string_view key, const std::string& value);

  std::string family_;
  std::vector<Given> given_;
  std::vector<std::string> known_keys_;
  std::string canonical_options_;
};

// Base of every family's workload: the flags are decided once, at construction.
class FlaggedWorkload : public Workload {
 public:
  struct Flags {
    bool uniform = false;
    bool balanced = false;
  };
  bool uniform() const override { return uniform_; }
  bool balanced() const override { return balanced_; }

 protected:
  FlaggedWorkload(int ranks, std::int64_t element_bytes, std::string spec, Flags flags)
      : Workload(ranks, element_bytes, std::move(spec)),
        uniform_(flags.uniform),
        balanced_(flags.balanced) {}

 private:
  bool uniform_;
  bool balanced_;
};

struct WorkloadFamily {
  WorkloadInfo info;
  std::unique_ptr<Workload> (*make)(OptionReader& options, int ranks);
};

// The families of each source file, in catalog order.
std::vector<WorkloadFamily> simple_families();    // simple.cpp: constant, zero, huge
std::vector<WorkloadFamily> random_families();    // random_sizes.cpp: uniform, normal, sparse
std::vector<WorkloadFamily> powerlaw_families();  // powerlaw.cpp: powerlaw
std::vector<WorkloadFamily> fft_families();       // fft.cpp: fft_n1, fft_n2
std::vector<WorkloadFamily> zhuang_families();    // zhuang.cpp: zhuang1..zhuang4
std::vector<WorkloadFamily> matrix_families();    // matrix.cpp: matrix (from a file)

}  // namespace a2a::workload_detail
