#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace msprof::replay {

// Page-aligned, zeroed host memory for a device that works in host memory
// to use in place as a buffer's storage: the replayer then knows where the
// buffer's bytes are and can evict them from the caches (HostLineFlush).
class HostBlock {
 public:
  // DeviceError when the memory cannot be had.
  explicit HostBlock(std::uint64_t bytes);
  ~HostBlock();
  HostBlock(const HostBlock&) = delete;
  HostBlock& operator=(const HostBlock&) = delete;

  std::byte* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  std::span<const std::byte> bytes() const { return {data_, static_cast<std::size_t>(size_)}; }

  static constexpr std::size_t kAlignment = 4096;

 private:
  std::byte* data_ = nullptr;
  std::uint64_t size_ = 0;
  std::uint64_t mapped_ = 0;
};

}  // namespace msprof::replay
