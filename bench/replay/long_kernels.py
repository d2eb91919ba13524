"""Kernels that each take more than 1 ms on PoCL, for the replay fidelity
benchmark (bench/replay/README.md): the replayed median duration of each is
compared with its duration in this program's recorded run.

Every kernel runs a few times before the range, outside it, so the recorded
run measures warm kernels (built, first-touch page faults taken) as the
replay's warm-up pass does. Data is regular so the trace compresses well.

Inside the range the four kernels run ROUNDS times, so the original run has
a median per kernel too: on a shared 2-core VM one launch, measured without
any recorder, took 0.76-1.86x the median of the next ten launches of the
same kernel, so a single recorded launch is too noisy a reference.

The range opens with a tiny kernel that names every buffer, so the recorder
snapshots them all first, then spins SETTLE seconds (argument 1, default 1)
before the long kernels: on a CPU device the recorder's compression threads
share the cores with the kernels, and a kernel measured while they run is
slower than the program's own. `long_kernels.py 0` shows that effect.
"""
import sys
import time

import numpy as np
import pyopencl as cl

import mstx

SOURCE = """
__kernel void triad(__global const float *a, __global const float *b, __global float *c, float s) {
  size_t i = get_global_id(0);
  c[i] = a[i] + s * b[i];
}
__kernel void scale_inplace(__global float *x, float s) {
  size_t i = get_global_id(0);
  x[i] = x[i] * s;
}
__kernel void blur3(__global const float *x, __global float *y, uint n) {
  size_t i = get_global_id(0);
  float left = x[i == 0 ? 0 : i - 1], right = x[i + 1 == n ? i : i + 1];
  y[i] = (left + x[i] + right) * (1.0f / 3.0f);
}
__kernel void touch(__global float *a, __global float *b, __global float *c,
                    __global float *big, __global float *x, __global float *y) {}
__kernel void iterate(__global float *x, int steps) {
  size_t i = get_global_id(0);
  float v = x[i];
  for (int k = 0; k < steps; ++k) v = v * 0.999f + 0.001f;
  x[i] = v;
}
"""

MIB = 1 << 20
SETTLE = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
ROUNDS = 10
ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
prg = cl.Program(ctx, SOURCE).build()
triad, scale_inplace, blur3, iterate, touch = (
    cl.Kernel(prg, name) for name in ("triad", "scale_inplace", "blur3", "iterate", "touch"))
mf = cl.mem_flags


def buffer(mib, modulus):
    host = (np.arange(mib * MIB // 4) % modulus).astype(np.float32)
    return cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)


n16, n64 = 16 * MIB // 4, 64 * MIB // 4
a, b, c = buffer(16, 1000), buffer(16, 777), buffer(16, 3)
big = buffer(64, 333)
x, y = buffer(32, 555), buffer(32, 7)
launches = [
    lambda: triad(queue, (n16,), None, a, b, c, np.float32(0.5)),
    lambda: scale_inplace(queue, (n64,), None, big, np.float32(1.0001)),
    lambda: blur3(queue, (2 * n16,), None, x, y, np.uint32(2 * n16)),
    lambda: iterate(queue, (n16,), None, c, np.int32(64)),
]
for _ in range(3):
    for launch in launches:
        launch()
queue.finish()

rid = mstx.range_start("long", None)
touch(queue, (1,), None, a, b, c, big, x, y)
queue.finish()
# Busy, not asleep: a vCPU that idles for a second runs the next kernels
# slower (cold caches, descheduled), which the replay's back-to-back
# passes never see; a program usually does host work there, not sleep.
settled = time.perf_counter() + SETTLE
while time.perf_counter() < settled:
    pass
for _ in range(ROUNDS):
    for launch in launches:
        launch()
mstx.range_end(rid)
queue.finish()

out = np.empty(4, dtype=np.float32)
cl.enqueue_copy(queue, out, c)
print("c", out.tolist())
