// The deterministic test workloads that come from no paper's figure:
// - constant: every block `size` bytes — an MPI_Alltoall (the uniform exchanges of
//   Fan et al., HPDC 2022, Sewell et al., HPCAsia 2024 and Netterville et al., HiPCW 2022).
// - zero: every block empty — the edge case of zero-byte messages that must still be matched on
//   both sides (Open MPI PR #12280; docs/references.md).
// - huge: one block (src -> dst) of `size` bytes, every other block `small` bytes. Our choice for
//   the others: small=8 (one FP64 value) by default, so every message still carries data and only
//   the skew differs; small=0 makes them empty. The case where "P × global largest block" scratch
//   (padded algorithms) is at its worst against a tight bound.
#include "workloads/workload_family.hpp"

namespace a2a::workload_detail {

namespace {

class Constant final : public FlaggedWorkload {
 public:
  Constant(int ranks, std::int64_t elem, std::string spec, std::int64_t count)
      : FlaggedWorkload(ranks, elem, std::move(spec), {.uniform = true, .balanced = true}),
        count_(count) {}
  std::int64_t count(int, int) const override { return count_; }

 private:
  std::int64_t count_;
};

std::unique_ptr<Workload> make_constant(OptionReader& options, int ranks) {
  const std::int64_t size = options.integer("size", 1024, 0, kMaxBytes);
  const std::int64_t elem = options.elem();
  return std::make_unique<Constant>(ranks, elem, options.finish(), size / elem);
}

std::unique_ptr<Workload> make_zero(OptionReader& options, int ranks) {
  const std::int64_t elem = options.elem();
  return std::make_unique<Constant>(ranks, elem, options.finish(), 0);
}

class Huge final : public FlaggedWorkload {
 public:
  Huge(int ranks, std::int64_t elem, std::string spec, int src, int dst, std::int64_t huge,
       std::int64_t small)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags(ranks, huge, small)),
        src_(src),
        dst_(dst),
        huge_(huge),
        small_(small) {}
  std::int64_t count(int src, int dst) const override {
    return src == src_ && dst == dst_ ? huge_ : small_;
  }

 private:
  // With P >= 2 the sender src has a row total differing from the others' unless huge == small.
  static Flags flags(int ranks, std::int64_t huge, std::int64_t small) {
    const bool same = ranks == 1 || huge == small;
    return {.uniform = same, .balanced = same};
  }

  int src_, dst_;
  std::int64_t huge_, small_;
};

std::unique_ptr<Workload> make_huge(OptionReader& options, int ranks) {
  const std::int64_t size = options.integer("size", std::int64_t{1} << 20, 0, kMaxBytes);
  const std::int64_t small = options.integer("small", 8, 0, kMaxBytes);
  const auto src = static_cast<int>(options.integer("src", 0, 0, ranks - 1, "P - 1"));
  const auto dst = static_cast<int>(options.integer("dst", ranks - 1, 0, ranks - 1, "P - 1"));
  const std::int64_t elem = options.elem();
  return std::make_unique<Huge>(ranks, elem, options.finish(), src, dst, size / elem, small / elem);
}

}  // namespace

std::vector<WorkloadFamily> simple_families() {
  return {
      {{.name = "constant",
        .options = "size=BYTES (1024), elem=BYTES (8)",
        .description = "every block the same size: an MPI_Alltoall",
        .source = "Fan et al., HPDC 2022, §4; Sewell et al., HPCAsia 2024; Netterville et al., "
                  "HiPCW 2022 (uniform all-to-all)"},
       make_constant},
      {{.name = "zero",
        .options = "elem=BYTES (8)",
        .description = "every block empty (zero-byte messages must still match on both sides)",
        .source = "edge case; Open MPI PR #12280"},
       make_zero},
      {{.name = "huge",
        .options = "size=BYTES (1048576), small=BYTES (8), src=RANK (0), dst=RANK (P-1), "
                   "elem=BYTES (8)",
        .description = "one block src->dst of size bytes, every other block small bytes",
        .source = "edge case: the largest block far above the rest (padding's worst case)"},
       make_huge},
  };
}

}  // namespace a2a::workload_detail
