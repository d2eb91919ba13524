"""Large snapshots: what capturing a range over gigabytes costs, against memcpy.

    python3 bench/record/snapshot_bench.py [--msprof-record PATH] [--mib 2048] [--runs 3]
                                           [--compare PATH]...

One range scales a --mib MiB float32 buffer in place (snapshot_workload.py),
so the recorder captures its initial and its final state: 2 x --mib MiB.
Three cases: the buffer holds zeros, it holds random floats, and it is
fresh (never touched before the range, whose kernel writes it). Each case
runs --runs interleaved rounds of one plain and one recorded run per
msprof-record (--compare PATH adds another build's, judged in the same
rounds), after one untimed plain warm-up run.

For each case and build it prints the best wall time plain and recorded,
the added time, the bytes captured (the launcher's summary), the capture
throughput (captured bytes per second of added time) and that throughput
against memcpy's, measured here on 1 GiB before the cases. Targets: zeros
captured at least a third as fast as memcpy; random floats added no more
time than the first --compare build's (when one is given); fresh has none
(its figure shows what reading untouched memory would cost the kernel).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "snapshot_workload.py")
SCALE = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


def run(cmd):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"snapshot_bench: {' '.join(cmd)} failed: {p.stderr.strip()[-500:]}")
    return wall, p.stdout, p.stderr


def memcpy_bytes_per_s():
    src = np.ones(1 << 28, dtype=np.float32)
    dst = np.empty_like(src)
    np.copyto(dst, src)  # faults both in
    best = min(timed(lambda: np.copyto(dst, src)) for _ in range(3))
    return src.nbytes / best


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--msprof-record", default=shutil.which("msprof-record") or "msprof-record")
    ap.add_argument("--mib", type=int, default=2048)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--compare", action="append", default=[], metavar="PATH",
                    help="another build's msprof-record, measured in the same rounds")
    args = ap.parse_args()
    builds = [("this build", args.msprof_record)] + [(c, c) for c in args.compare]

    memcpy = memcpy_bytes_per_s()
    print(f"memcpy: {memcpy / 1e9:.2f} GB/s (1 GiB, numpy.copyto, best of 3)")
    tmp = tempfile.mkdtemp(prefix="snapshot_bench.")
    trace = os.path.join(tmp, "trace.fb")
    failed = False
    print(f"\n{'case':<8} {'build':<28} {'plain s':>8} {'rec s':>8} {'added s':>8} "
          f"{'captured':>10} {'GB/s':>6} {'vs memcpy':>9}")
    try:
        for kind in ("zeros", "random", "fresh"):
            workload = [sys.executable, WORKLOAD, "--kind", kind, "--mib", str(args.mib)]
            run(workload)  # warm-up
            plains, recs = [], {b: [] for b, _ in builds}
            for _ in range(args.runs):
                plains.append(run(workload))
                for name, exe in builds:
                    if os.path.exists(trace):
                        os.remove(trace)
                    recs[name].append(run([exe, "-f", "-o", trace, "--"] + workload))
            plain = min(p[0] for p in plains)
            expected = plains[0][1].split()[-1]
            added = {}
            for name, _ in builds:
                best = min(recs[name], key=lambda r: r[0])
                assert best[1].split()[-1] == expected, "a recorded run computed something else"
                m = re.search(r"([\d.]+) (B|KiB|MiB|GiB) snapshotted", best[2])
                captured = float(m.group(1)) * SCALE[m.group(2)] if m else float("nan")
                added[name] = best[0] - plain
                rate = captured / max(added[name], 1e-9)
                print(f"{kind:<8} {name[-28:]:<28} {plain:>8.2f} {best[0]:>8.2f} "
                      f"{added[name]:>8.2f} {captured / (1 << 30):>6.2f} GiB "
                      f"{rate / 1e9:>6.2f} {rate / memcpy:>8.2f}x")
            if kind == "zeros":
                rate = 2 * (args.mib << 20) / max(added[builds[0][0]], 1e-9)
                ok = rate >= memcpy / 3
                failed |= not ok
                print(f"  target: zeros captured at >= 1/3 of memcpy: "
                      f"{rate / memcpy:.2f}x {'met' if ok else 'NOT met'}")
            elif kind == "random" and len(builds) > 1:
                ours, theirs = added[builds[0][0]], added[builds[1][0]]
                ok = ours <= theirs * 1.05 + 0.05
                failed |= not ok
                print(f"  target: random added time no worse than {builds[1][0]}: "
                      f"{ours:.2f} s against {theirs:.2f} s, {'met' if ok else 'NOT met'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
