#pragma once

#include <cstdint>

#include "replayer/opencl/cl_handle.h"

namespace msprof::replay::opencl {

// Evicts whatever a range left in the device caches by reading a scratch
// buffer larger than the last-level cache. Runs on its own queue and waits,
// so its time never lands in a pass.
class CacheFlusher {
 public:
  // Thread-safe to construct while other threads use the context.
  CacheFlusher(cl_context context, cl_device_id device, std::uint64_t bytes);
  void flush();
  std::uint64_t bytes() const { return bytes_; }
  // The scratch size used for a request of `bytes`.
  static std::uint64_t scratch_size(std::uint64_t bytes) { return bytes / 4 * 4; }

 private:
  ClQueue queue_;
  std::uint64_t bytes_;
  ClMem scratch_;
  ClMem sink_;
  ClProgram program_;
  ClKernel kernel_;
};

}  // namespace msprof::replay::opencl
