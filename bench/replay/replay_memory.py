#!/usr/bin/env python3
"""Peak memory of msprof-replay against the bytes of the range it replays
(bench/replay/README.md).

A synthetic trace of one range over --mib MiB of buffers (default 4096) is
written by msprof_big_range_trace for each layout (in-place: every buffer
written by the range; mixed: inputs, an output that starts as zeros, one
buffer written in place) and replayed once per --restore policy, side by
side, each in a fresh process. Per run: the peak resident memory of
msprof-replay (the kernel's ru_maxrss of the child), its ratio to the
buffer bytes, the target (at most 1.5x the buffer bytes + 256 MiB, for the
default policy, auto), the median restore time per pass and the pass
overhead (restore + wall - kernels), and the verdict (bit-exact expected).

Exit status 0 when every auto run meets the target and every run verifies
bit-exact, 1 otherwise.

usage: replay_memory.py [--build DIR] [--mib N] [--launch-count N] [--keep DIR]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

POLICIES = ("auto", "trace", "copy")
LAYOUTS = ("in-place", "mixed")
MIB = 1 << 20


def replay(tool, trace, policy, launch_count, out):
    argv = [str(tool), str(trace), "--restore", policy, "--launch-count", str(launch_count),
            "--output", str(out), "--format", "json"]
    out.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with open(out / "stdout.json", "wb") as stdout, open(out / "stderr.txt", "wb") as stderr:
        child = subprocess.Popen(argv, stdout=stdout, stderr=stderr)
        # Reaped here, not by Popen, for the child's own peak memory.
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    if child.returncode != 0:
        sys.exit(f"replay_memory: {' '.join(argv)} exited {child.returncode}: "
                 f"{(out / 'stderr.txt').read_text(errors='replace').strip()}")
    return json.loads((out / "stdout.json").read_text()), usage.ru_maxrss * 1024, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build/release", type=pathlib.Path)
    parser.add_argument("--mib", default=4096, type=int)
    parser.add_argument("--launch-count", default=3, type=int)
    parser.add_argument("--keep", type=pathlib.Path, help="keep the traces and results here")
    args = parser.parse_args()
    tool = args.build / "replayer/cli/msprof-replay"
    make = args.build / "bench/replay/msprof_big_range_trace"
    for path in (tool, make):
        if not path.exists():
            sys.exit(f"replay_memory: {path} is not built; build {args.build} with "
                     "-DMSPROF_BUILD_BENCH=ON")
    work = args.keep or pathlib.Path(tempfile.mkdtemp(prefix="msprof_replay_memory_"))
    work.mkdir(parents=True, exist_ok=True)
    budget = args.mib * MIB
    target = 1.5 * budget + 256 * MIB
    ok = True
    print(f"range of {args.mib} MiB of buffers; target for auto: peak <= "
          f"{target / MIB:.0f} MiB (1.5x + 256 MiB); --launch-count {args.launch_count}\n")
    print("| layout | --restore | restored from copies / trace / fills (MiB) | peak RSS (MiB) "
          "| x buffers | restore per pass (ms) | pass overhead (ms) | verdict | run (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for layout in LAYOUTS:
        trace = work / f"big_{layout}.fb"
        subprocess.run([str(make), "--mib", str(args.mib), "--layout", layout, str(trace)],
                       check=True)
        for policy in POLICIES:
            result, peak, seconds = replay(tool, trace, policy, args.launch_count,
                                           work / f"out_{layout}_{policy}")
            r = result["ranges"][0]
            verdict = r["verification"]["status"]
            restore = r["restore"]
            overhead = (r["restore_us"]["median"] + r["wall_us"]["median"] -
                        r["kernel_sum_us"]["median"]) / 1e3
            met = peak <= target
            if policy == "auto":
                ok = ok and met
            ok = ok and verdict == "bit-exact"
            print(f"| {layout} | {policy} | {restore['copies_bytes'] / MIB:.0f} / "
                  f"{restore['trace_bytes'] / MIB:.0f} / {restore['zeros_bytes'] / MIB:.0f} | "
                  f"{peak / MIB:.0f}{'' if policy != 'auto' else (' ok' if met else ' MISSED')} | "
                  f"{peak / budget:.2f} | {r['restore_us']['median'] / 1e3:.0f} | "
                  f"{overhead:.0f} | {verdict} | {seconds:.0f} |", flush=True)
        if args.keep is None:
            trace.unlink()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
