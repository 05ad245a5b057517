// fft_n1, fft_n2 — Fan et al., HPDC 2025, §6.1: the all-to-all of an FFTW3 transpose for two
// problem sizes N (fftw_complex values, two FP64 each) that are not multiples of P².
// - N1 = ⌈0.78125·P⌉·⌈0.625·P⌉·8: ranks below W = ⌈0.625·P⌉ are workers; each worker sends
//   8 FP64 values (64 bytes) to each of the first T = ⌈0.78125·P⌉ ranks and nothing else; every
//   other block is empty. 0.625 = 5/8 and 0.78125 = 25/32, so W = ⌊(5P + 7)/8⌋ and
//   T = ⌊(25P + 31)/32⌋ in integers.
// - N2 = ((P − 1)·32 + 8)·P: "each process (except the last) transmits 64 FP64 values, and the last
//   one transmits 16". Our reading (docs/workloads.md): every block holds 64 FP64 values (512
//   bytes) except the blocks sent to the last rank, which hold 16 (128 bytes) — so a rank sends (P
//   − 1)·32 + 8 complex values, N2/P, as the formula says.
// Sizes are in bytes (FP64 = 8) and floored to whole elements of elem bytes like every workload.
#include "workloads/workload_family.hpp"

namespace a2a::workload_detail {

namespace {

constexpr std::int64_t kFp64 = 8;

class FftN1 final : public FlaggedWorkload {
 public:
  FftN1(int ranks, std::int64_t elem, std::string spec)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags(ranks, elem)),
        workers_(workers(ranks)),
        targets_(targets(ranks)),
        block_(8 * kFp64 / elem) {}
  std::int64_t count(int src, int dst) const override {
    return src < workers_ && dst < targets_ ? block_ : 0;
  }

  static std::int64_t workers(std::int64_t P) { return (5 * P + 7) / 8; }     // ⌈0.625·P⌉
  static std::int64_t targets(std::int64_t P) { return (25 * P + 31) / 32; }  // ⌈0.78125·P⌉

 private:
  // With blocks of b > 0 elements, a non-worker sends nothing and a non-target receives nothing
  // while the others do: uniform and balanced exactly when everyone is both (P <= 2) or b = 0.
  static Flags flags(int ranks, std::int64_t elem) {
    const bool same = 8 * kFp64 / elem == 0 || (workers(ranks) == ranks && targets(ranks) == ranks);
    return {.uniform = same, .balanced = same};
  }

  std::int64_t workers_, targets_, block_;
};

class FftN2 final : public FlaggedWorkload {
 public:
  FftN2(int ranks, std::int64_t elem, std::string spec)
      : FlaggedWorkload(ranks, elem, std::move(spec), flags(ranks, elem)),
        block_(64 * kFp64 / elem),
        last_block_(16 * kFp64 / elem) {}
  std::int64_t count(int, int dst) const override {
    return dst == ranks() - 1 ? last_block_ : block_;
  }

 private:
  // Every rank sends the same row; the last rank receives P small blocks, the others P large ones.
  static Flags flags(int ranks, std::int64_t elem) {
    const bool same = ranks == 1 || 64 * kFp64 / elem == 16 * kFp64 / elem;
    return {.uniform = same, .balanced = same};
  }

  std::int64_t block_, last_block_;
};

template <class Fft>
std::unique_ptr<Workload> make_fft(OptionReader& options, int ranks) {
  const std::int64_t elem = options.elem();
  return std::make_unique<Fft>(ranks, elem, options.finish());
}

}  // namespace

std::vector<WorkloadFamily> fft_families() {
  return {
      {{.name = "fft_n1",
        .options = "elem=BYTES (8)",
        .description = "FFTW transpose, N1: ceil(0.625P) workers send 8 FP64 to each of the first "
                       "ceil(0.78125P) ranks",
        .source = "Fan et al., HPDC 2025, §6.1"},
       make_fft<FftN1>},
      {{.name = "fft_n2",
        .options = "elem=BYTES (8)",
        .description = "FFTW transpose, N2: blocks of 64 FP64, 16 to the last rank",
        .source = "Fan et al., HPDC 2025, §6.1"},
       make_fft<FftN2>},
  };
}

}  // namespace a2a::workload_detail
