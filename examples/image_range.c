/* Images in ranges: every image command, image kernel arguments with a
 * sampler, and every image type.
 *
 *     msprof-record ./build/release/examples/example_image_range
 *     msprof-replay trace.fb
 *     msprof-analyze extract trace.fb with_image -o states   # images as .npy
 *
 * Range "with_image" writes a 2D RGBA float image, blurs it into a second
 * image with a kernel that samples the first (and writes a buffer), fills a
 * corner, writes a region through a map, copies the result into a buffer
 * and reads it back. Range "image_kinds" moves data between a 1D image
 * array, a 2D image array, a 3D image, and a 1D image over a buffer, and
 * a kernel reads the 3D image. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#include "ms_tools_ext.h"

enum { kW = 64, kH = 48 };

static const char* kSource =
    "__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
    "                               CLK_FILTER_NEAREST;\n"
    "__kernel void blur(__read_only image2d_t src, __write_only image2d_t dst,\n"
    "                   sampler_t edge, __global float* luma) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  float4 s = 0.0f;\n"
    "  for (int dy = -1; dy <= 1; ++dy)\n"
    "    for (int dx = -1; dx <= 1; ++dx) s += read_imagef(src, edge, (int2)(x + dx, y + dy));\n"
    "  s /= 9.0f;\n"
    "  write_imagef(dst, (int2)(x, y), s);\n"
    "  luma[y * get_global_size(0) + x] = 0.25f * (s.x + s.y + s.z + s.w);\n"
    "}\n"
    "__kernel void planes(__read_only image3d_t vol, __global float* out) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "  float v = read_imagef(vol, nearest, (int4)(x, y, z, 0)).x;\n"
    "  out[(z * get_global_size(1) + y) * get_global_size(0) + x] = v * (float)(z + 1);\n"
    "}\n";

static int fail(const char* what, cl_int err) {
  printf("%s failed (%d)\n", what, err);
  return 1;
}

static cl_mem make_image(cl_context ctx, cl_mem_flags flags, cl_channel_order order,
                         cl_channel_type type, cl_mem_object_type kind, size_t w, size_t h,
                         size_t d, size_t layers, cl_mem buffer, cl_int* err) {
  cl_image_format format = {order, type};
  cl_image_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.image_type = kind;
  desc.image_width = w;
  desc.image_height = h;
  desc.image_depth = d;
  desc.image_array_size = layers;
  desc.buffer = buffer;
  return clCreateImage(ctx, flags, &format, &desc, NULL, err);
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return fail("finding a device", err);
  cl_bool images = CL_FALSE;
  clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
  if (!images) {
    printf("images unsupported\n");
    return 0;
  }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prg = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  if ((err = clBuildProgram(prg, 1, &device, NULL, NULL, NULL)) != CL_SUCCESS)
    return fail("clBuildProgram", err);
  cl_kernel blur = clCreateKernel(prg, "blur", &err);
  cl_kernel planes = clCreateKernel(prg, "planes", &err);

  cl_mem src = make_image(ctx, CL_MEM_READ_ONLY, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D, kW, kH,
                          1, 1, NULL, &err);
  cl_mem dst = make_image(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_FLOAT, CL_MEM_OBJECT_IMAGE2D, kW, kH,
                          1, 1, NULL, &err);
  if (err != CL_SUCCESS) return fail("clCreateImage", err);
  cl_mem luma = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * kW * kH, NULL, &err);
  cl_mem flat = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * 4 * kW * kH, NULL, &err);
  cl_sampler edge =
      clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  static float pixels[kH][kW][4];
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      for (int c = 0; c < 4; ++c) pixels[y][x][c] = (float)((x * 7 + y * 13 + c * 5) % 31) / 8.0f;

  clSetKernelArg(blur, 0, sizeof src, &src);
  clSetKernelArg(blur, 1, sizeof dst, &dst);
  clSetKernelArg(blur, 2, sizeof edge, &edge);
  clSetKernelArg(blur, 3, sizeof luma, &luma);
  const size_t origin[3] = {0, 0, 0}, whole[3] = {kW, kH, 1};
  const size_t corner[3] = {8, 4, 0}, corner_size[3] = {16, 8, 1};
  const size_t global[2] = {kW, kH};
  const float color[4] = {1.0f, 0.5f, 0.25f, 2.0f};
  static float back[kH][kW][4];

  mstxRangeId id = mstxRangeStartA("with_image", NULL);
  /* Written from a host array with a row pitch of its own (one pixel wider
   * than the image), so the recorder must pack it. */
  static float padded[kH][kW + 1][4];
  for (int y = 0; y < kH; ++y) memcpy(padded[y], pixels[y], sizeof pixels[y]);
  clEnqueueWriteImage(q, src, CL_FALSE, origin, whole, sizeof padded[0], 0, padded, 0, NULL, NULL);
  clEnqueueNDRangeKernel(q, blur, 2, NULL, global, NULL, 0, NULL, NULL);
  clEnqueueFillImage(q, dst, color, origin, corner_size, 0, NULL, NULL);
  size_t row_pitch = 0;
  float* mapped = clEnqueueMapImage(q, dst, CL_TRUE, CL_MAP_WRITE, corner, corner_size, &row_pitch,
                                    NULL, 0, NULL, NULL, &err);
  if (mapped == NULL) return fail("clEnqueueMapImage", err);
  for (size_t y = 0; y < corner_size[1]; ++y) {
    float* row = (float*)((char*)mapped + y * row_pitch);
    for (size_t x = 0; x < corner_size[0] * 4; ++x) row[x] = (float)(y * 100 + x);
  }
  clEnqueueUnmapMemObject(q, dst, mapped, 0, NULL, NULL);
  clEnqueueCopyImageToBuffer(q, dst, flat, origin, whole, 0, 0, NULL, NULL);
  clEnqueueReadImage(q, dst, CL_TRUE, origin, whole, 0, 0, back, 0, NULL, NULL);
  mstxRangeEnd(id);

  /* Every other image type. */
  enum { kL = 16, kLayers = 3, kD = 4 };
  cl_mem layers1d = make_image(ctx, CL_MEM_READ_WRITE, CL_R, CL_UNSIGNED_INT8,
                               CL_MEM_OBJECT_IMAGE1D_ARRAY, kL, 0, 0, kLayers, NULL, &err);
  cl_mem layers2d = make_image(ctx, CL_MEM_READ_WRITE, CL_RGBA, CL_HALF_FLOAT,
                               CL_MEM_OBJECT_IMAGE2D_ARRAY, kL, kL, 0, kLayers, NULL, &err);
  cl_mem volume = make_image(ctx, CL_MEM_READ_WRITE, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE3D, kL, kL,
                             kD, 0, NULL, &err);
  cl_mem line_store = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * kL, NULL, &err);
  cl_mem line = make_image(ctx, CL_MEM_READ_WRITE, CL_R, CL_FLOAT, CL_MEM_OBJECT_IMAGE1D_BUFFER, kL,
                           0, 0, 0, line_store, &err);
  cl_mem plain1d = make_image(ctx, CL_MEM_READ_WRITE, CL_R, CL_UNSIGNED_INT8, CL_MEM_OBJECT_IMAGE1D,
                              kL, 0, 0, 0, NULL, &err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * kL * kL * kD, NULL, &err);
  if (!layers1d || !layers2d || !volume || !line || !plain1d || !out)
    return fail("image kinds", err);
  const cl_uint4 gray = {{77, 0, 0, 0}}; /* an integer image fills with a uint4 */
  unsigned char bytes[kLayers][kL];
  for (int l = 0; l < kLayers; ++l)
    for (int x = 0; x < kL; ++x) bytes[l][x] = (unsigned char)(l * 40 + x);
  unsigned short halves[kLayers][kL][kL][4];
  for (int l = 0; l < kLayers; ++l)
    for (int y = 0; y < kL; ++y)
      for (int x = 0; x < kL; ++x) {
        halves[l][y][x][0] = (unsigned short)(0x3c00 + l * 64 + y); /* 1.0 and up */
        halves[l][y][x][1] = (unsigned short)(0x4000 + x);
        halves[l][y][x][2] = 0x3800; /* 0.5 */
        halves[l][y][x][3] = 0;
      }
  static float vox[kD][kL][kL];
  for (int z = 0; z < kD; ++z)
    for (int y = 0; y < kL; ++y)
      for (int x = 0; x < kL; ++x) vox[z][y][x] = (float)(z * 1000 + y * 10 + x);
  clEnqueueWriteImage(q, volume, CL_TRUE, origin, (size_t[3]){kL, kL, kD}, 0, 0, vox, 0, NULL,
                      NULL);
  clSetKernelArg(planes, 0, sizeof volume, &volume);
  clSetKernelArg(planes, 1, sizeof out, &out);
  const size_t vol_global[3] = {kL, kL, kD};
  const size_t one_line[3] = {kL, 1, 1};

  id = mstxRangeStartA("image_kinds", NULL);
  clEnqueueWriteImage(q, layers1d, CL_FALSE, origin, (size_t[3]){kL, kLayers, 1}, 0, 0, bytes, 0,
                      NULL, NULL);
  clEnqueueWriteImage(q, layers2d, CL_FALSE, origin, (size_t[3]){kL, kL, kLayers}, 0, 0, halves, 0,
                      NULL, NULL);
  clEnqueueNDRangeKernel(q, planes, 3, NULL, vol_global, NULL, 0, NULL, NULL);
  /* A row of the volume's second slice into the buffer under the 1D image,
   * then a write through that image. */
  clEnqueueCopyImageToBuffer(q, volume, line_store, (size_t[3]){0, 3, 1}, one_line, 0, 0, NULL,
                             NULL);
  const float ends[2] = {-1.0f, -2.0f};
  err = clEnqueueWriteImage(q, line, CL_FALSE, (size_t[3]){kL - 2, 0, 0}, (size_t[3]){2, 1, 1}, 0,
                            0, ends, 0, NULL, NULL);
  if (err != CL_SUCCESS) return fail("clEnqueueWriteImage on a 1D buffer image", err);
  /* The buffer back into the volume's first row. */
  clEnqueueCopyBufferToImage(q, line_store, volume, 0, origin, one_line, 0, NULL, NULL);
  /* A plain 1D image: filled in part, its pixels into a layer of the 1D array. */
  clEnqueueFillImage(q, plain1d, &gray, (size_t[3]){4, 0, 0}, (size_t[3]){8, 1, 1}, 0, NULL, NULL);
  clEnqueueCopyImage(q, plain1d, layers1d, origin, (size_t[3]){0, 2, 0}, (size_t[3]){kL, 1, 1}, 0,
                     NULL, NULL);
  clFinish(q);
  mstxRangeEnd(id);

  float total = 0.0f;
  float planes_out[kL * kL * kD];
  clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof planes_out, planes_out, 0, NULL, NULL);
  for (int i = 0; i < kL * kL * kD; ++i) total += planes_out[i];
  printf("pixel (63, 47) = %.3f, corner (8, 4) = %.1f, planes %.1f\n", back[47][63][0],
         back[4][8][0], total);
  return 0;
}
