#pragma once

#include "replayer/opencl/cl_api.h"

namespace msprof::replay::opencl {

// Replay allocates and fills every buffer itself and reads them all back to
// verify, so host-pointer and host-access restrictions of the program go.
inline constexpr cl_mem_flags kStrippedFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                                               CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |
                                               CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
// What a sub-buffer, an image or a buffer over SVM keeps of the recorded flags.
inline constexpr cl_mem_flags kAccessFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

}  // namespace msprof::replay::opencl
