"""One training step of a small MLP in tinygrad, on its OpenCL backend.

tinygrad compiles every kernel from OpenCL C source to a binary, then loads
the binary (clCreateProgramWithBinary): the recorder gives such a program
the source it was built from, so the trace replays on other devices too
(msprof-replay --rebuild takes that path on this one). tinygrad's own
compiler cache is turned off by msprof-record (CCACHE=0).

range "train_step": forward, loss, gradients and the SGD update.
"""
import os

os.environ.setdefault("DEV", "CL")

import numpy as np  # noqa: E402
from tinygrad import Tensor  # noqa: E402

import mstx  # noqa: E402

rng = np.random.default_rng(0)
x = Tensor(rng.standard_normal((32, 16), dtype=np.float32))
y = Tensor(rng.standard_normal((32, 4), dtype=np.float32))
w1 = Tensor(rng.standard_normal((16, 32), dtype=np.float32) * 0.1)
w2 = Tensor(rng.standard_normal((32, 4), dtype=np.float32) * 0.1)


def step():
    loss = ((x @ w1).relu() @ w2 - y).square().mean()
    g1, g2 = loss.gradient(w1, w2)
    return loss, w1 - 0.01 * g1, w2 - 0.01 * g2


# Once outside the range, so the range holds the step's kernels, not their
# compilation.
Tensor.realize(*step())
range_id = mstx.range_start("train_step", None)
loss, new_w1, new_w2 = step()
Tensor.realize(loss, new_w1, new_w2)
mstx.range_end(range_id)
print("loss", float(loss.numpy()))
