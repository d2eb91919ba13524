#!/usr/bin/env python3
"""check_extract.py DIR: DIR is `msprof-analyze extract` of examples/test.py's
range1 with --dtype float32. Exits 0 when numpy loads the initial and final
states of the kernels' buffers with what the program computed (x = y =
[1,2,3,4], a = x + y before the range; b = a - x, c = a * x inside it);
prints what differs otherwise."""
import json
import pathlib
import sys

import numpy

folder = pathlib.Path(sys.argv[1])
manifest = json.loads((folder / "manifest.json").read_text())
(range1,) = [r for r in manifest["ranges"] if r["name"] == "range1"]
kernels = {k["name"]: k for k in range1["kernels"]}
if sorted(kernels) != ["axpbyz", "multiply"]:
    sys.exit(f"range1 kernels: {sorted(kernels)}")


def state(kernel, arg_index, which):
    (arg,) = [a for a in kernels[kernel]["buffer_args"] if a["index"] == arg_index]
    array = numpy.load(folder / arg[which])
    if array.dtype != numpy.float32 or array.ndim != 1:
        sys.exit(f"{arg[which]}: {array.dtype} {array.shape}, expected 1-D float32")
    return array


x0 = numpy.array([1, 2, 3, 4], dtype=numpy.float32)
# pyopencl's axpbyz(out, a, x, b, y): out = 1 * a + (-1) * x; multiply(out, a, x).
a = state("axpbyz", 3, "initial")
x = state("axpbyz", 6, "initial")
b = state("axpbyz", 0, "final")
c = state("multiply", 0, "final")
checks = {
    "x": (x, x0),
    "a = x + y": (a, x0 + x0),
    "b = a - x": (b, a - x),
    "c = a * x": (c, a * x),
    "a unchanged": (state("axpbyz", 3, "final"), a),
    "multiply reads the same a": (state("multiply", 2, "initial"), a),
}
bad = [f"{name}: {got.tolist()} != {want.tolist()}" for name, (got, want) in checks.items()
       if not numpy.array_equal(got, want)]
if bad:
    sys.exit("; ".join(bad))
print("b", b.tolist(), "c", c.tolist())
