#pragma once

#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

// Forgetting objects the driver is about to destroy keeps the tables as
// small as what the program holds; the reference count says when.
template <typename Handle>
cl_uint reference_count(Handle handle, cl_int (*get)(Handle, cl_uint, size_t, void*, size_t*),
                        cl_uint what) {
  cl_uint count = 0;
  return get(handle, what, sizeof count, &count, nullptr) == CL_SUCCESS ? count : 0;
}

}  // namespace msprof::record::opencl
