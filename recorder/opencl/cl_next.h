#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#include <CL/cl_icd.h>

namespace msprof::record::opencl {

// The dispatch table of what lies below this layer (the next layer or the
// driver). Every call the layer makes on the program's behalf goes there.
const cl_icd_dispatch& next();
void set_next(const cl_icd_dispatch* target, cl_uint num_entries);

}  // namespace msprof::record::opencl
