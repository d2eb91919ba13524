/* A stand-in for an OpenCL ICD loader that loads no layers (an old ocl-icd,
 * or a vendor's own libOpenCL): its calls go to the "driver" (here: nowhere)
 * without passing msprof-record's layer. Built as libOpenCL-bypass.so, so
 * the recorder takes it for a loader. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <string.h>

static int platform_token;

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                 cl_uint* num_platforms) {
  if (platforms != NULL && num_entries > 0) platforms[0] = (cl_platform_id)&platform_token;
  if (num_platforms != NULL) *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
  static const char name[] = "bypass";
  (void)platform;
  (void)param_name;
  if (param_value != NULL && param_value_size >= sizeof name)
    memcpy(param_value, name, sizeof name);
  if (param_value_size_ret != NULL) *param_value_size_ret = sizeof name;
  return CL_SUCCESS;
}
