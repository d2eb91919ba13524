"""Child of check_mstx_python_noop.py: every call must be a harmless no-op.
Argument: what the module is expected to have found (none, client, any)."""

import sys
import warnings

warnings.simplefilter("error", RuntimeWarning)
try:
    import mstx
except RuntimeWarning as warning:  # the explicit MSTX_LIBRARY could not be used
    print(f"warned: {warning}")
    warnings.simplefilter("ignore", RuntimeWarning)
    import mstx


def expect(condition, what):
    if not condition:
        print(f"child check failed: {what}", file=sys.stderr)
        sys.exit(1)


found = sys.argv[1]
path = mstx.library_path()
if found == "none":
    expect(path is None, "no client library")
elif found == "client":
    expect(path is not None, "client library found")
else:  # nothing beside the package; the system loader may know one
    expect(path is None or path in ("libms_tools_ext.so", "libmsprof_mstx.so"), f"found {path}")

expect(mstx.get_tool_id() == 0, "no tool")
ranges = [mstx.range_start(f"r{i}", i) for i in range(3)]
expect(ranges == [0, 0, 0], "no-op range ids are 0")
for r in ranges:
    mstx.range_end(r)
mstx.range_end(12345)
mstx.mark("nothing")
mstx.mark("nothing", 7)
try:
    mstx.range_start("bad", "stream")
except TypeError:
    pass
else:
    expect(False, "argument checks hold without a library too")
print("no-op ok")
