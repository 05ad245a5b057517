// The order in which the scale engine's solve (sim/scale/flow_network.cpp) saturates links: its
// progressive filling raises a common level and needs, again and again, the link of lowest level
// among those that still carry a route not yet fixed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/scale/dary_heap.hpp"

namespace a2a::sim::scale {

// A link and a lower bound of its saturation level. Ties go by the order in which the solve met the
// links (`seq`), so the order of the filling depends on the routes in use, not on how the queue is
// laid out.
struct LinkLevel {
  double level;  // non-negative
  std::uint32_t link;
  std::uint32_t seq;
  bool operator<(const LinkLevel& o) const {
    return level != o.level ? level < o.level : seq < o.seq;
  }
};

// The links of one solve by level. Each is met at its level at the start of the solve, sorted once
// (a radix sort: no comparisons to mispredict; a few go into the heap below instead); one whose
// level has risen when it comes up is raised into a small heap with its new level. Most links come
// up once, and many only to be skipped (every route on them fixed by other links first): in a
// binary heap of every link each of those cost a sift through the whole heap (docs/performance.md,
// stop 38).
class LinkQueue {
 public:
  void clear();
  // add() every link, in order of `seq`, then sort(); then top(), pop() and raise().
  void add(const LinkLevel& link) { sorted_.push_back(link); }
  void sort();
  bool empty() const { return next_ == sorted_.size() && raised_.empty(); }
  const LinkLevel& top() const { return from_sorted() ? sorted_[next_] : raised_.top(); }
  // Inline beside top(): the solve calls the two in a row, so the compiler decides once where the
  // top comes from (out of line, `pop` was 3.6 % of a run at P = 1,048,576).
  void pop() {
    if (from_sorted()) {
      ++next_;
    } else {
      raised_.pop();
    }
  }
  // `link` again, with a level no lower than the one it was taken at.
  void raise(const LinkLevel& link) { raised_.push(link); }

 private:
  bool from_sorted() const {
    return next_ < sorted_.size() && (raised_.empty() || sorted_[next_] < raised_.top());
  }

  std::vector<LinkLevel> sorted_, scratch_;
  std::size_t next_ = 0;
  DaryHeap<LinkLevel> raised_;
};

}  // namespace a2a::sim::scale
