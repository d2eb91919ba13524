/* An OpenCL vector add annotated with NVTX v3 (push/pop, start/end, and a
 * push/pop range of a domain of its own). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>

static const char* kSource =
    "__kernel void vadd(__global const float* a, __global const float* b, __global float* c) {"
    "  int i = get_global_id(0); c[i] = a[i] + b[i]; }"
    "__kernel void vscale(__global float* c, float s) { int i = get_global_id(0); c[i] *= s; }";

int main(void) {
  enum { N = 1024 };
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; ++i) {
    a[i] = (float)i;
    b[i] = (float)(N - i) * 0.5f;
  }
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return 1;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  if (clBuildProgram(prog, 1, &device, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) return 1;
  cl_kernel vadd = clCreateKernel(prog, "vadd", &err);
  cl_kernel vscale = clCreateKernel(prog, "vscale", &err);
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL, &err);
  clSetKernelArg(vadd, 0, sizeof da, &da);
  clSetKernelArg(vadd, 1, sizeof db, &db);
  clSetKernelArg(vadd, 2, sizeof dc, &dc);
  float s = 3.0f;
  clSetKernelArg(vscale, 0, sizeof dc, &dc);
  clSetKernelArg(vscale, 1, sizeof s, &s);
  size_t global = N;

  nvtxRangePushA("add_and_scale");
  clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, NULL, 0, NULL, NULL);
  clEnqueueNDRangeKernel(q, vscale, 1, NULL, &global, NULL, 0, NULL, NULL);
  nvtxRangePop();

  nvtxRangeId_t id = nvtxRangeStartA("scale_again");
  clEnqueueNDRangeKernel(q, vscale, 1, NULL, &global, NULL, 0, NULL, NULL);
  nvtxRangeEnd(id);

  /* A range of a domain of the program's own. */
  nvtxDomainHandle_t domain = nvtxDomainCreateA("solver");
  nvtxEventAttributes_t attributes = {0};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "solve";
  nvtxDomainRangePushEx(domain, &attributes);
  clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, NULL, 0, NULL, NULL);
  nvtxDomainRangePop(domain);
  nvtxDomainDestroy(domain);

  clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
  double sum = 0;
  for (int i = 0; i < N; ++i) sum += c[i];
  printf("sum %.3f c[1]=%.3f\n", sum, c[1]);
  return 0;
}
