"""Benchmark workload: RANGES ranges of 6 kernels over float32 buffers.

    python3 workload.py --mib 64 --ranges 8 [--repeat N] [--no-mstx] [--host-writes]

Each range works on its own three buffers of --mib MiB of random data, in
place (no temporaries), so the recorder snapshots 3 buffers per range.
--repeat runs every range N times (only the first execution is captured).
--no-mstx runs the same work without annotations, for the cost of a range
that is never captured.
--host-writes starts every range by writing its first buffer from the host
(the same random data it was made from), so the recorder also copies the
program's own bytes (a write's data) besides the device buffers.
"""
import argparse
import time

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

parser = argparse.ArgumentParser()
parser.add_argument("--mib", type=float, default=64)
parser.add_argument("--ranges", type=int, default=8)
parser.add_argument("--repeat", type=int, default=1)
parser.add_argument("--no-mstx", action="store_true")
parser.add_argument("--host-writes", action="store_true")
args = parser.parse_args()

if args.no_mstx:
    range_start = lambda name, stream=None: 0  # noqa: E731
    range_end = lambda rid: None  # noqa: E731
else:
    import mstx
    range_start, range_end = mstx.range_start, mstx.range_end

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
n = int(args.mib * (1 << 20) // 4)
rng = np.random.default_rng(1)
sets, hosts = [], []
for _ in range(args.ranges):
    data = [rng.random(n, dtype=np.float32) for _ in range(3)]
    sets.append(tuple(cl_array.to_device(queue, d) for d in data))
    # Kept only when written again: the other cases hold no host copies.
    hosts.append(data[0] if args.host_writes else None)
queue.finish()

start = time.perf_counter()
for rep in range(args.repeat):
    for r, (a, b, c) in enumerate(sets):
        rid = range_start(f"range{r}", None)
        if args.host_writes:
            cl.enqueue_copy(queue, a.data, hosts[r])
        c += a
        c *= 0.5
        a -= b
        b *= c
        c += b
        a *= 1.5
        range_end(rid)
    queue.finish()
elapsed = time.perf_counter() - start
checksum = sum(float(x[:16].get().sum()) for s in sets for x in s)
print(f"work_s {elapsed:.4f} checksum {checksum:.6f}")
