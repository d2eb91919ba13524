"""A range executed in a loop, updating its buffer in place each time.

Only the first execution of "step" is captured; the trace's initial state is
x before that first step and its final state x after it.
"""
import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
x = cl_array.to_device(queue, np.arange(1024, dtype=np.float32))
y = cl_array.to_device(queue, np.full(1024, 0.5, dtype=np.float32))

for step in range(5):
    rid = mstx.range_start("step", None)
    x *= 2          # in place
    x += y          # in place
    mstx.range_end(rid)

print("x", x.get()[:8], float(x.get().sum()))
