"""One range with every kind of command the recorder captures besides kernels:
host writes (plain and rectangular), fills, copies (plain and rectangular),
write mappings and their unmaps (one mapped before the range), markers, barriers, a read, a sub-buffer as a
kernel argument, a __local argument, a scalar argument, and an out-of-order
queue whose kernel waits on an event. The range's result depends on each of
them, so a replay that dropped or reordered one would not verify.
"""
import numpy as np
import pyopencl as cl

import mstx

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
ooo = cl.CommandQueue(ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
prg = cl.Program(ctx, """
__kernel void fma_local(__global const float *a, __global const float *b, __global float *c,
                        __local float *tile, float s) {
  int i = get_global_id(0), l = get_local_id(0);
  tile[l] = a[i] * s;
  barrier(CLK_LOCAL_MEM_FENCE);
  c[i] = tile[get_local_size(0) - 1 - l] + b[i] + c[i];
}
__kernel void shift(__global float *x, float d) { int i = get_global_id(0); x[i] += d; }
""").build()

n = 1 << 16           # floats per buffer
side = 256            # the buffers seen as side x side images for the rect commands
mf = cl.mem_flags
rng = np.random.default_rng(3)
host_a = rng.random(2 * n, dtype=np.float32)
a = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host_a)
b = cl.Buffer(ctx, mf.READ_WRITE, size=4 * n)
c = cl.Buffer(ctx, mf.READ_WRITE, size=4 * n)
d = cl.Buffer(ctx, mf.READ_WRITE, size=4 * n)
cl.enqueue_fill_buffer(queue, d, np.float32(-1), 0, 4 * n)
# The second half of `a`, as the kernel's first argument.
a_half = a.get_sub_region(4 * n, 4 * n)
# Mapped for writing before the range, written and unmapped inside it.
e = cl.Buffer(ctx, mf.READ_WRITE, size=4096)
early, _ = cl.enqueue_map_buffer(queue, e, cl.map_flags.WRITE, 0, (1024,), np.float32)
queue.finish()

rid = mstx.range_start("commands", None)
early[:] = -np.arange(1024, dtype=np.float32)
early.base.release(queue)
cl.enqueue_copy(queue, d, e, byte_count=4096, dst_offset=8192)
# Host data written in the range: replayed with its bytes.
host_b = np.linspace(0, 1, n, dtype=np.float32)
cl.enqueue_copy(queue, b, host_b)
cl.enqueue_fill_buffer(queue, c, np.float32(0.25), 0, 4 * n)
cl.enqueue_marker(queue)
prg.fma_local(queue, (n,), (64,), a_half, b, c, cl.LocalMemory(64 * 4), np.float32(2.0))
cl.enqueue_barrier(queue)
# A 64 x 32 float block of c, seen as a side x side image, into d at (16, 8).
cl.enqueue_copy(queue, d, c, src_origin=(0, 0), dst_origin=(16 * 4, 8), region=(64 * 4, 32),
                src_pitches=(side * 4, 0), dst_pitches=(side * 4, 0))
# A rectangular host write: a 16 x 16 block of ones into b at (100, 100).
block = np.ones((16, 16), dtype=np.float32)
cl.enqueue_copy(queue, b, block, buffer_origin=(100 * 4, 100), host_origin=(0, 0),
                region=(16 * 4, 16), buffer_pitches=(side * 4, 0), host_pitches=(16 * 4, 0))
# A plain copy of part of c into b.
cl.enqueue_copy(queue, b, c, byte_count=4 * 1024, src_offset=4 * 2048, dst_offset=0)
# Written through a mapping: the unmap carries the bytes.
mapped, _ = cl.enqueue_map_buffer(queue, d, cl.map_flags.WRITE, 0, (1024,), np.float32)
mapped[:] = np.arange(1024, dtype=np.float32)
mapped.base.release(queue)
ready = cl.enqueue_marker(queue)
# The out-of-order queue's kernel waits for everything above.
prg.shift(ooo, (n,), None, d, np.float32(0.5), wait_for=[ready])
ooo.finish()
peek = np.empty(8, dtype=np.float32)
cl.enqueue_copy(queue, peek, c)
mstx.range_end(rid)

out = {}
for name, buf in (("b", b), ("c", c), ("d", d)):
    host = np.empty(n, dtype=np.float32)
    cl.enqueue_copy(queue, host, buf)
    out[name] = host
print("peek", peek.tolist())
for name, host in out.items():
    print(name, float(host.sum()), host[:4].tolist())
