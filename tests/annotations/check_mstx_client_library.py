"""(b) A program linked against libms_tools_ext.so: without a tool, with the
tool named by MSTX_INJECTION_PATH, with the tool preloaded (found in the
global scope), and with tools that cannot be used."""

import sys

from annotation_log import CLIENT_LIBRARY, LOG_LIBRARY, check, check_events, finish, run

program, failing_tool = sys.argv[1], sys.argv[2]
THREADS = 8
STREAM = 0xABC


def check_tool_run(result, how):
    check(result.returncode == 0, f"{how}: program checks pass")
    starts = [e for e in result.events[: 2 * THREADS] if e[0] == "start"]
    ends = [e for e in result.events[: 2 * THREADS] if e[0] == "end"]
    check(sorted(e[1] for e in starts) == list(range(1, THREADS + 1)), f"{how}: thread range ids")
    check(
        sorted(e[3] for e in starts) == sorted(f"thread-{i}" for i in range(THREADS)),
        f"{how}: thread range messages",
    )
    check(sorted(e[1] for e in ends) == list(range(1, THREADS + 1)), f"{how}: thread range ends")
    check_events(
        result.events[2 * THREADS :],
        [
            ("start", THREADS + 1, "", "main", STREAM),
            ("mark", "", "point", STREAM),
            ("start", THREADS + 2, "linked", "inner", 0),
            ("mark", "linked", "inside", 0),
            ("end", THREADS + 2, "linked"),
            ("end", THREADS + 1, ""),
        ],
        how,
    )


def check_noop_run(result, how, warning):
    check(result.returncode == 0, f"{how}: no-op calls return 0 and do not crash")
    check(result.events == [], f"{how}: nothing logged")
    check((warning in result.stderr) if warning else result.stderr == "", f"{how}: stderr")


check_noop_run(run([program, "noop"]), "no tool", None)
check_tool_run(run([program, "tool"], env={"MSTX_INJECTION_PATH": LOG_LIBRARY}), "by path")
check_tool_run(run([program, "tool"], preload=[LOG_LIBRARY]), "preloaded")
check_noop_run(
    run([program, "noop"], env={"MSTX_INJECTION_PATH": "/nonexistent/libtool.so"}),
    "missing tool",
    "mstx: warning: cannot load MSTX_INJECTION_PATH=/nonexistent/libtool.so",
)
check_noop_run(
    run([program, "noop"], env={"MSTX_INJECTION_PATH": CLIENT_LIBRARY}),
    "library without InitInjectionMstx",
    "does not export InitInjectionMstx",
)
check_noop_run(
    run([program, "noop"], env={"MSTX_INJECTION_PATH": failing_tool}), "failing tool", None
)

finish()
