"""Child of check_nvtx_python.py: annotates with the `nvtx` PyPI package
(and mstx alongside) while NVTX_INJECTION64_PATH names the log library."""

import sys

import mstx
import nvtx

nvtx.push_range("outer")
nvtx.push_range("inner", domain="solver")
nvtx.mark("tick")
nvtx.pop_range(domain="solver")
nvtx.pop_range()

with nvtx.annotate("block", color="green"):
    mstx.range_end(mstx.range_start("mstx-inside"))


@nvtx.annotate("decorated", domain="solver")
def work():
    return 42


if work() != 42:
    sys.exit(1)
started = nvtx.start_range("started")
nvtx.end_range(started)
nvtx.pop_range()  # unbalanced: nothing to end
