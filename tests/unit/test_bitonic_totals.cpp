// bitonic_inplace's runtime totals check (Zhuang et al., IPSJ SIG-HPC 2009, §2: every rank sends
// and receives N): the two allreduce_max calls must let every rank pass, or make every rank throw
// InvalidParameter.
//
// The ranks run one after another on a fake Comm that plays allreduce_max collectively by replay:
// a rank that reaches a call whose result is not known yet records its contribution and stops;
// once every rank has stopped at that call, the result is the maximum and all ranks run again from
// the start. The first data movement after the check (the copy of the send blocks) ends a rank's
// run as "passed"; any other communication before it fails the test.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"
#include "algorithms/registry.hpp"

namespace a2a {
namespace {

using Matrix = std::vector<std::vector<Bytes>>;  // bytes[src][dst]

struct Pending {};  // stopped at an allreduce whose result is not known yet
struct Passed {};   // reached the first copy: the totals check let this rank through

class TotalsComm final : public Comm {
 public:
  TotalsComm(const Matrix& c, int rank, const std::vector<Bytes>& results)
      : c_(c), rank_(rank), results_(results) {}

  std::size_t calls() const { return calls_; }
  Bytes contribution() const { return contribution_; }

  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(c_.size()); }
  int ranks_per_node() const override { return 1; }
  Bytes block_bytes(BlockId b) const override {
    if (b.src != rank_ && b.dst != rank_) throw ContractViolation("size of a foreign block");
    return c_[b.src][b.dst];
  }
  Bytes max_send_block_bytes() const override {
    return *std::max_element(c_[rank_].begin(), c_[rank_].end());
  }
  std::optional<Bytes> uniform_block_bytes() const override { return std::nullopt; }
  Bytes allreduce_max(Bytes value) override {
    const std::size_t call = calls_++;
    if (call < results_.size()) return results_[call];
    contribution_ = value;
    throw Pending{};
  }
  void copy(Moves) override { throw Passed{}; }

  Request isend(int, Pieces) override { return unexpected(); }
  Request irecv(int, Pieces) override { return unexpected(); }
  Request isend_sizes(int, std::int64_t, BlockList) override { return unexpected(); }
  Request irecv_sizes(int, std::int64_t, BlockList) override { return unexpected(); }
  Request isend_values(int, std::span<const std::int64_t>) override { return unexpected(); }
  Request irecv_values(int, std::span<std::int64_t>) override { return unexpected(); }
  void wait(Request) override { unexpected(); }
  void wait_all() override { unexpected(); }
  int alloc_temp(Bytes) override { return unexpected().id; }
  void free_temp(int) override { unexpected(); }
  void barrier() override { unexpected(); }
  void vendor_alltoallv() override { unexpected(); }
  void vendor_alltoall(int, int, Bytes) override { unexpected(); }
  void group_begin() override {}
  void group_end() override {}
  void set_phase(const char*) override {}
  void next_round() override {}

 private:
  static Request unexpected() { throw std::logic_error("communication before the totals check"); }

  const Matrix& c_;
  int rank_;
  const std::vector<Bytes>& results_;
  std::size_t calls_ = 0;
  Bytes contribution_ = 0;
};

enum class Outcome { passed, invalid };

// Every rank's outcome; fails the test unless the allreduce calls were collective.
std::vector<Outcome> run_totals(const Matrix& c) {
  const AlgorithmInfo& info = find_algorithm("bitonic_inplace");
  Params params;
  params.set("chunk", 65536);
  const int P = static_cast<int>(c.size());
  std::vector<Bytes> results;
  for (;;) {
    std::vector<Outcome> outcomes;
    std::vector<Bytes> contributions;
    std::vector<std::size_t> calls;
    for (int r = 0; r < P; ++r) {
      TotalsComm comm(c, r, results);
      try {
        info.run(comm, params);
        FAIL("bitonic_inplace returned without moving its send blocks");
      } catch (const Pending&) {
        contributions.push_back(comm.contribution());
      } catch (const Passed&) {
        outcomes.push_back(Outcome::passed);
      } catch (const InvalidParameter& e) {
        CHECK(std::string(e.what()).find("same total") != std::string::npos);
        outcomes.push_back(Outcome::invalid);
      }
      calls.push_back(comm.calls());
    }
    // Collective: nobody finishes while another rank waits in an allreduce.
    if (contributions.empty()) {
      CHECK(std::count(calls.begin(), calls.end(), calls[0]) == P);
      return outcomes;
    }
    REQUIRE(static_cast<int>(contributions.size()) == P);
    results.push_back(*std::max_element(contributions.begin(), contributions.end()));
  }
}

bool all(const std::vector<Outcome>& outcomes, Outcome o) {
  return !outcomes.empty() && std::count(outcomes.begin(), outcomes.end(), o) ==
                                  static_cast<std::ptrdiff_t>(outcomes.size());
}

TEST_CASE("bitonic_inplace totals check: balanced exchanges pass on every rank") {
  CHECK(all(run_totals({{5}}), Outcome::passed));
  CHECK(all(run_totals({{1, 2}, {2, 1}}), Outcome::passed));
  CHECK(all(run_totals({{0, 0}, {0, 0}}), Outcome::passed));
  CHECK(all(run_totals({{0, 3, 0, 1}, {1, 0, 3, 0}, {0, 1, 0, 3}, {3, 0, 1, 0}}), Outcome::passed));
}

TEST_CASE("bitonic_inplace totals check: unbalanced exchanges throw on every rank") {
  // One rank sends more than the others.
  CHECK(all(run_totals({{1, 2}, {2, 2}}), Outcome::invalid));
  // Every rank sends 2, but rank 0 receives 4 and rank 1 nothing.
  CHECK(all(run_totals({{2, 0}, {2, 0}}), Outcome::invalid));
  // Every rank sends 24 bytes, but rank 2 receives 25 and rank 3 receives 23.
  Matrix c(8, std::vector<Bytes>(8, 3));
  c[5][2] = 4;
  c[5][3] = 2;
  CHECK(all(run_totals(c), Outcome::invalid));
}

}  // namespace
}  // namespace a2a
