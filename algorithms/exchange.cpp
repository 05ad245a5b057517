#include "algorithms/exchange.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "algorithms/errors.hpp"

namespace a2a {

namespace {

Bytes buffer_end(const std::vector<std::int64_t>& counts, const std::vector<std::int64_t>& displs,
                 std::int64_t extent) {
  Bytes end = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0) end = std::max(end, (displs[i] + counts[i]) * extent);
  }
  return end;
}

void check_no_overlap(const std::vector<std::int64_t>& counts,
                      const std::vector<std::int64_t>& displs, const char* which, int rank) {
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] > 0) spans.emplace_back(displs[i], displs[i] + counts[i]);
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].first < spans[i - 1].second) {
      throw InvalidParameter(std::string(which) + " blocks overlap on rank " +
                             std::to_string(rank) + " (displacement " +
                             std::to_string(spans[i].first) + ")");
    }
  }
}

std::string place_text(Place place) {
  switch (place.area) {
    case Place::Area::send_block:
      return "send block " + std::to_string(place.index);
    case Place::Area::recv_block:
      return "receive block " + std::to_string(place.index);
    case Place::Area::temp:
      return "temp buffer " + std::to_string(place.index);
    case Place::Area::recv_buffer:
      return "receive buffer";
  }
  return "?";
}

}  // namespace

Bytes ExchangeLayout::send_buffer_bytes() const {
  return buffer_end(sendcounts, sdispls, extent);
}
Bytes ExchangeLayout::recv_buffer_bytes() const {
  return buffer_end(recvcounts, rdispls, extent);
}

void validate_layout(const ExchangeLayout& layout, int rank) {
  const std::size_t P = layout.sendcounts.size();
  if (layout.sdispls.size() != P || layout.recvcounts.size() != P || layout.rdispls.size() != P) {
    throw InvalidParameter("count and displacement arrays differ in length on rank " +
                           std::to_string(rank));
  }
  if (layout.extent <= 0) {
    throw InvalidParameter("element extent must be positive, got " + std::to_string(layout.extent));
  }
  for (std::size_t i = 0; i < P; ++i) {
    auto bad = [&](const char* name, std::int64_t v) {
      if (v < 0) {
        throw InvalidParameter(std::string(name) + "[" + std::to_string(i) + "] = " +
                               std::to_string(v) + " is negative on rank " + std::to_string(rank));
      }
    };
    bad("sendcounts", layout.sendcounts[i]);
    bad("sdispls", layout.sdispls[i]);
    bad("recvcounts", layout.recvcounts[i]);
    bad("rdispls", layout.rdispls[i]);
  }
  check_no_overlap(layout.recvcounts, layout.rdispls, "receive", rank);
}

Bytes KnownSizes::get(BlockId block) const {
  if (block.src == rank_) return layout_.send_bytes(block.dst);
  if (block.dst == rank_) return layout_.recv_bytes(block.src);
  auto it = learned_.find(key(block));
  if (it == learned_.end()) {
    throw ContractViolation("rank " + std::to_string(rank_) + " asked the size of block " +
                            std::to_string(block.src) + "->" + std::to_string(block.dst) +
                            " before any metadata carried it");
  }
  return it->second;
}

void KnownSizes::learn(BlockId block, Bytes bytes) {
  if (bytes < 0) {
    throw ContractViolation("negative size received for block " + std::to_string(block.src) + "->" +
                            std::to_string(block.dst));
  }
  if (block.src == rank_ || block.dst == rank_) {
    // The rank's own view (its count arrays) wins; a disagreement means the caller's counts are
    // inconsistent between ranks.
    Bytes own = get(block);
    if (own != bytes) {
      throw InvalidParameter("counts disagree: rank " + std::to_string(rank_) + " has " +
                             std::to_string(own) + " bytes for block " + std::to_string(block.src) +
                             "->" + std::to_string(block.dst) + " but a peer announced " +
                             std::to_string(bytes));
    }
    return;
  }
  learned_[key(block)] = bytes;
}

PayloadBuffers::PayloadBuffers(const ExchangeLayout& layout, const std::byte* send, std::byte* recv,
                               RunStats& stats, TempPool* pool)
    : layout_(layout), send_(send), recv_(recv), stats_(stats), pool_(pool) {}

