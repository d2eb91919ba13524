#pragma once

// The one place the OpenCL headers come in, so every file of the backend
// sees the same target version.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
