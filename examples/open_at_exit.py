"""A range still open when the program ends is recorded as truncated."""
import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
x = cl_array.to_device(queue, np.ones(64, dtype=np.float32))
rid = mstx.range_start("done", None)
x += 1
mstx.range_end(rid)
mstx.range_start("never_closed", None)
x *= 3
print("x0", float(x.get()[0]))
