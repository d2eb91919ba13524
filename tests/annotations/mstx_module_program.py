"""Child of check_mstx_python.py: uses the mstx module and checks what it
returns. Argument: the scenario (small-ids, wide-ids, refused, opencl)."""

import ctypes
import sys

import mstx


def expect(condition, what):
    if not condition:
        print(f"child check failed: {what}", file=sys.stderr)
        sys.exit(1)


class FakeQueue:  # like a pyopencl CommandQueue
    int_ptr = 0x7000


scenario = sys.argv[1]
expect(mstx.library_path() is not None, "client library found")
expect(mstx.get_tool_id() == 0x1000, "tool id of msprof")

if scenario == "small-ids":
    outer = mstx.range_start("outer")
    inner = mstx.range_start("inner", 0x10)
    expect((outer, inner) == (1, 2), "ids as the tool gave them")
    mstx.mark("point", FakeQueue())
    mstx.mark(b"bytes", ctypes.c_void_p(0x20))
    mstx.range_end(inner)
    mstx.range_end(outer)
    anonymous = mstx.range_start()
    expect(anonymous == 3, "range without a message")
    mstx.range_end(anonymous)
    mstx.range_start("queue", stream=FakeQueue())
    for bad in ("queue", 1.5, True):
        try:
            mstx.range_start("bad", bad)
        except TypeError:
            pass
        else:
            expect(False, f"stream {bad!r} refused")
    try:
        mstx.range_start("bad", -1)
    except ValueError:
        pass
    else:
        expect(False, "negative stream refused")
    try:
        mstx.range_end("1")
    except TypeError:
        pass
    else:
        expect(False, "range id must be an int")
    mstx.range_end(0)  # 0 = failure: nothing to end
    mstx.mark("caf\u00e9")
elif scenario == "wide-ids":
    # The tool's ids start at 2**32 - 1: the next ones do not fit in 32 bits.
    ids = [mstx.range_start(f"r{i}") for i in range(4)]
    expect(all(0 < i <= 0xFFFFFFFF for i in ids), "ids handed to Python are 32-bit")
    expect(len(set(ids)) == 4, "ids of open ranges are distinct")
    # Low bits 0 (invalid) or taken by an open range: a spare number instead.
    expect(ids == [0xFFFFFFFF, 1, 2, 3], f"low 32 bits where free, else spares: {ids}")
    for i in reversed(ids):
        mstx.range_end(i)
    again = mstx.range_start("again")
    expect(again == 3, "low bits reused once their range ended")
    mstx.range_end(again)
elif scenario == "refused":
    expect(mstx.range_start("nothing") == 0, "0 when the tool refuses a range")
    mstx.range_end(0)
    mstx.mark("still marked")
elif scenario == "opencl":
    try:
        import pyopencl as cl

        context = cl.create_some_context(interactive=False)
        queue = cl.CommandQueue(context)
    except Exception as error:  # no OpenCL here: nothing to check
        print(f"no OpenCL queue: {error}")
        sys.exit(0)
    print(f"queue {queue.int_ptr}")
    mstx.range_end(mstx.range_start("cl", queue))
