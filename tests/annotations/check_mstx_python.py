"""(d) The Python mstx module over the client library and the log
injection library: ids (32-bit, 0 = failure), streams, messages."""

import re

from annotation_log import (
    CLIENT_LIBRARY,
    LOG_LIBRARY,
    check,
    check_events,
    finish,
    python_child,
    python_env,
    run,
)


def scenario(name, **env):
    result = run(
        python_child("mstx_module_program.py", name),
        env=python_env(MSTX_LIBRARY=CLIENT_LIBRARY, MSTX_INJECTION_PATH=LOG_LIBRARY, **env),
        python=True,
    )
    check(result.returncode == 0, f"{name}: the module's return values")
    return result


small = scenario("small-ids")
check_events(
    small.events,
    [
        ("start", 1, "", "outer", 0),
        ("start", 2, "", "inner", 0x10),
        ("mark", "", "point", 0x7000),
        ("mark", "", "bytes", 0x20),
        ("end", 2, ""),
        ("end", 1, ""),
        ("start", 3, "", "", 0),
        ("end", 3, ""),
        ("start", 4, "", "queue", 0x7000),
        ("mark", "", "caf\u00e9", 0),
    ],
    "small ids",
)

WIDE = 0xFFFFFFFF
wide = scenario("wide-ids", MSPROF_ANNOTATION_LOG_FIRST_ID=str(WIDE))
check_events(
    wide.events,
    [("start", WIDE + i, "", f"r{i}", 0) for i in range(4)]
    + [("end", WIDE + i, "") for i in reversed(range(4))]
    + [("start", WIDE + 4, "", "again", 0), ("end", WIDE + 4, "")],
    "wide ids reach the tool whole at range_end",
)

refused = scenario("refused", MSPROF_ANNOTATION_LOG_REFUSE="1")
check_events(refused.events, [("mark", "", "still marked", 0)], "refused range")

opencl = scenario("opencl")
queue = re.search(r"queue (\d+)", opencl.stdout)
if queue:
    check_events(
        opencl.events,
        [("start", 1, "", "cl", int(queue.group(1))), ("end", 1, "")],
        "a pyopencl CommandQueue is passed as its cl_command_queue",
    )
    print("pyopencl CommandQueue checked")
else:
    print("pyopencl part skipped: no OpenCL queue")

finish()
