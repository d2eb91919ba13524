"""Benchmark workload: a range that uses 2 kernels of a 60-kernel program.

    python3 binaries_workload.py [--kernels 60]

Builds one OpenCL C program of --kernels distinct kernels (each a small
loop of arithmetic, so each costs the driver a compile of its own), then
runs a range of two of them over a 4 MiB buffer. Prints the seconds from
the build to the end of the range and a checksum.
"""
import argparse
import time

import numpy as np
import pyopencl as cl

parser = argparse.ArgumentParser()
parser.add_argument("--kernels", type=int, default=60)
args = parser.parse_args()

import mstx  # noqa: E402  (after argparse: --help works without it)

KERNEL = """
__kernel void k{i}(__global float* a, const float s) {{
    size_t g = get_global_id(0);
    float x = a[g];
    for (int j = 0; j < {steps}; ++j) x = x * s + (float)(j % {mod}) * 0.25f - {i}.0f * 1e-3f;
    a[g] = x;
}}
"""
source = "".join(KERNEL.format(i=i, steps=4 + i % 7, mod=3 + i % 5) for i in range(args.kernels))

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
host = np.linspace(0, 1, 1 << 20, dtype=np.float32)
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)

start = time.perf_counter()
prg = cl.Program(ctx, source).build()
k0, k1 = prg.k0, getattr(prg, f"k{args.kernels // 2}")
rid = mstx.range_start("two_of_many", None)
k0(queue, host.shape, None, buf, np.float32(0.5))
k1(queue, host.shape, None, buf, np.float32(0.25))
mstx.range_end(rid)
queue.finish()
work = time.perf_counter() - start

cl.enqueue_copy(queue, host, buf)
print(f"work_s {work:.4f} checksum {float(host.astype(np.float64).sum()):.6e}")
