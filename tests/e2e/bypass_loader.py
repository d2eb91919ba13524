"""Loads a loader that bypasses the recorder, then runs a range whose work
went through it (none reached the recorder): msprof-record must warn of both.

    python3 bypass_loader.py PATH/libOpenCL-bypass.so
"""
import ctypes
import sys

import pyopencl as cl

import mstx

ctx = cl.create_some_context(interactive=False)
ctypes.CDLL(sys.argv[1])
rid = mstx.range_start("unseen", None)
mstx.range_end(rid)
print("done")
