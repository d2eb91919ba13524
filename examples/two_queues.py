"""Two queues in one range: a kernel on the second waits for the first's event."""
import numpy as np
import pyopencl as cl

import mstx

ctx = cl.create_some_context(interactive=False)
q1 = cl.CommandQueue(ctx)
q2 = cl.CommandQueue(ctx)
prg = cl.Program(ctx, """
__kernel void scale(__global float *x, float s) { int i = get_global_id(0); x[i] *= s; }
__kernel void add(__global const float *x, __global float *y) { int i = get_global_id(0); y[i] += x[i]; }
""").build()
n = 4096
mf = cl.mem_flags
host_x = np.arange(n, dtype=np.float32)
host_y = np.ones(n, dtype=np.float32)
x = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host_x)
y = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host_y)

rid = mstx.range_start("pipeline", None)
ev = prg.scale(q1, (n,), None, x, np.float32(3.0))
prg.add(q2, (n,), None, x, y, wait_for=[ev])
mstx.range_end(rid)

out = np.empty_like(host_y)
cl.enqueue_copy(q2, out, y)
print("y", out[:4].tolist(), float(out.sum()))
# The queues were made without profiling: asking for an event's timestamps
# fails, with or without the recorder (which profiles them for itself).
try:
    ev.profile.end
    print("profiling info: available")
except cl.RuntimeError as e:
    print("profiling info:", "not available" if e.code == cl.status_code.PROFILING_INFO_NOT_AVAILABLE else e)
