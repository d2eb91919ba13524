"""A range a kernel developer would tune: a naive matrix multiplication and an
elementwise kernel that reads its result (so the range's context matters:
the second kernel finds the product in the cache the first one left).

range "matmul": C = A @ B (naive: one work-item per element, every operand
read from global memory), then D = relu(C) + bias.

workbench/matmul_tiled.cl is the edit: the same kernel, tiled through local
memory. Record once, then replay the range with the edit beside the
recorded one:

    msprof-record -o matmul.fb python3 examples/matmul_range.py
    msprof-replay matmul.fb --include matmul \\
        --kernel-source matmul=examples/workbench/matmul_tiled.cl --tolerance 1e-4,1e-5
"""
import numpy as np
import pyopencl as cl

import mstx

N = 256  # a multiple of the tile (16)

SOURCE = """
__kernel void matmul(__global const float* A, __global const float* B, __global float* C,
                     const int n) {
  const int row = get_global_id(1), col = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[row * n + k] * B[k * n + col];
  C[row * n + col] = sum;
}

__kernel void relu_bias(__global const float* C, __global const float* bias, __global float* D,
                        const int n) {
  const int row = get_global_id(1), col = get_global_id(0);
  D[row * n + col] = fmax(C[row * n + col], 0.0f) + bias[col];
}
"""

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
rng = np.random.default_rng(7)
a = rng.standard_normal((N, N), dtype=np.float32)
b = rng.standard_normal((N, N), dtype=np.float32)
bias = rng.standard_normal(N, dtype=np.float32)

mf = cl.mem_flags
a_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
b_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
bias_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=bias)
c_buf = cl.Buffer(ctx, mf.READ_WRITE, a.nbytes)
d_buf = cl.Buffer(ctx, mf.WRITE_ONLY, a.nbytes)
program = cl.Program(ctx, SOURCE).build()
matmul = cl.Kernel(program, "matmul")
relu_bias = cl.Kernel(program, "relu_bias")
n = np.int32(N)

range_id = mstx.range_start("matmul", None)
matmul(queue, (N, N), (16, 16), a_buf, b_buf, c_buf, n)
relu_bias(queue, (N, N), (16, 16), c_buf, bias_buf, d_buf, n)
mstx.range_end(range_id)

d = np.empty_like(a)
cl.enqueue_copy(queue, d, d_buf)
expected = np.maximum(a @ b, 0) + bias
print("max abs error against numpy:", float(np.max(np.abs(d - expected))))
