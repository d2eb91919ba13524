#pragma once

#include <string>

#include "replayer/opencl/cl_api.h"

namespace msprof::replay::opencl {

std::string cl_error_name(cl_int code);
// DeviceError "<call> failed: CL_...; <advice>" unless code is CL_SUCCESS.
void cl_check(cl_int code, const char* call);

}  // namespace msprof::replay::opencl
