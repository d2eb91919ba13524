// Memory objects of every kind, as the driver makes and frees them: each
// becomes one ClMemory of the recorder's table (cl_memory.h).
#include <memory>
#include <string>
#include <utility>

#include "recorder/opencl/cl_buffer.h"
#include "recorder/opencl/cl_guard.h"
#include "recorder/opencl/cl_image.h"
#include "recorder/opencl/cl_image_layout.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/cl_reference_count.h"
#include "recorder/opencl/cl_svm.h"

namespace msprof::record::opencl {
namespace {

// Registers memory the driver made, replacing what the table had under
// its key (a handle or an address the driver reused). Memory that holds its
// own bytes counts toward the snapshot buffers faulted in ahead.
void add_memory(ClObjects& o, MemoryKey key, std::unique_ptr<ClMemory> memory) {
  const bool own_bytes = !memory->parent() && !memory->unreplayable();
  const std::uint64_t size = memory->size();
  o.memory.add(key, std::move(memory));
  if (own_bytes) CaptureSession::get()->buffer_created_locked(size);
}

void add_buffer(cl_mem mem, cl_context context, cl_mem_flags flags, std::uint64_t size,
                cl_mem parent, std::uint64_t origin, const void* host = nullptr) {
  if (mem == nullptr) return;
  record_objects([&](ClObjects& o) {
    auto buffer =
        std::make_unique<ClBuffer>(CaptureSession::get()->new_id(), context, flags, size, mem);
    if (parent != nullptr) buffer->set_parent(key_of(parent), origin);
    // A buffer over SVM memory aliases the allocation: replay must make it
    // over the replayed allocation, or kernels on the two would part ways.
    if (parent == nullptr && host != nullptr && (flags & CL_MEM_USE_HOST_PTR) != 0) {
      if (const auto at = o.memory.find_address(reinterpret_cast<std::uintptr_t>(host))) {
        buffer->set_parent(at->key(), at->offset);
      }
    }
    add_memory(o, key_of(mem), std::move(buffer));
  });
}

// Pipes, GL objects: memory the recorder cannot replay.
void add_unreplayable_memory(cl_mem mem) {
  if (mem == nullptr) return;
  record_objects(
      [&](ClObjects& o) { add_memory(o, key_of(mem), std::make_unique<ClUnreplayableMemory>()); });
}

void add_image(cl_mem mem, cl_context context, cl_mem_flags flags) {
  if (mem == nullptr) return;
  const auto desc = describe_image(mem);
  if (!desc) {
    add_unreplayable_memory(mem);
    return;
  }
  const cl_mem over = image_buffer(mem);
  record_objects([&](ClObjects& o) {
    auto image =
        std::make_unique<ClImage>(CaptureSession::get()->new_id(), context, flags, mem, *desc);
    if (over != nullptr) image->set_parent(key_of(over), 0);
    add_memory(o, key_of(mem), std::move(image));
  });
}

cl_mem CL_API_CALL layer_clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                        void* host, cl_int* err) {
  cl_mem m = next().clCreateBuffer(context, flags, size, host, err);
  add_buffer(m, context, flags, size, nullptr, 0, host);
  return m;
}

cl_mem CL_API_CALL layer_clCreateBufferWithProperties(cl_context context,
                                                      const cl_mem_properties* props,
                                                      cl_mem_flags flags, size_t size, void* host,
                                                      cl_int* err) {
  cl_mem m = next().clCreateBufferWithProperties(context, props, flags, size, host, err);
  add_buffer(m, context, flags, size, nullptr, 0, host);
  return m;
}

cl_mem CL_API_CALL layer_clCreateSubBuffer(cl_mem parent, cl_mem_flags flags,
                                           cl_buffer_create_type type, const void* info,
                                           cl_int* err) {
  cl_mem m = next().clCreateSubBuffer(parent, flags, type, info, err);
  if (m != nullptr && type == CL_BUFFER_CREATE_TYPE_REGION && info != nullptr) {
    const auto* region = static_cast<const cl_buffer_region*>(info);
    cl_context context = nullptr;
    next().clGetMemObjectInfo(parent, CL_MEM_CONTEXT, sizeof context, &context, nullptr);
    add_buffer(m, context, flags, region->size, parent, region->origin);
  }
  return m;
}

cl_mem CL_API_CALL layer_clCreateImage(cl_context c, cl_mem_flags f, const cl_image_format* fmt,
                                       const cl_image_desc* desc, void* host, cl_int* err) {
  cl_mem m = next().clCreateImage(c, f, fmt, desc, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreateImageWithProperties(cl_context c, const cl_mem_properties* props,
                                                     cl_mem_flags f, const cl_image_format* fmt,
                                                     const cl_image_desc* desc, void* host,
                                                     cl_int* err) {
  cl_mem m = next().clCreateImageWithProperties(c, props, f, fmt, desc, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreateImage2D(cl_context c, cl_mem_flags f, const cl_image_format* fmt,
                                         size_t w, size_t h, size_t pitch, void* host,
                                         cl_int* err) {
  cl_mem m = next().clCreateImage2D(c, f, fmt, w, h, pitch, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreateImage3D(cl_context c, cl_mem_flags f, const cl_image_format* fmt,
                                         size_t w, size_t h, size_t d, size_t rp, size_t sp,
                                         void* host, cl_int* err) {
  cl_mem m = next().clCreateImage3D(c, f, fmt, w, h, d, rp, sp, host, err);
  add_image(m, c, f);
  return m;
}

cl_mem CL_API_CALL layer_clCreatePipe(cl_context c, cl_mem_flags f, cl_uint packet,
                                      cl_uint max_packets, const cl_pipe_properties* props,
                                      cl_int* err) {
  cl_mem m = next().clCreatePipe(c, f, packet, max_packets, props, err);
  add_unreplayable_memory(m);
  return m;
}

void* CL_API_CALL layer_clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                   cl_uint alignment) {
  void* p = next().clSVMAlloc(context, flags, size, alignment);
  if (p == nullptr) return p;
  record_objects([&](ClObjects& o) {
    const auto base = reinterpret_cast<std::uintptr_t>(p);
    add_memory(o, MemoryKey::address(base),
               std::make_unique<ClSvmAllocation>(CaptureSession::get()->new_id(), context, flags,
                                                 size, base, alignment));
  });
  return p;
}

void CL_API_CALL layer_clSVMFree(cl_context context, void* p) {
  if (p != nullptr && CaptureSession::get() != nullptr && !inside_svm_free_callback) {
    // The final state of an allocation the range touched is read now: the
    // memory is gone after the call.
    CaptureSession* session = CaptureSession::get();
    try {
      std::lock_guard lock(session->mutex());
      ClRecorder::instance().memory_freed(MemoryKey::address(reinterpret_cast<std::uintptr_t>(p)),
                                          nullptr);
    } catch (const std::exception& e) {
      session->warn(std::string("recorder bookkeeping failed: ") + e.what());
    }
  }
  next().clSVMFree(context, p);
}

cl_int CL_API_CALL layer_clReleaseMemObject(cl_mem mem) {
  const bool last =
      CaptureSession::get() != nullptr &&
      reference_count<cl_mem>(mem, next().clGetMemObjectInfo, CL_MEM_REFERENCE_COUNT) == 1;
  const cl_int status = next().clReleaseMemObject(mem);
  if (last && status == CL_SUCCESS) {
    record_objects([&](ClObjects& o) { o.memory.erase(key_of(mem)); });
  }
  return status;
}

}  // namespace

void install_memory_intercepts(cl_icd_dispatch& t) {
  t.clCreateBuffer = layer_clCreateBuffer;
  t.clCreateBufferWithProperties = layer_clCreateBufferWithProperties;
  t.clCreateSubBuffer = layer_clCreateSubBuffer;
  t.clCreateImage = layer_clCreateImage;
  t.clCreateImageWithProperties = layer_clCreateImageWithProperties;
  t.clCreateImage2D = layer_clCreateImage2D;
  t.clCreateImage3D = layer_clCreateImage3D;
  t.clCreatePipe = layer_clCreatePipe;
  t.clSVMAlloc = layer_clSVMAlloc;
  t.clSVMFree = layer_clSVMFree;
  t.clReleaseMemObject = layer_clReleaseMemObject;
}

}  // namespace msprof::record::opencl
