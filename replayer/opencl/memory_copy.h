#pragma once

#include "replayer/opencl/device_memory.h"

namespace msprof::replay::opencl {

// A copy command between two memory objects of the range, as the call the
// pair of kinds needs: buffer to buffer (plain or rect), between images,
// image to buffer and back, SVM to SVM. PlanError for a pair no API call
// copies (a buffer and an SVM allocation).
cl_event enqueue_copy(const Submission& at, const trace::BufferCopy& copy, const DeviceMemory& src,
                      const DeviceMemory& dst);

}  // namespace msprof::replay::opencl