Bytes PayloadBuffers::area_bytes(Place place) const {
  const int P = layout_.ranks();
  switch (place.area) {
    case Place::Area::send_block:
      if (place.index < 0 || place.index >= P) break;
      return layout_.send_bytes(place.index);
    case Place::Area::recv_block:
      if (place.index < 0 || place.index >= P) break;
      return layout_.recv_bytes(place.index);
    case Place::Area::temp:
      if (place.index < 0 || place.index >= static_cast<int>(temps_.size()) ||
          !temps_[place.index]) {
        break;
      }
      return temp_sizes_[place.index];
    case Place::Area::recv_buffer:
      return layout_.recv_buffer_bytes();
  }
  throw ContractViolation("no such " + place_text(place));
}

std::byte* PayloadBuffers::address(Place place, Bytes bytes) const {
  const Bytes size = area_bytes(place);
  if (place.offset < 0 || bytes < 0 || place.offset + bytes > size) {
    throw ContractViolation("access of " + std::to_string(bytes) + " bytes at offset " +
                            std::to_string(place.offset) + " runs past " + place_text(place) +
                            " (" + std::to_string(size) + " bytes)");
  }
  switch (place.area) {
    case Place::Area::send_block:
      return const_cast<std::byte*>(send_) + layout_.sdispls[place.index] * layout_.extent +
             place.offset;
    case Place::Area::recv_block:
      return recv_ + layout_.rdispls[place.index] * layout_.extent + place.offset;
    case Place::Area::temp:
      return temps_[place.index].data() + place.offset;
    case Place::Area::recv_buffer:
      return recv_ + place.offset;
  }
  return nullptr;
}

const std::byte* PayloadBuffers::readable(Place place, Bytes bytes) const {
  return address(place, bytes);
}

std::byte* PayloadBuffers::writable(Place place, Bytes bytes) {
  if (place.area == Place::Area::send_block) {
    throw ContractViolation("an algorithm tried to write the send buffer (" + place_text(place) +
                            ")");
  }
  return address(place, bytes);
}

int PayloadBuffers::alloc_temp(Bytes bytes) {
  if (bytes < 0) throw ContractViolation("negative temporary buffer size");
  int id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = static_cast<int>(temps_.size());
    temps_.emplace_back();
    temp_sizes_.push_back(0);
  }
  // Not zeroed: algorithms never read bytes they did not write (padding travels but is never
  // copied into a receive block).
  temps_[id] = pool_ ? pool_->acquire(bytes) : TempPool::heap(bytes);
  temp_sizes_[id] = bytes;
  temp_in_use_ += bytes;
  stats_.temp_peak = std::max(stats_.temp_peak, temp_in_use_);
  return id;
}

void PayloadBuffers::free_temp(int buffer) {
  if (buffer < 0 || buffer >= static_cast<int>(temps_.size()) || !temps_[buffer]) return;
  temps_[buffer] = TempLease();
  temp_in_use_ -= temp_sizes_[buffer];
  temp_sizes_[buffer] = 0;
  free_ids_.push_back(buffer);
}

Bytes PayloadBuffers::temp_bytes(int buffer) const {
  return area_bytes(Place::temp(buffer, 0));
}

Bytes PayloadBuffers::pack(Pieces pieces, std::vector<std::byte>& out) const {
  out.clear();
  pieces([&](const Piece& piece) {
    const std::byte* from = readable(piece.at, piece.bytes);
    out.insert(out.end(), from, from + piece.bytes);
  });
  return static_cast<Bytes>(out.size());
}

Bytes PayloadBuffers::collect(Pieces pieces, std::vector<Piece>& out) {
  out.clear();
  Bytes total = 0;
  pieces([&](const Piece& piece) {
    out.push_back(piece);
    total += piece.bytes;
  });
  return total;
}

void PayloadBuffers::unpack(const std::vector<Piece>& pieces, const std::byte* data) {
  for (const Piece& piece : pieces) {
    std::byte* to = writable(piece.at, piece.bytes);
    // An empty message's data (and an empty buffer's) may be null: memcpy must not see it.
    if (piece.bytes > 0) std::memcpy(to, data, static_cast<std::size_t>(piece.bytes));
    data += piece.bytes;
  }
}

Bytes PayloadBuffers::copy(Moves moves) {
  Bytes total = 0;
  moves([&](const Move& move) {
    const std::byte* from = readable(move.from, move.bytes);
    std::byte* to = writable(move.to, move.bytes);
    if (move.bytes > 0) std::memmove(to, from, static_cast<std::size_t>(move.bytes));
    total += move.bytes;
  });
  return total;
}

}  // namespace a2a
