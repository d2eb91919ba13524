/* A library that enqueues a kernel on a queue it is handed, linked against
 * the system's OpenCL loader (libOpenCL.so.1), as CLBlast's Python binding
 * or any C extension is. examples/library_on_queue.py hands it pyopencl's
 * queue and buffer: pyopencl goes through the loader its wheel brings, this
 * library through the system's, and the recorder must see both. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

static const char* kSource =
    "__kernel void lib_scale(__global float* x, float s) { x[get_global_id(0)] *= s; }";

/* Scales the n floats of `buffer` by s on `queue`; 0 or an OpenCL error. */
__attribute__((visibility("default"))) int scale_on_queue(cl_command_queue queue, cl_mem buffer,
                                                          size_t n, float s) {
  cl_context context;
  cl_device_id device;
  cl_int err = clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL);
  err |= clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL);
  if (err != CL_SUCCESS) return err;
  cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
  if (err != CL_SUCCESS) return err;
  err = clBuildProgram(program, 1, &device, "", NULL, NULL);
  cl_kernel kernel = err == CL_SUCCESS ? clCreateKernel(program, "lib_scale", &err) : NULL;
  if (err == CL_SUCCESS) {
    clSetKernelArg(kernel, 0, sizeof buffer, &buffer);
    clSetKernelArg(kernel, 1, sizeof s, &s);
    err = clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL);
    if (err == CL_SUCCESS) err = clFinish(queue);
  }
  if (kernel != NULL) clReleaseKernel(kernel);
  clReleaseProgram(program);
  return err;
}
