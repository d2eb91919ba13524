#pragma once

#include <compare>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <utility>

namespace msprof::record {

// How a device API names a memory object: by an opaque handle (an OpenCL
// cl_mem), or by the address of its first byte (an OpenCL SVM allocation,
// a CUDA device pointer), which any address inside it also leads to.
struct MemoryKey {
  enum class Naming : std::uint8_t { Handle, Address };
  Naming naming = Naming::Handle;
  std::uint64_t value = 0;

  static MemoryKey handle(const void* handle) {
    return {Naming::Handle, reinterpret_cast<std::uintptr_t>(handle)};
  }
  static MemoryKey address(std::uint64_t base) { return {Naming::Address, base}; }
  bool by_address() const { return naming == Naming::Address; }
  auto operator<=>(const MemoryKey&) const = default;
};

// The memory objects a device layer tracks, of every kind, in one table:
// found by key, and those named by address also by any address inside
// them, so that arguments and commands can be recorded as allocation +
// offset, which replay can translate. Object is the device layer's own
// memory object; it has a size(). Not thread safe: the session's lock
// guards it.
template <class Object>
class MemoryTable {
 public:
  // Where an address falls: the allocation's base, the offset into it.
  struct Location {
    std::uint64_t base = 0;
    std::uint64_t offset = 0;
    Object* object = nullptr;
    MemoryKey key() const { return MemoryKey::address(base); }
  };

  // Adds `object` under `key`, replacing what was there (a handle the
  // driver reused, an address allocated again).
  Object& add(MemoryKey key, std::unique_ptr<Object> object) {
    auto& slot = objects_[key];
    slot = std::move(object);
    return *slot;
  }
  void erase(MemoryKey key) { objects_.erase(key); }

  // The object under `key`, or null.
  Object* find(MemoryKey key) const {
    const auto it = objects_.find(key);
    return it == objects_.end() ? nullptr : it->second.get();
  }

  // The object named by address that holds `address`: base <= address <
  // base + size. An address one past the end belongs to no object, since
  // the next one may start there; a zero-sized object holds its base only.
  std::optional<Location> find_address(std::uint64_t address) const {
    auto it = objects_.upper_bound(MemoryKey::address(address));
    if (it == objects_.begin()) return std::nullopt;
    --it;
    if (!it->first.by_address()) return std::nullopt;
    const std::uint64_t base = it->first.value;
    const std::uint64_t size = it->second->size();
    const std::uint64_t offset = address - base;
    if (offset >= size && !(offset == 0 && size == 0)) return std::nullopt;
    return Location{base, offset, it->second.get()};
  }

  // Every object, by key: those named by handle first.
  auto begin() const { return objects_.begin(); }
  auto end() const { return objects_.end(); }
  std::size_t size() const { return objects_.size(); }

 private:
  std::map<MemoryKey, std::unique_ptr<Object>> objects_;
};

}  // namespace msprof::record
