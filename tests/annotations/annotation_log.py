"""Shared pieces of the annotation tests: run a program against the log
injection library and read back the events it logged.

The environment comes from CMake (tests/annotations/CMakeLists.txt):
MSPROF_TEST_LOG_LIBRARY, MSPROF_TEST_CLIENT_LIBRARY, MSPROF_TEST_PYTHON_SOURCE
and MSPROF_TEST_SANITIZER_PRELOAD (the sanitizer runtimes, colon-separated,
in sanitizer builds).
"""

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
LOG_LIBRARY = os.environ["MSPROF_TEST_LOG_LIBRARY"]
CLIENT_LIBRARY = os.environ["MSPROF_TEST_CLIENT_LIBRARY"]
PYTHON_SOURCE = os.environ["MSPROF_TEST_PYTHON_SOURCE"]
SANITIZER_PRELOAD = os.environ.get("MSPROF_TEST_SANITIZER_PRELOAD", "")

# Variables that would attach a tool or pick a library behind a test's back.
_SCRUBBED = (
    "MSTX_INJECTION_PATH",
    "NVTX_INJECTION64_PATH",
    "MSTX_LIBRARY",
    "LD_PRELOAD",
    "MSPROF_ANNOTATION_LOG",
    "MSPROF_ANNOTATION_LOG_FIRST_ID",
    "MSPROF_ANNOTATION_LOG_REFUSE",
)

failures = 0


def check(condition, what):
    global failures
    if not condition:
        failures += 1
        print(f"FAILED: {what}", file=sys.stderr)


def finish():
    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)


class Run:
    def __init__(self, completed, events):
        self.returncode = completed.returncode
        self.stdout = completed.stdout
        self.stderr = completed.stderr
        self.events = events


def run(command, env=None, preload=(), python=False, expect_failure=False):
    """Runs `command` with a fresh log file; returns its result and events.

    `preload` libraries go to LD_PRELOAD (after the sanitizer runtime, which
    must come first). `python` marks a Python child: it gets the sanitizer
    runtime preloaded, since it loads instrumented libraries. The output of
    a failing run is shown unless `expect_failure`."""
    child_env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
    child_env.update(env or {})
    preloads = list(preload)
    if SANITIZER_PRELOAD and (preloads or python):
        preloads.insert(0, SANITIZER_PRELOAD)
    if preloads:
        child_env["LD_PRELOAD"] = " ".join(preloads)
    with tempfile.TemporaryDirectory(prefix="msprof-annotations-") as folder:
        log = Path(folder) / "events.log"
        child_env["MSPROF_ANNOTATION_LOG"] = str(log)
        completed = subprocess.run(
            [str(c) for c in command], env=child_env, capture_output=True, text=True, timeout=100
        )
        events = read_events(log) if log.exists() else []
    if completed.returncode != 0 and not expect_failure:
        print(f"$ {' '.join(map(str, command))}\n{completed.stdout}{completed.stderr}", file=sys.stderr)
    return Run(completed, events)


def read_events(path):
    """Each logged line as a tuple of fields: ("start", id, domain, message,
    stream) with id and stream as ints, ("end", id, domain), ("mark", domain,
    message, stream)."""
    events = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        fields = shlex.split(line)
        kind = fields[0]
        if kind == "start":
            events.append(("start", int(fields[1]), fields[2], fields[3], int(fields[4])))
        elif kind == "end":
            events.append(("end", int(fields[1]), fields[2]))
        elif kind == "mark":
            events.append(("mark", fields[1], fields[2], int(fields[3])))
        else:
            raise ValueError(f"unknown log line: {line!r}")
    return events


def check_events(actual, expected, what):
    if actual == expected:
        return
    check(False, f"{what}: logged events differ")
    print("  expected:", file=sys.stderr)
    for event in expected:
        print(f"    {event}", file=sys.stderr)
    print("  logged:", file=sys.stderr)
    for event in actual:
        print(f"    {event}", file=sys.stderr)


def python_child(script, *args):
    return [sys.executable, str(HERE / script), *args]


def python_env(**extra):
    env = {"PYTHONPATH": PYTHON_SOURCE, "PYTHONDONTWRITEBYTECODE": "1"}
    env.update(extra)
    return env
