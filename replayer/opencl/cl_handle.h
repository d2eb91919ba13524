#pragma once

#include <utility>

#include "replayer/opencl/cl_api.h"

namespace msprof::replay::opencl {

// Owns one reference to an OpenCL object and releases it exactly once.
template <typename T, cl_int (*Release)(T)>
class ClHandle {
 public:
  ClHandle() = default;
  explicit ClHandle(T handle) : handle_(handle) {}
  ~ClHandle() { reset(); }
  ClHandle(ClHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  ClHandle& operator=(ClHandle&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, nullptr);
    }
    return *this;
  }
  ClHandle(const ClHandle&) = delete;
  ClHandle& operator=(const ClHandle&) = delete;

  T get() const { return handle_; }
  explicit operator bool() const { return handle_ != nullptr; }
  void reset() {
    if (handle_ != nullptr) Release(handle_);
    handle_ = nullptr;
  }

 private:
  T handle_ = nullptr;
};

using ClContext = ClHandle<cl_context, clReleaseContext>;
using ClQueue = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using ClMem = ClHandle<cl_mem, clReleaseMemObject>;
using ClProgram = ClHandle<cl_program, clReleaseProgram>;
using ClKernel = ClHandle<cl_kernel, clReleaseKernel>;
using ClEvent = ClHandle<cl_event, clReleaseEvent>;
using ClSampler = ClHandle<cl_sampler, clReleaseSampler>;

}  // namespace msprof::replay::opencl
