"""A range of 60 kernels: more than the reference tool's 50, so the recorder warns."""
import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
x = cl_array.to_device(queue, np.ones(64, dtype=np.float32))
rid = mstx.range_start("many", None)
for _ in range(60):
    x *= 1.01
mstx.range_end(rid)
print("x0", float(x.get()[0]))
