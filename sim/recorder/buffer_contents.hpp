// Which bytes of which block sit where in one buffer of one rank: the recorder's model of memory
// (docs/viewer.md, "How the recording works"). A buffer is a sequence of segments, each a run of
// bytes [block_offset, block_offset + bytes) of one block (src -> dst); bytes nobody wrote (a fresh
// temporary, the padding of a padded block) are holes. The viewer's JavaScript keeps the same
// model.
#pragma once

#include <map>
#include <vector>

#include "algorithms/comm.hpp"

namespace a2a::sim::recorder {

struct Segment {
  int src = -1;  // -1: a hole (no block's bytes)
  int dst = -1;
  Bytes block_offset = 0;
  Bytes bytes = 0;

  bool hole() const { return src < 0; }
  // True when `next` is the bytes that follow this segment in the same block (or both are holes).
  bool continued_by(const Segment& next) const {
    return src == next.src && dst == next.dst &&
           (hole() || next.block_offset == block_offset + bytes);
  }
  friend bool operator==(const Segment&, const Segment&) = default;
};
using Segments = std::vector<Segment>;

// Appends `segment` to `out`, merging it into the last one when it continues it.
void append(Segments& out, const Segment& segment);
// Bytes [offset, offset + bytes) of a sequence of segments laid end to end.
Segments slice(const Segments& segments, Bytes offset, Bytes bytes);
Bytes total_bytes(const Segments& segments);

class BufferContents {
 public:
  explicit BufferContents(Bytes size = 0) : size_(size) {}
  Bytes size() const { return size_; }
  // The bytes [offset, offset + bytes), holes included, merged.
  Segments read(Bytes offset, Bytes bytes) const;
  // Overwrites [offset, offset + total_bytes(segments)); holes erase what was there.
  void write(Bytes offset, const Segments& segments);
  // The non-hole segments by buffer offset.
  const std::map<Bytes, Segment>& runs() const { return runs_; }

 private:
  // Removes [from, to), cutting the segments that straddle either end.
  void erase(Bytes from, Bytes to);

  Bytes size_;
  std::map<Bytes, Segment> runs_;
};

}  // namespace a2a::sim::recorder
