#pragma once

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "recorder/core/memory_table.h"

namespace msprof::record {

// The memory a range has touched, of every kind: the objects that hold
// their own state, in the order the range first touched them, each with
// the last queue (stream) that touched it, where its final state is read.
// Kept by key, not by object, so an object the table has since dropped is
// skipped rather than read.
template <class Queue>
class TouchedMemory {
 public:
  struct Entry {
    MemoryKey key;
    Queue last_queue;
  };

  // Notes a use on `queue`; true when it is the range's first.
  bool touch(MemoryKey key, Queue queue) {
    const auto it = find(key);
    if (it != entries_.end()) {
      it->last_queue = queue;
      return false;
    }
    entries_.push_back({key, queue});
    return true;
  }

  // Takes `key` out of the list (its memory is going): the last queue
  // that touched it, or nothing when the range has not.
  std::optional<Queue> forget(MemoryKey key) {
    const auto it = find(key);
    if (it == entries_.end()) return std::nullopt;
    Queue queue = it->last_queue;
    entries_.erase(it);
    return queue;
  }

  auto begin() const { return entries_.begin(); }
  auto end() const { return entries_.end(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }

 private:
  typename std::vector<Entry>::iterator find(MemoryKey key) {
    return std::find_if(entries_.begin(), entries_.end(),
                        [&](const Entry& e) { return e.key == key; });
  }

  std::vector<Entry> entries_;
};

}  // namespace msprof::record
