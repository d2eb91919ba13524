"""Programs of many kernels: what recording costs a program that builds one
and runs two of its kernels, on a cold driver cache.

    python3 bench/record/binaries_bench.py [--msprof-record PATH] [--runs 5] [--kernels 60]
                                           [--compare PATH]...

The program (binaries_workload.py) builds an OpenCL C program of --kernels
kernels and runs a range of 2 of them. Every run, plain or recorded, gets a
driver cache of its own, empty (POCL_CACHE_DIR, a new folder each time), so
each compiles what it compiles from scratch, as a first run does. In --runs
interleaved rounds: one plain run, one recorded run with the defaults, one
with --program-binaries (the binaries of every program built from source
asked of the driver), and one per --compare build.

Prints per configuration the best wall time, its ratio to the best plain
run, the median of the paired ratios (each recorded run against the plain
run of its round) and the time the program spent in the recorder (the
launcher's summary, median). Target: the default recording at most 1.3x
the plain run (median paired ratio); exit status 1 when missed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "binaries_workload.py")
TARGET = 1.3


def run(cmd, cache_root):
    """Wall seconds and stderr of one run on an empty driver cache."""
    cache = tempfile.mkdtemp(dir=cache_root)
    env = dict(os.environ, POCL_CACHE_DIR=cache)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    shutil.rmtree(cache, ignore_errors=True)
    if p.returncode != 0:
        sys.exit(f"binaries_bench: {' '.join(cmd)} failed: {p.stderr.strip()[-500:]}")
    return wall, p.stdout, p.stderr


def median(xs):
    return sorted(xs)[len(xs) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--msprof-record", default=shutil.which("msprof-record") or "msprof-record")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--kernels", type=int, default=60)
    ap.add_argument("--compare", action="append", default=[], metavar="PATH",
                    help="another build's msprof-record, measured in the same rounds")
    args = ap.parse_args()
    workload = [sys.executable, WORKLOAD, "--kernels", str(args.kernels)]
    configs = [("default", args.msprof_record, []),
               ("--program-binaries", args.msprof_record, ["--program-binaries"])]
    configs += [(c, c, []) for c in args.compare]
    tmp = tempfile.mkdtemp(prefix="binaries_bench.")
    trace = os.path.join(tmp, "trace.fb")
    try:
        run(workload, tmp)  # warm-up: Python, pyopencl and the driver loaded once
        plains, recs = [], {name: [] for name, _, _ in configs}
        for _ in range(args.runs):
            plains.append(run(workload, tmp))
            for name, exe, extra in configs:
                if os.path.exists(trace):
                    os.remove(trace)
                recs[name].append(run([exe, "-f", "-o", trace] + extra + ["--"] + workload, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    expected = plains[0][1].split()[-1]
    plain = min(p[0] for p in plains)
    print(f"{args.kernels}-kernel program, 2 kernels in the range, cold driver cache, "
          f"{args.runs} rounds")
    print(f"{'run':<28} {'best s':>7} {'ratio':>6} {'median paired':>14} {'in recorder ms':>15}")
    print(f"{'plain':<28} {plain:>7.2f}")
    failed = False
    for name, _, _ in configs:
        runs = recs[name]
        for r in runs:
            assert r[1].split()[-1] == expected, "a recorded run computed something else"
        paired = median([r[0] / p[0] for r, p in zip(runs, plains)])
        inside = [float(m.group(1)) for r in runs
                  if (m := re.search(r"([\d.]+) ms spent capturing", r[2]))]
        best = min(r[0] for r in runs)
        print(f"{name[-28:]:<28} {best:>7.2f} {best / plain:>6.2f} {paired:>14.2f} "
              f"{median(inside) if inside else float('nan'):>15.1f}")
        if name == "default":
            ok = paired <= TARGET
            failed |= not ok
            target_line = f"target: default recording <= {TARGET}x plain: {paired:.2f}, " + (
                "met" if ok else "NOT met")
    print(target_line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
