// Comm::isend_sizes_counted / irecv_sizes_counted: backends that carry sizes enumerate the list
// and must reject a count that does not match it (the scale engine trusts the count instead).
#include <doctest/doctest.h>

#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"

namespace a2a {
namespace {

// Records the blocks a metadata message lists; nothing else is used.
class ListingComm final : public Comm {
 public:
  std::vector<BlockId> listed;

  int rank() const override { return 0; }
  int size() const override { return 4; }
  int ranks_per_node() const override { return 1; }
  Bytes block_bytes(BlockId) const override { return 0; }
  Bytes max_send_block_bytes() const override { return 0; }
  std::optional<Bytes> uniform_block_bytes() const override { return std::nullopt; }
  Request isend(int, Pieces) override { return unused(); }
  Request irecv(int, Pieces) override { return unused(); }
  Request isend_sizes(int, BlockList blocks) override { return list(blocks); }
  Request irecv_sizes(int, BlockList blocks) override { return list(blocks); }
  Request isend_values(int, std::span<const std::int64_t>) override { return unused(); }
  Request irecv_values(int, std::span<std::int64_t>) override { return unused(); }
  void wait(Request) override {}
  void wait_all() override {}
  void copy(Moves) override {}
  int alloc_temp(Bytes) override { return 0; }
  void free_temp(int) override {}
  Bytes allreduce_max(Bytes value) override { return value; }
  void vendor_alltoallv() override {}
  void vendor_alltoall(int, int, Bytes) override {}
  void group_begin() override {}
  void group_end() override {}
  void set_phase(const char*) override {}
  void next_round() override {}

 private:
  Request list(BlockList blocks) {
    blocks([&](BlockId block) { listed.push_back(block); });
    return {0};
  }
  static Request unused() { throw ContractViolation("not used by this test"); }
};

const auto three_blocks = [](BlockSink out) {
  for (int d = 1; d <= 3; ++d)
    out({0, d});
};

}  // namespace

TEST_CASE("counted metadata forwards the list when the count matches") {
  ListingComm comm;
  comm.isend_sizes_counted(1, 3, three_blocks);
  comm.irecv_sizes_counted(2, 3, three_blocks);
  CHECK(comm.listed.size() == 6);
  CHECK(comm.listed[2] == BlockId{0, 3});
}

TEST_CASE("counted metadata with a wrong count is a contract violation") {
  ListingComm comm;
  CHECK_THROWS_AS(comm.isend_sizes_counted(1, 2, three_blocks), ContractViolation);
  CHECK_THROWS_AS(comm.irecv_sizes_counted(1, 4, three_blocks), ContractViolation);
}

}  // namespace a2a
