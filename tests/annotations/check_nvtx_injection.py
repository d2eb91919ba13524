"""(c) A program using the header-only NVTX v3 library, with the log
injection library named by NVTX_INJECTION64_PATH."""

import sys

from annotation_log import LOG_LIBRARY, check, check_events, finish, run

result = run([sys.argv[1]], env={"NVTX_INJECTION64_PATH": LOG_LIBRARY})
check(result.returncode == 0, "levels and ids NVTX returns")
check_events(
    result.events,
    [
        ("start", 1, "", "outer", 0),
        ("start", 2, "", "inner-caf\u00e9", 0),
        ("start", 3, "", "third", 0),
        ("start", 4, "", "worker", 0),  # another thread, its own stack
        ("end", 4, ""),
        ("mark", "", "mark-a", 0),
        ("mark", "", "mark-\u00fc", 0),
        ("end", 3, ""),
        ("end", 2, ""),
        ("end", 1, ""),
        ("start", 5, "", "start-a", 0),
        ("start", 6, "", "start-\u03c9", 0),
        ("start", 7, "", "start-ex-\u4e2d", 0),
        ("end", 5, ""),
        ("end", 7, ""),
        ("end", 6, ""),
        ("mark", "", "mark-ex", 0),
        ("start", 8, "solver", "step", 0),
        ("start", 9, "wide-\u00e5", "wide-step", 0),
        ("start", 10, "", "default-again", 0),
        ("start", 11, "solver", "registered-range", 0),
        ("mark", "solver", "solver-mark", 0),
        ("end", 11, "solver"),
        ("end", 10, ""),
        ("end", 9, "wide-\u00e5"),
        ("end", 8, "solver"),
    ],
    "NVTX C program",
)

# Refused ranges (id 0) still nest, and are not ended.
refused = run(
    [sys.argv[1]],
    env={"NVTX_INJECTION64_PATH": LOG_LIBRARY, "MSPROF_ANNOTATION_LOG_REFUSE": "1"},
    expect_failure=True,
)
check(
    refused.returncode != 0 and "a != 0" in refused.stderr,
    "refused ranges: push/pop levels still hold; start ids are 0",
)
check(
    all(e[0] == "mark" for e in refused.events) and len(refused.events) == 2,
    "refused ranges: pops end nothing; only marks are logged",
)

finish()
