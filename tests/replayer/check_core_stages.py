#!/usr/bin/env python3
"""replayer/core's stage folders include only the folders below them.

replayer/core/README.md lists, per folder, the folders it may use; this is
that table. Every `#include "replayer/core/..."` of every source in a folder
must name a file of the folder itself or of one it may use, so no two
folders depend on each other. The check fails when a folder has no source,
when a folder on disk is not in the table, or when it does not catch a
known violation, so that it cannot pass by checking nothing.
"""

import argparse
import os
import re
import sys

# "" is replayer/core itself: the values every stage shares.
MAY_USE = {
    "": set(),
    "host": {""},
    "restore": set(),
    "plan": {"", "host"},
    "device": {"", "plan"},
    "verify": {"", "plan", "device"},
    "counters": {""},
    "results": {"", "verify"},
    "session": {"", "host", "restore", "plan", "device", "counters", "verify", "results"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"replayer/core/([^"]+)"')
SOURCE_SUFFIXES = (".h", ".cc")


def folder_of(included):
    """The stage folder of an include path relative to replayer/core."""
    parts = included.split("/")
    return parts[0] if len(parts) > 1 else ""


def problems_in(folder, text):
    """(line number, message) for each include `folder` may not have."""
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        target = folder_of(match.group(1))
        if target != folder and target not in MAY_USE[folder]:
            yield number, "includes replayer/core/%s: %s may use %s" % (
                match.group(1), folder or "replayer/core/",
                ", ".join(sorted(f or "replayer/core/" for f in MAY_USE[folder])) or "no other folder")


def check_rules():
    caught = list(problems_in("plan", '#include "replayer/core/verify/element_type.h"\n'))
    caught += list(problems_in("", '#include "replayer/core/plan/range_plan.h"\n'))
    allowed = list(problems_in("verify", '#include "replayer/core/plan/trace_catalog.h"\n'
                                         '#include "replayer/core/replay_error.h"\n'))
    if len(caught) != 2 or allowed:
        sys.exit("check_core_stages: the rules do not catch a known violation")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="the repository root")
    args = parser.parse_args()
    check_rules()
    core = os.path.join(args.root, "replayer", "core")
    failures = []
    on_disk = {""} | {d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d))}
    for folder in sorted(on_disk - set(MAY_USE)):
        failures.append("replayer/core/%s/: a folder this check does not know; add it to "
                        "MAY_USE and to replayer/core/README.md" % folder)
    for folder in sorted(MAY_USE):
        path = os.path.join(core, folder)
        sources = sorted(f for f in os.listdir(path) if f.endswith(SOURCE_SUFFIXES)) \
            if os.path.isdir(path) else []
        if not sources:
            failures.append("replayer/core/%s: no source to check" % folder)
        for name in sources:
            with open(os.path.join(path, name), encoding="utf-8") as f:
                text = f.read()
            shown = os.path.join("replayer/core", folder, name)
            for number, message in problems_in(folder, text):
                failures.append("%s:%d: %s" % (shown, number, message))
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print("replayer/core: %d folders, every include within its stage" % len(MAY_USE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
