// Kernel launches: the kernel's arguments and indirect pointers are memory
// the launch uses, snapshotted before it; native kernels cannot replay.
#include <utility>

#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/enqueue_capture.h"

namespace msprof::record::opencl {
namespace {

cl_int CL_API_CALL layer_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                const size_t* off, const size_t* gws,
                                                const size_t* lws, cl_uint nw, const cl_event* w,
                                                cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_kernel(c, q, k, nw, w);
        const KernelInfo& info = r.objects().kernels.at(k);
        trace::KernelLaunch launch{info.id,        dim,       dims(dim, off), dims(dim, gws),
                                   dims(dim, lws), info.args, info.indirect};
        return r.add_command(c, q, nw, w, false, std::move(launch));
      },
      [&](cl_event* e) {
        return next().clEnqueueNDRangeKernel(q, k, dim, off, gws, lws, nw, w, e);
      });
}

cl_int CL_API_CALL layer_clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint nw,
                                       const cl_event* w, cl_event* ev) {
  return captured(
      q, ev,
      [&](RangeCapture& c, ClRecorder& r) {
        r.use_kernel(c, q, k, nw, w);
        const KernelInfo& info = r.objects().kernels.at(k);
        trace::KernelLaunch launch{info.id, 1, {0}, {1}, {1}, info.args, info.indirect};
        return r.add_command(c, q, nw, w, false, std::move(launch));
      },
      [&](cl_event* e) { return next().clEnqueueTask(q, k, nw, w, e); });
}

cl_int CL_API_CALL layer_clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK* fn)(void*),
                                               void* args, size_t n, cl_uint nm, const cl_mem* mems,
                                               const void** locs, cl_uint nw, const cl_event* w,
                                               cl_event* e) {
  return unreplayable("clEnqueueNativeKernel", [&] {
    return next().clEnqueueNativeKernel(q, fn, args, n, nm, mems, locs, nw, w, e);
  });
}

}  // namespace

void install_kernel_enqueue_intercepts(cl_icd_dispatch& t) {
  t.clEnqueueNDRangeKernel = layer_clEnqueueNDRangeKernel;
  t.clEnqueueTask = layer_clEnqueueTask;
  t.clEnqueueNativeKernel = layer_clEnqueueNativeKernel;
}

}  // namespace msprof::record::opencl
