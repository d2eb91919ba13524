"""A range whose kernel waits on a user event that the program completes only
after the range has ended. Without the recorder nothing waits at the range's
end; with it, nothing must either, or the program would never get to open
the gate. A watchdog opens it after 20 s and says so, which makes the output
differ from a plain run instead of hanging the test."""
import threading

import numpy as np
import pyopencl as cl

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, """
__kernel void twice(__global float *x) { int i = get_global_id(0); x[i] *= 2.0f; }
""").build()
n = 1 << 16
host = np.arange(n, dtype=np.float32)
x = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
gate = cl.UserEvent(ctx)
gate_lock = threading.Lock()
gate_open = False
range_ended = threading.Event()


def open_gate():
    global gate_open
    with gate_lock:
        if not gate_open:
            gate.set_status(cl.command_execution_status.COMPLETE)
            gate_open = True


def watchdog():
    if not range_ended.wait(20):
        print("range_end waited for a command of its range")
        open_gate()


threading.Thread(target=watchdog, daemon=True).start()
rid = mstx.range_start("gated", None)
prg.twice(queue, (n,), None, x, wait_for=[gate])
mstx.range_end(rid)
range_ended.set()
open_gate()

out = np.empty_like(host)
cl.enqueue_copy(queue, out, x)
print("x", out[:4].tolist(), float(out.sum()))
