"""A kernel's arguments are judged at each launch, not by its past.

    msprof-record python3 examples/svm_arguments.py
    msprof-replay trace.fb

The kernel `scale` first runs outside any range with a shared virtual
memory (SVM) pointer as its argument; then, in range `buffer_after_svm`,
with a plain buffer: that range holds the buffer alone. Range `svm` runs
it with the SVM pointer again: the allocation is recorded with its size
and address, the argument as allocation + offset, and the range replays
on a new allocation of the replaying device.
"""
import numpy as np
import pyopencl as cl

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
n = 1 << 16
prg = cl.Program(ctx, """
__kernel void scale(__global float* a) {
    size_t i = get_global_id(0);
    a[i] = a[i] * 2.0f + 1.0f;
}
""").build()
scale = prg.scale

svm = cl.SVM(cl.csvm_empty(ctx, n, np.float32))
with svm.map_rw(queue) as mapped:
    mapped[:] = np.arange(n, dtype=np.float32)
scale(queue, (n,), None, svm)
queue.finish()

host = np.linspace(0, 1, n, dtype=np.float32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
rid = mstx.range_start("buffer_after_svm", None)
scale(queue, (n,), None, buf)
mstx.range_end(rid)

rid = mstx.range_start("svm", None)
scale(queue, (n,), None, svm)
mstx.range_end(rid)

out = np.empty_like(host)
cl.enqueue_copy(queue, out, buf)
with svm.map_ro(queue) as mapped:
    last = float(mapped[-1])
print(f"buffer: {float(out.sum()):.3f}, svm last: {last:.1f}")
