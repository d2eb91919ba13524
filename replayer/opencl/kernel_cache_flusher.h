#pragma once

#include <cstdint>
#include <string>

#include "replayer/core/host/cache_clearer.h"

#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

// Evicts whatever a range left in the device caches by reading, in a kernel,
// a scratch buffer larger than the last-level cache: the way for a device
// with caches of its own (a GPU). Runs on its own queue and waits, so its
// time never lands in a pass.
class KernelCacheFlusher final : public CacheClearer {
 public:
  // Thread-safe to construct while other threads use the context.
  KernelCacheFlusher(cl_context context, cl_device_id device, std::uint64_t bytes);
  void clear() override;
  std::uint64_t scratch_bytes() const override { return bytes_; }
  std::string method() const override;

 private:
  ClQueue queue_;
  std::uint64_t bytes_;
  ClMem scratch_;
  ClMem sink_;
  ClProgram program_;
  ClKernel kernel_;
};

}  // namespace msprof::replay::opencl
