/* SGEMM through CLBlast inside an mstx range. Prints a checksum of C. */
#define CL_TARGET_OPENCL_VERSION 120
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>

#include "ms_tools_ext.h"

int main(void) {
  const size_t n = 64;
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "no OpenCL device\n");
    return 1;
  }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
  float* a = malloc(n * n * sizeof(float));
  float* b = malloc(n * n * sizeof(float));
  float* c = malloc(n * n * sizeof(float));
  for (size_t i = 0; i < n * n; ++i) {
    a[i] = (float)(i % 13) * 0.25f;
    b[i] = (float)(i % 7) - 3.0f;
    c[i] = 1.0f;
  }
  const size_t bytes = n * n * sizeof(float);
  cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
  cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
  cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, c, &err);

  /* A first call outside the range compiles CLBlast's kernels. */
  CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, 1.0f, da, 0, n, db,
               0, n, 0.0f, dc, 0, n, &queue, NULL);
  clFinish(queue);

  mstxRangeId id = mstxRangeStartA("gemm", NULL);
  CLBlastStatusCode status = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n,
                                          n, 2.0f, da, 0, n, db, 0, n, 0.5f, dc, 0, n, &queue, NULL);
  mstxRangeEnd(id);
  if (status != CLBlastSuccess) {
    fprintf(stderr, "CLBlastSgemm failed: %d\n", (int)status);
    return 1;
  }
  clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL);
  double sum = 0;
  for (size_t i = 0; i < n * n; ++i) sum += c[i] * (double)((i % 5) + 1);
  printf("checksum %.6f\n", sum);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
  clReleaseMemObject(dc);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  free(a);
  free(b);
  free(c);
  return 0;
}
