#!/usr/bin/env python3
"""The workbench's sweep against separate runs (bench/replay/README.md).

sweep_workload.py (a stencil kernel and a scale that reads its result) is
recorded once; then, side by side, in --repeat rounds:
  - one msprof-replay run sweeping the stencil over 8 local sizes
    (`--sweep smooth:local-size=8,16,...,1024`);
  - 8 msprof-replay runs, one per local size (`--local-size smooth=S`),
    as a user without the sweep would run them.
Both replay the same passes of every variant (each run also replays the
recorded range beside its variant). A first round of both is not timed:
the driver's kernel cache then holds what every local size compiles to. Printed: the best wall time of each
side over the rounds, their ratio (target: the sweep at least 3x faster),
and each variant's median kernel time from the sweep against the separate
run's, which should agree. The same for examples/matmul_range.py's matmul
(8 local sizes of its 2D launch) is printed, not judged: its variants'
passes take most of either side's time, which no sweep saves.

Exit status 0 when the target is met and every variant verifies.

usage: workbench_sweep.py [--build DIR] [--repeat N] [--keep DIR]
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time

SOURCE = pathlib.Path(__file__).resolve().parents[2]
STENCIL_SIZES = ["8", "16", "32", "64", "128", "256", "512", "1024"]
MATMUL_SIZES = ["4x4", "8x8", "16x16", "32x8", "8x32", "16x4", "4x16", "32x32"]


def run(argv):
    start = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"workbench_sweep: {' '.join(argv)} exited {result.returncode}: "
                 f"{result.stderr.strip()}")
    return seconds, json.loads(result.stdout)


def variants_of(summary):
    out = {}
    for v in summary["ranges"][0]["variants"]:
        out[v["label"].split("=")[-1]] = v
    return out


def compare(replay, trace, kernel, sizes, out, repeat):
    sweep_best = separate_best = float("inf")
    sweep_variants, separate_variants = {}, {}
    # Round 0 is not timed: PoCL compiles a kernel again for every local size
    # it is launched with and keeps that in its cache, so whichever side ran
    # first would pay for every compilation.
    for round in range(repeat + 1):
        seconds, summary = run([str(replay), str(trace), "--format", "json", "--output", str(out),
                                "--sweep", f"{kernel}:local-size={','.join(sizes)}"])
        if round != 0 and seconds < sweep_best:
            sweep_best, sweep_variants = seconds, variants_of(summary)
        total, found = 0.0, {}
        for size in sizes:
            seconds, summary = run([str(replay), str(trace), "--format", "json", "--output",
                                    str(out), "--local-size", f"{kernel}={size.replace('x', ',')}"])
            total += seconds
            for v in summary["ranges"][0]["variants"]:
                found[size] = v
        if round != 0 and total < separate_best:
            separate_best, separate_variants = total, found
    return sweep_best, separate_best, sweep_variants, separate_variants


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=pathlib.Path, default=SOURCE / "build/release")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=pathlib.Path)
    args = parser.parse_args()
    record = args.build / "recorder/launcher/msprof-record"
    replay = args.build / "replayer/cli/msprof-replay"
    for tool in (record, replay):
        if not tool.exists():
            sys.exit(f"workbench_sweep: {tool} is missing; build {args.build} first")
    work = args.keep or pathlib.Path(tempfile.mkdtemp(prefix="msprof_workbench_sweep_"))
    work.mkdir(parents=True, exist_ok=True)
    cases = [("stencil", SOURCE / "bench/replay/sweep_workload.py", "smooth", STENCIL_SIZES, True),
             ("matmul", SOURCE / "examples/matmul_range.py", "matmul", MATMUL_SIZES, False)]
    ok = True
    print(f"best of {args.repeat} rounds, default passes (--warm-up 1 --launch-count 10)\n")
    print("| range | variants | one sweep (s) | separate runs (s) | sweep faster by | target |")
    print("|---|---:|---:|---:|---:|---|")
    details = []
    for name, program, kernel, sizes, judged in cases:
        trace = work / f"{name}.fb"
        subprocess.run([str(record), "-q", "-f", "-o", str(trace), "--", sys.executable,
                        str(program)], check=True, stdout=subprocess.DEVNULL)
        sweep, separate, in_sweep, alone = compare(replay, trace, kernel, sizes, work / "out",
                                                   args.repeat)
        ratio = separate / sweep
        met = ratio >= 3
        if judged:
            ok = ok and met
        print(f"| {name} | {len(sizes)} | {sweep:.2f} | {separate:.2f} | {ratio:.1f}x | "
              f"{('ok' if met else 'MISSED') if judged else 'not judged'} |")
        for size in sizes:
            a, b = in_sweep.get(size), alone.get(size)
            good = all(v is not None and v["verification"]["status"] == "bit-exact"
                       for v in (a, b))
            ok = ok and good
            details.append(f"| {name} | {kernel}:local-size={size} | "
                           f"{a['changed_us']['median'] if a else float('nan'):.1f} | "
                           f"{b['changed_us']['median'] if b else float('nan'):.1f} | "
                           f"{'bit-exact' if good else 'NOT VERIFIED'} |")
    # The example's own edit, as the README's workflow runs it.
    seconds, summary = run([str(replay), str(work / "matmul.fb"), "--format", "json", "--output",
                            str(work / "out"), "--kernel-source",
                            f"matmul={SOURCE / 'examples/workbench/matmul_tiled.cl'}",
                            "--tolerance", "1e-4,1e-5"])
    tiled = summary["ranges"][0]["variants"][0]
    ok = ok and tiled["verification"]["status"] in ("bit-exact", "within tolerance")
    print(f"\nexamples/workbench/matmul_tiled.cl against the recorded naive matmul: kernel "
          f"{tiled['changed_ratio']:.2f}x ({tiled['changed_us']['median']:.0f} against "
          f"{tiled['recorded_changed_us']['median']:.0f} us), range {tiled['ratio']:.2f}x, "
          f"{'beyond' if tiled['beyond_spread'] else 'within'} the spread, "
          f"{tiled['verification']['status']}")
    print("\n| range | variant | kernel median in the sweep (us) | in its own run (us) | "
          "verdicts |")
    print("|---|---|---:|---:|---|")
    print("\n".join(details))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
