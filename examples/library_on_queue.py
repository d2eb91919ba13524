"""pyopencl hands its queue and buffer to a C library of its own loader:
examples/queue_library.c, built as libexample_queue_library.so and linked
against the system's libOpenCL.so.1, while pyopencl's wheel brings another
loader. The recorder sees the library's kernel all the same.

    python3 examples/library_on_queue.py PATH/libexample_queue_library.so

range "library": the library's lib_scale, then pyopencl's own add.
"""
import ctypes
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cl_array

import mstx

library = ctypes.CDLL(sys.argv[1])
library.scale_on_queue.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                                   ctypes.c_float]
ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
x = cl_array.to_device(queue, np.arange(1024, dtype=np.float32))

range_id = mstx.range_start("library", None)
status = library.scale_on_queue(queue.int_ptr, x.data.int_ptr, x.size, 3.0)
y = x + x
mstx.range_end(range_id)
if status != 0:
    sys.exit(f"scale_on_queue failed: {status}")
print("y[:4] =", y.get()[:4])
