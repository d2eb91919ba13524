"""One range for each verdict msprof-replay can give that is not simply
bit-exact, from kernels as real programs write them:
  uninit_local   reads __local memory before writing it: what it finds is
                 what the work-group before it on the same core left there,
                 so its output changes from run to run (nondeterministic)
  atomic_order   hands out tickets with atomic_inc: which work-item gets
                 which ticket depends on scheduling (nondeterministic)
  markers_only   a marker and a barrier, no buffer written (nothing to verify)
  no_commands    opened and closed with no device work in between (empty)
  stable         an ordinary kernel (bit-exact)"""
import numpy as np
import pyopencl as cl

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, """
__kernel void leftover(__global float *out) {
  __local float scratch[64];
  size_t l = get_local_id(0);
  float found = scratch[l];            /* never written in this work-group */
  barrier(CLK_LOCAL_MEM_FENCE);
  scratch[l] = (float)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = found;
}
__kernel void tickets(__global uint *counter, __global uint *order) {
  order[get_global_id(0)] = atomic_inc(counter);
}
__kernel void square(__global float *x) {
  size_t i = get_global_id(0);
  x[i] = x[i] * x[i];
}
""").build()

groups = 4096
out = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, groups * 64 * 4)
n = 1 << 20
counter = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                    hostbuf=np.zeros(1, np.uint32))
order = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, n * 4)
x = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
              hostbuf=np.linspace(-2, 2, 4096).astype(np.float32))

r = mstx.range_start("uninit_local", None)
prg.leftover(queue, (groups * 64,), (64,), out)
queue.finish()
mstx.range_end(r)

r = mstx.range_start("atomic_order", None)
prg.tickets(queue, (n,), (64,), counter, order)
queue.finish()
mstx.range_end(r)

r = mstx.range_start("markers_only", None)
cl.enqueue_marker(queue)
cl.enqueue_barrier(queue)
queue.finish()
mstx.range_end(r)

r = mstx.range_start("no_commands", None)
mstx.range_end(r)

r = mstx.range_start("stable", None)
prg.square(queue, (4096,), None, x)
queue.finish()
mstx.range_end(r)

tickets = np.empty(n, np.uint32)
cl.enqueue_copy(queue, tickets, order)
assert sorted(tickets[:16]) == sorted(set(tickets[:16])), "tickets are unique"
print("verdicts: done")
