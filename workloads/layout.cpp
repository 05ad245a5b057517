#include "workloads/layout.hpp"

#include <algorithm>

namespace a2a {

const char* layout_name(LayoutStyle style) {
  return style == LayoutStyle::gaps ? "gaps" : "packed";
}

namespace {

// Position of each peer's block in buffer order, and the gap (elements) before it.
void place_blocks(const std::vector<std::int64_t>& counts, int rank, LayoutStyle style,
                  std::vector<std::int64_t>& displs) {
  const int P = static_cast<int>(counts.size());
  displs.assign(P, 0);
  std::int64_t offset = 0;
  for (int i = 0; i < P; ++i) {
    // gaps: reverse order rotated by the rank, so neither rank order nor a fixed permutation.
    const int peer = style == LayoutStyle::packed ? i : (2 * P - 1 - i + rank) % P;
    if (style == LayoutStyle::gaps) offset += 1 + (i * 7 + rank) % 3;
    displs[peer] = offset;
    offset += counts[peer];
  }
}

}  // namespace

ExchangeLayout make_layout(const Workload& workload, int rank, LayoutStyle style) {
  const int P = workload.ranks();
  ExchangeLayout layout;
  layout.extent = workload.element_bytes();
  layout.sendcounts.resize(P);
  layout.recvcounts.resize(P);
  for (int peer = 0; peer < P; ++peer) {
    layout.sendcounts[peer] = workload.count(rank, peer);
    layout.recvcounts[peer] = workload.count(peer, rank);
  }
  place_blocks(layout.sendcounts, rank, style, layout.sdispls);
  place_blocks(layout.recvcounts, rank + 1, style, layout.rdispls);
  if (workload.uniform()) layout.uniform_block = workload.count(0, 0) * layout.extent;
  return layout;
}

ExchangeBuffers make_buffers(const ExchangeLayout& layout, int rank) {
  const int P = layout.ranks();
  ExchangeBuffers buffers;
  buffers.send.assign(static_cast<size_t>(layout.send_buffer_bytes()), kSentinel);
  buffers.expected.assign(static_cast<size_t>(layout.recv_buffer_bytes()), kSentinel);
  for (int peer = 0; peer < P; ++peer) {
    std::byte* out = buffers.send.data() + layout.sdispls[peer] * layout.extent;
    for (std::int64_t k = 0; k < layout.send_bytes(peer); ++k) {
      out[k] = std::byte{pattern_byte(rank, peer, k)};
    }
    std::byte* in = buffers.expected.data() + layout.rdispls[peer] * layout.extent;
    for (std::int64_t k = 0; k < layout.recv_bytes(peer); ++k) {
      in[k] = std::byte{pattern_byte(peer, rank, k)};
    }
  }
  reset_receive(buffers);
  return buffers;
}

void reset_receive(ExchangeBuffers& buffers) {
  buffers.recv.assign(buffers.expected.size(), kSentinel);
}

std::string describe_mismatch(const ExchangeLayout& layout, const std::vector<std::byte>& expected,
                              const std::vector<std::byte>& got) {
  if (got.size() != expected.size()) return "receive buffer changed size";
  if (got == expected) return {};  // (memcmp of an empty buffer's null data() is undefined)
  size_t at = 0;
  while (got[at] == expected[at])
    ++at;
  size_t wrong = 0;
  for (size_t i = 0; i < got.size(); ++i)
    wrong += got[i] != expected[i];
  std::string where = "a gap byte";
  const auto byte_offset = static_cast<std::int64_t>(at);
  for (int src = 0; src < layout.ranks(); ++src) {
    const std::int64_t begin = layout.rdispls[src] * layout.extent;
    if (byte_offset >= begin && byte_offset < begin + layout.recv_bytes(src)) {
      where = "block from rank " + std::to_string(src) + " offset " +
              std::to_string(byte_offset - begin);
    }
  }
  return std::to_string(wrong) + " wrong bytes; first at buffer offset " + std::to_string(at) +
         " (" + where + "): expected " + std::to_string(static_cast<int>(expected[at])) +
         ", found " + std::to_string(static_cast<int>(got[at]));
}

}  // namespace a2a
