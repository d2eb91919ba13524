"""Killed inside its second range: the first range must survive in the trace.

The recorder writes a range's record behind the program, moments after the
range ends; a kill within those moments would leave the trace without it
(the trace holds every range whose record reached the file). The pause
before the kill stands for the program's work between its last finished
range and its crash.
"""
import os
import signal
import time

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
time.sleep(0.5)
print("killing myself inside 'second'", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
