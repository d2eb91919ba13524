/* A range with a native kernel (a host function the driver runs), which no
 * replay can run: the range is recorded as "not replayable" and the program
 * computes what it computes without the recorder. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

#include "ms_tools_ext.h"

struct Args {
  float* data; /* replaced by the driver with the buffer's host address */
  int n;
};

static void CL_CALLBACK twice(void* p) {
  struct Args* args = p;
  for (int i = 0; i < args->n; ++i) args->data[i] *= 2.0f;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return 1;
  cl_device_exec_capabilities caps = 0;
  clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL);
  if ((caps & CL_EXEC_NATIVE_KERNEL) == 0) {
    printf("native kernels unsupported\n");
    return 0;
  }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  float values[16];
  for (int i = 0; i < 16; ++i) values[i] = (float)i;
  cl_mem buf =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof values, values, &err);
  struct Args args = {NULL, 16};
  const void* where[] = {&args.data};
  mstxRangeId id = mstxRangeStartA("native", NULL);
  err = clEnqueueNativeKernel(q, twice, &args, sizeof args, 1, &buf, where, 0, NULL, NULL);
  clFinish(q);
  mstxRangeEnd(id);
  if (err != CL_SUCCESS) {
    printf("clEnqueueNativeKernel failed (%d)\n", err);
    return 0;
  }
  clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof values, values, 0, NULL, NULL);
  printf("values[15] = %.1f\n", values[15]);
  return 0;
}
