#include "algorithms/comm.hpp"

#include <string>

#include "algorithms/errors.hpp"

namespace a2a {

namespace {

// Forwards `blocks` and checks it lists exactly `count` blocks.
template <typename Post>
Request counted(std::int64_t count, BlockList blocks, Post&& post) {
  return post([&](BlockSink out) {
    std::int64_t listed = 0;
    blocks([&](BlockId block) {
      ++listed;
      out(block);
    });
    if (listed != count) {
      throw ContractViolation("a metadata message said " + std::to_string(count) +
                              " blocks but listed " + std::to_string(listed));
    }
  });
}

}  // namespace

Request Comm::isend_sizes_counted(int peer, std::int64_t count, BlockList blocks) {
  return counted(count, blocks, [&](BlockList list) { return isend_sizes(peer, list); });
}

Request Comm::irecv_sizes_counted(int peer, std::int64_t count, BlockList blocks) {
  return counted(count, blocks, [&](BlockList list) { return irecv_sizes(peer, list); });
}

}  // namespace a2a
