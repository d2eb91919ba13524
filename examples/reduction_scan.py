"""pyopencl's reduction and scan kernels, and a kernel with a __local argument.

(pyopencl's own reduction and scan declare their local memory inside the
kernel; the third range passes it as an argument, cl.LocalMemory.)"""
import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import InclusiveScanKernel

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
a = cl_array.to_device(queue, (np.arange(100000) % 7).astype(np.float32))
dot = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                      map_expr="x[i]*y[i]", arguments="__global const float *x, __global const float *y")
scan = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
ints = cl_array.to_device(queue, (np.arange(50000) % 5).astype(np.int32))

rid = mstx.range_start("reduce", None)
total = dot(a, a)
mstx.range_end(rid)
rid = mstx.range_start("scan", None)
scan(ints)
mstx.range_end(rid)

prg = cl.Program(ctx, """
__kernel void wg_sum(__global const float *x, __global float *out, __local float *scratch) {
  int l = get_local_id(0);
  scratch[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}
""").build()
sums = cl_array.empty(queue, 100000 // 64 * 0 + 1024 // 64, np.float32)
rid = mstx.range_start("local_arg", None)
prg.wg_sum(queue, (1024,), (64,), a.data, sums.data, cl.LocalMemory(64 * 4))
mstx.range_end(rid)

print("dot", float(total.get()))
print("wg", sums.get()[:4].tolist())
print("scan", ints.get()[-4:].tolist())
