"""The reference document's range replay example, on pyopencl arrays.

range1: a subtraction and a multiplication.
range2: a division, an abs and an addition; range3, opened inside range2,
is ignored (only the outer range is effective).
"""
import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)

x = cl_array.to_device(queue, np.array([1, 2, 3, 4], dtype=np.float32))
y = cl_array.to_device(queue, np.array([1, 2, 3, 4], dtype=np.float32))

a = x + y
range1_id = mstx.range_start("range1", None)
b = a - x
c = a * x
mstx.range_end(range1_id)
range2_id = mstx.range_start("range2", None)
d = x / y
range3_id = mstx.range_start("range3", None)
e = abs(y)
mstx.range_end(range3_id)
f = x + e
mstx.range_end(range2_id)

for name, value in (("b", b), ("c", c), ("d", d), ("e", e), ("f", f)):
    print(name, value.get())
