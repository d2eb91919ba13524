"""Turns the stream argument into the pointer-sized integer the C API takes."""

import ctypes

_POINTER_LIMIT = 1 << (8 * ctypes.sizeof(ctypes.c_void_p))


def stream_pointer(stream):
    """None (host only), an integer handle, an object with an `int_ptr`
    attribute (a pyopencl CommandQueue) or a ctypes c_void_p."""
    if stream is None:
        return None
    if isinstance(stream, ctypes.c_void_p):
        return stream.value
    if isinstance(stream, bool):
        raise TypeError("mstx: a stream must be None, an integer handle or have int_ptr")
    if isinstance(stream, int):
        value = stream
    elif hasattr(stream, "int_ptr"):
        value = int(stream.int_ptr)
    else:
        raise TypeError(
            f"mstx: a stream must be None, an integer handle or have int_ptr, "
            f"not {type(stream).__name__}"
        )
    if not 0 <= value < _POINTER_LIMIT:
        raise ValueError(f"mstx: stream handle {value} does not fit in a pointer")
    return value or None
