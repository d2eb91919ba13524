"""(a) The log injection library driven by a program that implements the
client side of the mstx protocol itself (as the vendor's header does)."""

import sys

from annotation_log import LOG_LIBRARY, check, check_events, finish, run

program = sys.argv[1]
STREAM = 0x1234
LONG = "x" * 255  # 399 bytes given, cut at 255
SPLIT = "a" * 254  # the 2-byte character at 254..255 is dropped whole

core_events = [
    ("start", 1, "", "outer", STREAM),
    ("mark", "", "tick", 0),
    ("start", 2, "", "", 0),
    ("end", 2, ""),
    ("end", 1, ""),
    ("mark", "", LONG, 0),
    ("mark", "", SPLIT, 0),
]
domain_events = [
    ("start", 3, "solver", "step", STREAM),
    ("mark", "io", "read", 0),
    ("end", 3, "solver"),
    ("start", 4, "", "default", 0),
    ("end", 4, ""),
    ("mark", "solver", "after destroy", 0),
]

full = run([program, "full"], env={"MSTX_INJECTION_PATH": LOG_LIBRARY})
check(full.returncode == 0, "client offering core and domain modules")
check_events(full.events, core_events + domain_events, "full client")

core_only = run([program, "core-only"], env={"MSTX_INJECTION_PATH": LOG_LIBRARY})
check(core_only.returncode == 0, "client refusing the domain module still attaches")
check_events(core_only.events, core_events, "core-only client")

finish()
