// list_counted (algorithms/comm.hpp): backends that carry the sizes of a metadata message
// enumerate its list through it, and a count that does not match the list is a contract violation
// (the scale engine trusts the count instead, unless simulation.check_sizes asks).
#include <doctest/doctest.h>

#include <vector>

#include "algorithms/comm.hpp"
#include "algorithms/errors.hpp"

namespace a2a {
namespace {

const auto three_blocks = [](BlockSink out) {
  for (int d = 1; d <= 3; ++d)
    out({0, d});
};

}  // namespace

TEST_CASE("a counted metadata list is forwarded block by block when the count matches") {
  std::vector<BlockId> listed;
  list_counted(3, three_blocks, [&](BlockId block) { listed.push_back(block); });
  CHECK(listed.size() == 3);
  CHECK(listed[2] == BlockId{0, 3});
}

TEST_CASE("a counted metadata list with a wrong count is a contract violation") {
  const auto ignore = [](BlockId) {};
  CHECK_THROWS_AS(list_counted(2, three_blocks, ignore), ContractViolation);
  CHECK_THROWS_AS(list_counted(4, three_blocks, ignore), ContractViolation);
}

}  // namespace a2a
