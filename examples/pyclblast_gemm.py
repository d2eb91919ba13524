"""CLBlast through its Python binding, on pyopencl's queue and buffers.

    msprof-record python3 examples/pyclblast_gemm.py
    msprof-replay trace.fb --include gemm

pyclblast links the system's libOpenCL.so.1, while pyopencl's wheel brings
a loader of its own: the GEMM's kernels go through the second loader, and
the recorder sees them all the same. Needs `pip install pyclblast`; without
it the program says so and exits 0.
"""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

try:
    import pyclblast
except ImportError:
    print("pyclblast is not installed; pip install pyclblast")
    sys.exit(0)

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
m, n, k = 96, 80, 64
rng = np.random.default_rng(3)
a = cl_array.to_device(queue, rng.random((m, k), dtype=np.float32))
b = cl_array.to_device(queue, rng.random((k, n), dtype=np.float32))
c = cl_array.zeros(queue, (m, n), dtype=np.float32)
queue.finish()

rid = mstx.range_start("gemm", None)
pyclblast.gemm(queue, m, n, k, a, b, c, a_ld=k, b_ld=n, c_ld=n)
mstx.range_end(rid)
queue.finish()

expected = a.get() @ b.get()
print(f"max error {float(np.abs(c.get() - expected).max()):.2e}")
