#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "replayer/core/host/cache_clearer.h"

namespace msprof::replay {

// Clears the caches of a device that works in host memory by evicting the
// range's own bytes, line by line, from every cache level of the machine
// (x86-64 CLFLUSHOPT, CLFLUSH where that is missing).
//
// A sweep must read more than the last-level cache to push a range's data
// out, and that cache is the whole socket's: 480 MiB on the 2-CPU Xeon VM
// of bench/replay, where a 3x sweep read 1.4 GiB per pass and replaying the
// example took longer than running its program. Evicting the range's lines
// costs what the range holds, whatever the machine's cache, and leaves
// nothing of the range behind in any core's cache.
class HostLineFlush final : public CacheClearer {
 public:
  // Whether this machine can evict lines from user space (x86-64 only;
  // elsewhere a sweep clears the cache).
  static bool available();

  // The regions must outlive the flush; empty regions are ignored.
  void add(std::span<const std::byte> region);
  void clear() override;
  // Bytes evicted per clear.
  std::uint64_t scratch_bytes() const override { return bytes_; }
  std::string method() const override { return describe(); }
  // How clear() evicts, in words, for the user.
  static std::string describe();

 private:
  std::vector<std::span<const std::byte>> regions_;
  std::uint64_t bytes_ = 0;
};

}  // namespace msprof::replay
