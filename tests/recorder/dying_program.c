/* A program that dies at a chosen moment, for msprof-record's report of how
 * the program ended and what the trace keeps:
 *   dying_program MOMENT HOW
 * MOMENT: start (before any OpenCL call), first-call (after its first
 * call), buffers (after making a context, a queue and a buffer), between
 * (after one finished range), inside (inside its second range), end-first and
 * end-second (the moment the first or second range's end returns);
 * HOW: abort (SIGABRT), kill (SIGKILL), exit (status 3, exit handlers run);
 * any other MOMENT: both ranges, then status 0.
 *   dying_program many N [STATUS]
 * N ranges over an 8 MiB buffer of random bytes, which compress to nothing
 * (several tens of MiB of trace, to fill a small file system), then exit
 * with STATUS (0 by default).
 * The platform is PoCL's where there is one: the tests name their device. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ms_tools_ext.h"

static const char* how;
/* 16 MiB: a range's final state takes the recorder a while to write. */
enum { kElements = 4 << 20, kManyElements = 2 << 20 };
static size_t elements = kElements;

static void die_if(const char* moment, const char* now) {
  if (strcmp(moment, now) != 0) return;
  fflush(stdout);
  if (strcmp(how, "abort") == 0) abort();
  if (strcmp(how, "kill") == 0) raise(SIGKILL);
  exit(3);
}

static cl_platform_id choose_platform(void) {
  cl_platform_id platforms[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, platforms, &n) != CL_SUCCESS || n == 0) exit(1);
  for (cl_uint i = 0; i < n; ++i) {
    char name[256] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, "Portable Computing Language") != NULL) return platforms[i];
  }
  return platforms[0];
}

static void run_range(const char* name, cl_command_queue q, cl_kernel k, const char* moment) {
  const size_t global = elements;
  mstxRangeId id = mstxRangeStartA(name, NULL);
  clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
  clFinish(q);
  die_if(moment, strcmp(name, "second") == 0 ? "inside" : "");
  mstxRangeEnd(id);
  die_if(moment, strcmp(name, "first") == 0 ? "end-first" : "end-second");
}

int main(int argc, char** argv) {
  const char* moment = argc > 1 ? argv[1] : "";
  const int many = strcmp(moment, "many") == 0;
  if (argc != 3 && !(many && argc == 4)) return 2;
  how = argv[2];
  if (many) elements = kManyElements;
  die_if(moment, "start");
  cl_platform_id platform = choose_platform();
  die_if(moment, "first-call");
  cl_device_id device;
  cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, elements * sizeof(float), NULL, &err);
  if (many) {
    unsigned* noise = malloc(elements * sizeof(unsigned));
    unsigned x = 12345u;
    for (size_t i = 0; i < elements; ++i) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      noise[i] = x;
    }
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, elements * sizeof(float), noise, 0, NULL, NULL);
    free(noise);
  } else {
    const float zero = 0.0f;
    clEnqueueFillBuffer(q, buf, &zero, sizeof zero, 0, elements * sizeof(float), 0, NULL, NULL);
  }
  clFinish(q);
  die_if(moment, "buffers");
  const char* source = "kernel void inc(global float* a) { a[get_global_id(0)] += 1.0f; }";
  cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) return 1;
  cl_kernel k = clCreateKernel(program, "inc", &err);
  clSetKernelArg(k, 0, sizeof buf, &buf);
  if (many) {
    const int n = atoi(argv[2]);
    for (int i = 1; i <= n; ++i) {
      char name[32];
      snprintf(name, sizeof name, "range%d", i);
      run_range(name, q, k, moment);
    }
    printf("done\n");
    return argc == 4 ? atoi(argv[3]) : 0;
  }
  run_range("first", q, k, moment);
  /* The recorder writes a range's record behind the program, moments after
   * the range ends: the pause stands for the program's work between its
   * last finished range and its death. */
  if (strcmp(moment, "between") == 0 || strcmp(moment, "inside") == 0) usleep(500 * 1000);
  die_if(moment, "between");
  run_range("second", q, k, moment);
  printf("done\n");
  return 0;
}
