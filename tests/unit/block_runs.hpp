// Test helpers: a BlockRun (algorithms/comm.hpp) expanded block by block, stepping modulo P; sets
// of block identities.
#pragma once

#include <cstdint>
#include <set>
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

// Blocks by source, then destination: for std::set.
struct BlockOrder {
  bool operator()(BlockId a, BlockId b) const {
    return a.src != b.src ? a.src < b.src : a.dst < b.dst;
  }
};
using BlockSet = std::set<BlockId, BlockOrder>;

}  // namespace a2a::test
