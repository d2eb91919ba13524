"""Benchmark workload: one range over one large float32 buffer, scaled in place.

    python3 snapshot_workload.py --kind zeros|random|fresh --mib 2048

The buffer is filled before the range (by clEnqueueFillBuffer for zeros,
from the host for random floats); the range scales it by 2 in place, so the
recorder snapshots it twice: its initial state and its final state. Zeros
stay zeros. `fresh` leaves the buffer untouched until the range, whose
kernel writes every element (as pyopencl's `zeros` inside a range does):
its initial state is memory never touched. Prints the seconds the range
took and a checksum of a sample.
"""
import argparse
import time

import numpy as np
import pyopencl as cl

parser = argparse.ArgumentParser()
parser.add_argument("--kind", choices=["zeros", "random", "fresh"], required=True)
parser.add_argument("--mib", type=int, default=2048)
args = parser.parse_args()

import mstx  # noqa: E402  (after argparse: --help works without it)

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
size = args.mib << 20
buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, size)
if args.kind == "zeros":
    cl.enqueue_fill_buffer(queue, buf, np.float32(0), 0, size)
elif args.kind == "random":
    # In pieces, so the program holds at most 256 MiB of host data.
    rng = np.random.default_rng(7)
    piece = 256 << 20
    for at in range(0, size, piece):
        host = rng.random(min(piece, size - at) // 4, dtype=np.float32)
        cl.enqueue_copy(queue, buf, host, dst_offset=at)
queue.finish()

prg = cl.Program(ctx, "__kernel void scale(__global float* a) {"
                      " size_t i = get_global_id(0); a[i] *= 2.0f; }"
                      "__kernel void count(__global float* a) {"
                      " size_t i = get_global_id(0); a[i] = (float)(i & 1023); }").build()
scale = prg.count if args.kind == "fresh" else prg.scale
start = time.perf_counter()
rid = mstx.range_start("large", None)
scale(queue, (size // 4,), None, buf)
mstx.range_end(rid)
queue.finish()
work = time.perf_counter() - start

sample = np.empty(1 << 20, dtype=np.float32)
cl.enqueue_copy(queue, sample, buf, src_offset=size - sample.nbytes)
print(f"work_s {work:.4f} checksum {float(sample.astype(np.float64).sum()):.6e}")
