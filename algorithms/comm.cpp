#include "algorithms/comm.hpp"

#include <string>

#include "algorithms/errors.hpp"

namespace a2a {

void list_counted(std::int64_t count, BlockList blocks, BlockSink out) {
  std::int64_t listed = 0;
  blocks([&](BlockId block) {
    ++listed;
    out(block);
  });
  if (listed != count) {
    throw ContractViolation("a metadata message said " + std::to_string(count) +
                            " blocks but listed " + std::to_string(listed));
  }
}

}  // namespace a2a
