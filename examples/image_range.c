/* A range that uses an image, which the recorder cannot replay yet: the
 * range is recorded as "not replayable" and the program runs on unchanged. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>

#include "ms_tools_ext.h"

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return 1;
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_image_format format = {CL_RGBA, CL_FLOAT};
  cl_image_desc desc = {0};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = 4;
  desc.image_height = 4;
  cl_mem image = clCreateImage(ctx, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
  if (err != CL_SUCCESS) {
    printf("images unsupported\n");
    return 0;
  }
  float pixels[4 * 4 * 4];
  for (int i = 0; i < 64; ++i) pixels[i] = (float)i;
  size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1};
  mstxRangeId id = mstxRangeStartA("with_image", NULL);
  clEnqueueWriteImage(q, image, CL_TRUE, origin, region, 0, 0, pixels, 0, NULL, NULL);
  mstxRangeEnd(id);
  float back[64] = {0};
  clEnqueueReadImage(q, image, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL);
  printf("pixel 63 = %.1f\n", back[63]);
  return 0;
}
