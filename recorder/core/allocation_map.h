#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>

namespace msprof::record {

// Memory addressed by pointer (OpenCL SVM now, CUDA device memory next):
// which allocation an address falls in, so that arguments and commands can
// be recorded as allocation + offset, which replay can translate. Info is
// the device layer's own description of an allocation; it has a `size`.
template <class Info>
class AllocationMap {
 public:
  struct Location {
    std::uint64_t base = 0;
    std::uint64_t offset = 0;
    Info* info = nullptr;
  };

  void add(std::uint64_t base, Info info) { by_base_.insert_or_assign(base, std::move(info)); }
  void erase(std::uint64_t base) { by_base_.erase(base); }

  // The allocation that starts at `base`, or null.
  Info* at(std::uint64_t base) {
    const auto it = by_base_.find(base);
    return it == by_base_.end() ? nullptr : &it->second;
  }

  // The allocation holding `address`: base <= address < base + size. An
  // address one past the end belongs to no allocation, since the next one
  // may start there; a zero-sized allocation holds its base only.
  std::optional<Location> find(std::uint64_t address) {
    auto it = by_base_.upper_bound(address);
    if (it == by_base_.begin()) return std::nullopt;
    --it;
    const std::uint64_t offset = address - it->first;
    if (offset >= it->second.size && !(offset == 0 && it->second.size == 0)) return std::nullopt;
    return Location{it->first, offset, &it->second};
  }

  auto begin() const { return by_base_.begin(); }
  auto end() const { return by_base_.end(); }
  std::size_t size() const { return by_base_.size(); }

 private:
  std::map<std::uint64_t, Info> by_base_;
};

}  // namespace msprof::record
