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

// Owns an SVM allocation (clSVMAlloc) and frees it exactly once.
class ClSvm {
 public:
  ClSvm() = default;
  ClSvm(cl_context context, void* pointer) : context_(context), pointer_(pointer) {}
  ~ClSvm() { reset(); }
  ClSvm(ClSvm&& other) noexcept
      : context_(other.context_), pointer_(std::exchange(other.pointer_, nullptr)) {}
  ClSvm& operator=(ClSvm&& other) noexcept {
    if (this != &other) {
      reset();
      context_ = other.context_;
      pointer_ = std::exchange(other.pointer_, nullptr);
    }
    return *this;
  }
  ClSvm(const ClSvm&) = delete;
  ClSvm& operator=(const ClSvm&) = delete;

  void* get() const { return pointer_; }
  void reset() {
    if (pointer_ != nullptr) clSVMFree(context_, pointer_);
    pointer_ = nullptr;
  }

 private:
  cl_context context_ = nullptr;
  void* pointer_ = nullptr;
};

}  // namespace msprof::replay::opencl
