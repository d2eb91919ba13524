"""Killed inside its second range: the first range must survive in the trace."""
import os
import signal

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
x = cl_array.to_device(queue, np.arange(256, dtype=np.float32))

rid = mstx.range_start("first", None)
y = x * 3
mstx.range_end(rid)
rid = mstx.range_start("second", None)
z = y + x
queue.finish()
print("killing myself inside 'second'", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
