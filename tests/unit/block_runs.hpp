// Test helper: a BlockRun (algorithms/comm.hpp) expanded block by block, stepping modulo P.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/comm.hpp"

namespace a2a::test {

inline void expand(int P, const BlockRun& run, std::vector<BlockId>& out) {
  BlockId block = run.first;
  for (std::int64_t k = 0; k < run.count; ++k) {
    out.push_back(block);
    block = {(block.src + run.src_step) % P, (block.dst + run.dst_step) % P};
  }
}

}  // namespace a2a::test
