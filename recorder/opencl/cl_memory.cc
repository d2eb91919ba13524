#include "recorder/opencl/cl_memory.h"

#include <stdexcept>
#include <utility>

#include "recorder/core/capture_session.h"

namespace msprof::record::opencl {

trace::Buffer ClMemory::record() const {
  trace::Buffer record;
  record.id = id_;
  record.flags = flags_;
  record.size = size_;
  record.origin = origin_;
  return record;
}

SnapshotPipeline::BlobSlot ClUnreplayableMemory::read_state(const StateRead&) {
  throw std::logic_error("the state of memory the recorder cannot replay was asked for");
}

std::string cl_error(const char* what, cl_int status) {
  return std::string(what) + " failed with OpenCL error " + std::to_string(status);
}

SnapshotPipeline::BlobSlot snapshot_when_read(std::vector<std::byte> bytes, cl_event read) {
  if (read == nullptr) return CaptureSession::get()->snapshot(std::move(bytes));
  const auto arrived = [read] {
    const cl_int done = next().clWaitForEvents(1, &read);
    next().clReleaseEvent(read);
    if (done != CL_SUCCESS) throw std::runtime_error(cl_error("snapshot of a buffer", done));
  };
  try {
    return CaptureSession::get()->snapshot(std::move(bytes), arrived);
  } catch (...) {
    // The device is still writing into `bytes`: it must finish first.
    try {
      arrived();
    } catch (const std::exception&) {
    }
    throw;
  }
}

}  // namespace msprof::record::opencl
