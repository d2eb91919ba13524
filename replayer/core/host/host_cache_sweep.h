#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "replayer/core/host/cache_clearer.h"

namespace msprof::replay {

// Clears the caches of a device that is the host's own CPU (PoCL and other
// CPU drivers) by reading a scratch larger than the last-level cache from
// as many host threads as the device has compute units, so the shared cache
// and each core's private ones see the sweep.
//
// Reading host memory directly costs no kernel build and no driver fill:
// the scratch comes resident from one mmap call, and a sweep runs at memory
// speed (bench/replay/README.md, msprof_cache_sweep_bench).
class HostCacheSweep final : public CacheClearer {
 public:
  // DeviceError when the scratch cannot be had (the message names
  // --cache-size and --cache-control none).
  HostCacheSweep(std::uint64_t bytes, unsigned threads);
  ~HostCacheSweep() override;
  HostCacheSweep(const HostCacheSweep&) = delete;
  HostCacheSweep& operator=(const HostCacheSweep&) = delete;

  void clear() override;
  std::uint64_t scratch_bytes() const override { return bytes_; }
  std::string method() const override;
  unsigned threads() const { return threads_; }
  // The scratch itself (a benchmark evicts it to compare ways of clearing).
  std::span<const std::byte> memory() const {
    return {static_cast<const std::byte*>(scratch_), static_cast<std::size_t>(bytes_)};
  }

 private:
  std::uint64_t bytes_;
  unsigned threads_;
  void* scratch_ = nullptr;
};

}  // namespace msprof::replay
