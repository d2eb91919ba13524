/* Shared virtual memory (SVM) the way pointer-based code uses it: linked
 * lists whose nodes point at each other, in one coarse-grained allocation
 * that the kernel reaches only through pointers stored in memory (made known
 * by clSetKernelExecInfo), and a fine-grained allocation the host writes
 * directly, without a map.
 *
 *     msprof-record ./build/release/examples/example_svm_list
 *     msprof-replay trace.fb
 *
 * Range "walk" fills the sums, walks every list (doubling each node on the
 * way) and copies the sums out; range "fine" scales the fine-grained array
 * the host wrote. Replay makes new allocations, so the pointers stored in
 * the nodes and heads are translated to them, and back for verification. */
#define CL_TARGET_OPENCL_VERSION 200
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

#include "ms_tools_ext.h"

enum { kLists = 64, kPerList = 32 };

typedef struct Node {
  struct Node* next; /* a device address: the kernel follows it */
  float value;
  float pad;
} Node;

static const char* kSource =
    "typedef struct Node { __global struct Node* next; float value; float pad; } Node;\n"
    "__kernel void walk(__global Node* __global* heads, __global float* sums) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (__global Node* n = heads[i]; n != 0; n = n->next) {\n"
    "    s += n->value;\n"
    "    n->value *= 2.0f;\n"
    "  }\n"
    "  sums[i] = s;\n"
    "}\n"
    "__kernel void scale(__global float* a, float f) {\n"
    "  size_t i = get_global_id(0);\n"
    "  a[i] = a[i] * f + 1.0f;\n"
    "}\n";

static int fail(const char* what, cl_int err) {
  printf("%s failed (%d)\n", what, err);
  return 1;
}

int main(void) {
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, NULL);
  err |= clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  if (err != CL_SUCCESS) return fail("finding a device", err);
  cl_device_svm_capabilities caps = 0;
  clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
  if ((caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) == 0) {
    printf("fine-grained SVM unsupported\n");
    return 0;
  }
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
  cl_program prg = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
  err = clBuildProgram(prg, 1, &device, "-cl-std=CL2.0", NULL, NULL);
  if (err != CL_SUCCESS) err = clBuildProgram(prg, 1, &device, NULL, NULL, NULL);
  if (err != CL_SUCCESS) return fail("clBuildProgram", err);
  cl_kernel walk = clCreateKernel(prg, "walk", &err);
  cl_kernel scale = clCreateKernel(prg, "scale", &err);

  const size_t node_bytes = sizeof(Node) * kLists * kPerList;
  Node* nodes = clSVMAlloc(ctx, CL_MEM_READ_WRITE, node_bytes, 0);
  Node** heads = clSVMAlloc(ctx, CL_MEM_READ_ONLY, sizeof(Node*) * kLists, 0);
  float* sums = clSVMAlloc(ctx, CL_MEM_READ_WRITE, sizeof(float) * kLists, 0);
  float* fine =
      clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(float) * 4096, 0);
  if (!nodes || !heads || !sums || !fine) return fail("clSVMAlloc", CL_OUT_OF_RESOURCES);

  /* Lists interleaved through the allocation, so every pointer matters. */
  clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, nodes, node_bytes, 0, NULL, NULL);
  clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, heads, sizeof(Node*) * kLists, 0, NULL, NULL);
  for (int l = 0; l < kLists; ++l) {
    heads[l] = &nodes[l];
    for (int k = 0; k < kPerList; ++k) {
      Node* n = &nodes[k * kLists + l];
      n->value = (float)(l + k) * 0.25f;
      n->pad = 0.0f;
      n->next = k + 1 < kPerList ? &nodes[(k + 1) * kLists + l] : NULL;
    }
  }
  clEnqueueSVMUnmap(q, nodes, 0, NULL, NULL);
  clEnqueueSVMUnmap(q, heads, 0, NULL, NULL);
  for (int i = 0; i < 4096; ++i) fine[i] = (float)i; /* fine grained: no map */

  void* reached[] = {nodes};
  clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reached, reached);
  clSetKernelArgSVMPointer(walk, 0, heads);
  clSetKernelArgSVMPointer(walk, 1, sums);
  float out[kLists];
  const size_t lists = kLists;
  const float zero = 0.0f;

  mstxRangeId id = mstxRangeStartA("walk", NULL);
  clEnqueueSVMMemFill(q, sums, &zero, sizeof zero, sizeof(float) * kLists, 0, NULL, NULL);
  err = clEnqueueNDRangeKernel(q, walk, 1, NULL, &lists, NULL, 0, NULL, NULL);
  clEnqueueSVMMemcpy(q, CL_TRUE, out, sums, sizeof out, 0, NULL, NULL);
  mstxRangeEnd(id);
  if (err != CL_SUCCESS) return fail("walk", err);

  const float factor = 3.0f;
  const size_t n = 4096;
  clSetKernelArgSVMPointer(scale, 0, fine);
  clSetKernelArg(scale, 1, sizeof factor, &factor);
  id = mstxRangeStartA("fine", NULL);
  err = clEnqueueNDRangeKernel(q, scale, 1, NULL, &n, NULL, 0, NULL, NULL);
  clFinish(q);
  mstxRangeEnd(id);
  if (err != CL_SUCCESS) return fail("scale", err);

  double total = 0.0;
  for (int l = 0; l < kLists; ++l) total += out[l];
  printf("sum of lists %.2f, fine[4095] %.1f\n", total, fine[4095]);
  clSVMFree(ctx, fine);
  clSVMFree(ctx, sums);
  clSVMFree(ctx, heads);
  clSVMFree(ctx, nodes);
  clReleaseKernel(walk);
  clReleaseKernel(scale);
  clReleaseProgram(prg);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
