"""The mstx functions, over the client library (no-ops without it)."""

import ctypes

from mstx import _client_library
from mstx._range_handles import RangeHandles
from mstx._stream import stream_pointer

_library, _library_path = _client_library.load()
_handles = RangeHandles()


def _message_bytes(message):
    if message is None:
        return None
    if isinstance(message, str):
        return message.encode("utf-8", "surrogateescape")
    if isinstance(message, (bytes, bytearray)):
        return bytes(message)
    raise TypeError(f"mstx: a message must be str, bytes or None, not {type(message).__name__}")


def range_start(message=None, stream=None):
    """Opens a range; returns its id (32-bit, 0 when nothing records it)."""
    text = _message_bytes(message)
    pointer = stream_pointer(stream)
    if _library is None:
        return 0
    return _handles.hand_out(_library.mstxRangeStartA(text, pointer))


def range_end(range_id):
    """Closes the range `range_id` returned by range_start."""
    if not isinstance(range_id, int) or isinstance(range_id, bool):
        raise TypeError(f"mstx: a range id is an int, not {type(range_id).__name__}")
    if _library is None or range_id == 0:
        return
    _library.mstxRangeEnd(_handles.take(range_id) & 0xFFFFFFFFFFFFFFFF)


def mark(message, stream=None):
    """Marks a point in the program's run."""
    text = _message_bytes(message)
    pointer = stream_pointer(stream)
    if _library is not None:
        _library.mstxMarkA(text, pointer)


def get_tool_id():
    """The attached tool's id (0x1000 for msprof), 0 without one."""
    if _library is None:
        return 0
    tool_id = ctypes.c_uint64(0)
    _library.mstxGetToolId(ctypes.byref(tool_id))
    return tool_id.value


def library_path():
    """The client library in use, or None (every call is then a no-op)."""
    return _library_path
