"""(d) The `nvtx` PyPI package (push/pop, annotate, start/end, domains)
against the log injection library, with mstx calls in the same process."""

from annotation_log import (
    CLIENT_LIBRARY,
    LOG_LIBRARY,
    SKIP,
    check,
    check_events,
    finish,
    python_child,
    python_env,
    run,
)

try:
    import nvtx  # noqa: F401  (only to know whether the package is there)
except ImportError:
    print("the nvtx package is not installed: skipped")
    raise SystemExit(SKIP)

result = run(
    python_child("nvtx_package_program.py"),
    env=python_env(
        NVTX_INJECTION64_PATH=LOG_LIBRARY,
        MSTX_INJECTION_PATH=LOG_LIBRARY,
        MSTX_LIBRARY=CLIENT_LIBRARY,
    ),
    python=True,
)
check(result.returncode == 0, "program ran")
# One sink serves both front ends, so ids are shared.
check_events(
    result.events,
    [
        ("start", 1, "", "outer", 0),
        ("start", 2, "solver", "inner", 0),
        ("mark", "", "tick", 0),
        ("end", 2, "solver"),
        ("end", 1, ""),
        ("start", 3, "", "block", 0),
        ("start", 4, "", "mstx-inside", 0),
        ("end", 4, ""),
        ("end", 3, ""),
        ("start", 5, "solver", "decorated", 0),
        ("end", 5, "solver"),
        ("start", 6, "", "started", 0),
        ("end", 6, ""),
    ],
    "nvtx package",
)

finish()
