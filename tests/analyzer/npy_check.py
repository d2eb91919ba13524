#!/usr/bin/env python3
"""npy_check.py NPY DTYPE RAW: exits 0 when numpy loads NPY as a 1-D array of
DTYPE equal to the bytes of RAW read as DTYPE; prints what differs otherwise."""
import sys

import numpy

path, dtype, raw = sys.argv[1:4]
got = numpy.load(path)
want = numpy.fromfile(raw, dtype=dtype)
if got.dtype != numpy.dtype(dtype):
    sys.exit(f"{path}: dtype {got.dtype}, expected {dtype}")
if got.shape != want.shape:
    sys.exit(f"{path}: shape {got.shape}, expected {want.shape}")
if not numpy.array_equal(got, want):
    sys.exit(f"{path}: contents differ")
