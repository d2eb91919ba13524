"""A producer kernel and a consumer of what it wrote, in one range.

"pipeline": `produce` writes b from a, then `consume` reads b into c. b is
2 MiB: far larger than a first-level cache, far smaller than a last-level
one. Replayed in range mode, `consume` finds b where `produce` left it, in
the last-level cache; in kernel mode the cache is cleared before each
kernel and every read of b goes to memory. `msprof-replay --metrics
L2Cache` shows the difference as consume's total_hit_rate(%).
"""
import sys

import numpy as np
import pyopencl as cl

import mstx

N = int(sys.argv[1]) if len(sys.argv) > 1 else 512 * 1024  # floats: 2 MiB per buffer

SOURCE = """
__kernel void produce(__global const float* a, __global float* b) {
    size_t i = get_global_id(0);
    b[i] = a[i] * 2.0f + 1.0f;
}
__kernel void consume(__global const float* b, __global float* c) {
    size_t i = get_global_id(0);
    c[i] = b[i] * b[i];
}
"""

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
program = cl.Program(ctx, SOURCE).build()
produce = cl.Kernel(program, "produce")
consume = cl.Kernel(program, "consume")
mf = cl.mem_flags
host_a = np.arange(N, dtype=np.float32) / N
a = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=host_a)
b = cl.Buffer(ctx, mf.READ_WRITE, size=host_a.nbytes)
c = cl.Buffer(ctx, mf.WRITE_ONLY, size=host_a.nbytes)
produce.set_args(a, b)
consume.set_args(b, c)

rid = mstx.range_start("pipeline", None)
cl.enqueue_nd_range_kernel(queue, produce, (N,), (64,))
cl.enqueue_nd_range_kernel(queue, consume, (N,), (64,))
mstx.range_end(rid)

out = np.empty_like(host_a)
cl.enqueue_copy(queue, out, c)
queue.finish()
expected = (host_a * 2.0 + 1.0) ** 2
print("c matches" if np.allclose(out, expected) else "c differs", float(out.sum()))
