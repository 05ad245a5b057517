#include "sim/recorder/buffer_contents.hpp"

#include <algorithm>
#include <iterator>

namespace a2a::sim::recorder {

namespace {

// The part of `s` from `skip` bytes on, `bytes` long.
Segment part(const Segment& s, Bytes skip, Bytes bytes) {
  Segment out = s;
  if (!s.hole()) out.block_offset += skip;
  out.bytes = bytes;
  return out;
}

}  // namespace

void append(Segments& out, const Segment& segment) {
  if (segment.bytes <= 0) return;
  if (!out.empty() && out.back().continued_by(segment)) {
    out.back().bytes += segment.bytes;
    return;
  }
  out.push_back(segment);
}

Segments slice(const Segments& segments, Bytes offset, Bytes bytes) {
  Segments out;
  Bytes at = 0;
  for (const Segment& s : segments) {
    const Bytes from = std::max(offset, at);
    const Bytes to = std::min(offset + bytes, at + s.bytes);
    if (from < to) append(out, part(s, from - at, to - from));
    at += s.bytes;
  }
  if (at < offset + bytes) {  // past the end: holes, so the length is always `bytes`
    append(out, {-1, -1, 0, offset + bytes - std::max(at, offset)});
  }
  return out;
}

Bytes total_bytes(const Segments& segments) {
  Bytes total = 0;
  for (const Segment& s : segments)
    total += s.bytes;
  return total;
}

Segments BufferContents::read(Bytes offset, Bytes bytes) const {
  Segments out;
  const Bytes end = offset + bytes;
  Bytes at = offset;
  auto it = runs_.upper_bound(offset);
  if (it != runs_.begin()) --it;
  for (; it != runs_.end() && it->first < end; ++it) {
    const Bytes start = it->first;
    const Bytes stop = start + it->second.bytes;
    if (stop <= at) continue;
    if (start > at) append(out, {-1, -1, 0, start - at});
    const Bytes from = std::max(start, at);
    const Bytes to = std::min(stop, end);
    append(out, part(it->second, from - start, to - from));
    at = to;
  }
  if (at < end) append(out, {-1, -1, 0, end - at});
  return out;
}

void BufferContents::erase(Bytes from, Bytes to) {
  auto it = runs_.upper_bound(from);
  if (it != runs_.begin() && std::prev(it)->first + std::prev(it)->second.bytes > from) --it;
  while (it != runs_.end() && it->first < to) {
    const Bytes start = it->first;
    const Segment s = it->second;
    it = runs_.erase(it);
    if (start < from) runs_.emplace(start, part(s, 0, from - start));
    if (start + s.bytes > to) runs_.emplace(to, part(s, to - start, start + s.bytes - to));
  }
}

void BufferContents::write(Bytes offset, const Segments& segments) {
  erase(offset, offset + total_bytes(segments));
  Bytes at = offset;
  for (const Segment& s : segments) {
    if (!s.hole() && s.bytes > 0) runs_.emplace(at, s);
    at += s.bytes;
  }
}

}  // namespace a2a::sim::recorder
