"""Workload of the workbench sweep benchmark (workbench_sweep.py): one range,
"sweep", whose kernel a user would tune for its work-group size: a 1D
smoothing stencil over --elements float32 values (a multiple of 1024, so
every local size from 8 to 1024 divides it), then a scale that reads its
result.

    python3 sweep_workload.py [--elements N]
"""
import argparse

import numpy as np
import pyopencl as cl

import mstx

parser = argparse.ArgumentParser()
parser.add_argument("--elements", type=int, default=1 << 16)
args = parser.parse_args()

SOURCE = """
__kernel void smooth(__global const float* x, __global float* y, const int n) {
  const int i = get_global_id(0);
  const float left = x[i > 0 ? i - 1 : i], right = x[i + 1 < n ? i + 1 : i];
  y[i] = 0.25f * left + 0.5f * x[i] + 0.25f * right;
}
__kernel void scale(__global float* y, const float s) { y[get_global_id(0)] *= s; }
"""

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
n = args.elements
x = np.random.default_rng(3).random(n, dtype=np.float32)
mf = cl.mem_flags
x_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
y_buf = cl.Buffer(ctx, mf.READ_WRITE, x.nbytes)
program = cl.Program(ctx, SOURCE).build()
smooth = cl.Kernel(program, "smooth")
scale = cl.Kernel(program, "scale")

range_id = mstx.range_start("sweep", None)
smooth(queue, (n,), (64,), x_buf, y_buf, np.int32(n))
scale(queue, (n,), (64,), y_buf, np.float32(2))
mstx.range_end(range_id)
queue.finish()
