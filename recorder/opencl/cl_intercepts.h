#pragma once

#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

// Fills the layer's dispatch table with the intercepted entry points; the
// rest stay as `next()` has them.
void install_object_intercepts(cl_icd_dispatch& table);
void install_enqueue_intercepts(cl_icd_dispatch& table);

}  // namespace msprof::record::opencl
