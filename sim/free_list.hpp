#pragma once
// Reuse of released elements of a growing table (slots, transfers, flows, routes, value lists):
// the engines keep millions of short-lived records and index them by number, so a released
// number is handed out again before the table grows.

#include <vector>

namespace a2a::sim {

// The index of an element of `items` to (re)use: the most recently released one in `released`,
// or a new default-constructed element appended to `items`. The reused element keeps its old
// contents; the caller overwrites it.
template <class Items, class Index>
Index reuse_or_append(Items& items, std::vector<Index>& released) {
  if (!released.empty()) {
    const Index index = released.back();
    released.pop_back();
    return index;
  }
  items.emplace_back();
  return static_cast<Index>(items.size() - 1);
}

}  // namespace a2a::sim
