"""Annotate ranges of a program's device work for msprof (the mstx API).

    import mstx
    range_id = mstx.range_start("step", stream)   # 0 when not recorded
    ...                                           # kernels of the range
    mstx.range_end(range_id)

The calls go to the mstx client library (libms_tools_ext.so), which hands
them to the attached profiler. Without the library or a profiler every call
does nothing.
"""

from mstx._api import get_tool_id, library_path, mark, range_end, range_start

__all__ = ["range_start", "range_end", "mark", "get_tool_id", "library_path"]
