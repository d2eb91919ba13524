#!/usr/bin/env python3
"""What range replay costs against application replay, and how closely it
reproduces long kernels, with the real tools (bench/replay/README.md):

(a) pass overhead (restore + wall - kernels) against a memcpy of the
    restored bytes, target <= 1.5x: on the recorder's 64 MiB benchmark
    trace (bench/record/workload.py --mib 64, two of its ranges, recorded
    here) replayed with the defaults, and by msprof_replay_pass_bench on a
    synthetic 64 MiB trace beside native runs (skipped when not built);
(b) `msprof-replay --launch-count 10` on the trace of examples/test.py
    against running `python3 examples/test.py` 10 times; target >= 20x;
(c) long_kernels.py recorded --repeat times and each trace replayed: per
    kernel longer than 1 ms, the replayed median against the median of its
    launches in the run that recorded it, with the default cache clearing;
    target within 15%.
    The same with --cache-control none is printed beside it, not judged: it
    shows what warm caches are worth, not how faithful the replay is.

Times in (a) and (b) are the best of --repeat runs (other programs only ever
slow a run down); (c) pairs each replay with its own recording and takes
medians. Exit status 0 when every target is
met, 1 otherwise.

usage: replay_vs_application.py [--build DIR] [--repeat N] [--keep DIR]
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = pathlib.Path(__file__).resolve().parents[2]


def run(argv, **kwargs):
    return subprocess.run(argv, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kwargs)


def timed(argv, **kwargs):
    start = time.perf_counter()
    result = run(argv, **kwargs)
    return time.perf_counter() - start, result


class Tools:
    def __init__(self, build):
        self.record = build / "recorder/launcher/msprof-record"
        self.replay = build / "replayer/cli/msprof-replay"
        self.pass_bench = build / "bench/replay/msprof_replay_pass_bench"
        for tool in (self.record, self.replay):
            if not tool.exists():
                sys.exit(f"replay_vs_application: error: {tool} is missing; build it first")

    def record_trace(self, program, trace):
        run([str(self.record), "-q", "-f", "-o", str(trace), "--", *program])

    def replay_json(self, trace, options, output):
        seconds, result = timed([str(self.replay), str(trace), "--format", "json", "--output",
                                 str(output), *options])
        return seconds, json.loads(result.stdout)


def plain_python_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SOURCE / "recorder/python")] + ([env["PYTHONPATH"]] if "PYTHONPATH" in env else []))
    return env


def verdict(ok):
    return "ok" if ok else "MISSED"


def bench_pass_overhead(tools):
    print("## (a) pass overhead and kernel fidelity on a synthetic trace "
          "(msprof_replay_pass_bench)\n")
    if not tools.pass_bench.exists():
        print(f"skipped: {tools.pass_bench} is not built (-DMSPROF_BUILD_BENCH=ON)\n")
        return True
    result = subprocess.run([str(tools.pass_bench)], stdout=subprocess.PIPE, text=True)
    print("```\n" + result.stdout.rstrip() + "\n```\n")
    return result.returncode == 0


def memcpy_seconds(size):
    """Median of 5 single-threaded copies of `size` bytes, pages touched first."""
    import numpy as np
    src = np.ones(size, dtype=np.uint8)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        np.copyto(dst, src)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_recorded_pass_overhead(tools, work, repeat):
    print("## (a) pass overhead on the recorder's 64 MiB benchmark trace\n")
    trace = work / "workload64.fb"
    run([str(tools.record), "-q", "-f", "-o", str(trace), "--", sys.executable,
         str(SOURCE / "bench/record/workload.py"), "--mib", "64", "--ranges", "2"],
        env=plain_python_env())
    print("`workload.py --mib 64 --ranges 2` recorded, `msprof-replay --launch-count 10` "
          f"(defaults) {repeat} times; per range and run the medians over the passes, and "
          "a memcpy of the restored bytes timed right after.\n")
    print("| run | range | restored MiB | restore ms | wall - kernels ms | overhead ms "
          "| memcpy ms | overhead / memcpy |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for index in range(repeat):
        _, summary = tools.replay_json(trace, ["--launch-count", "10"], work / "results")
        for r in summary["ranges"]:
            assert r["status"] == "replayed" and r["verification"]["status"] == "bit-exact", r
            restore = r["restore_us"]["median"] / 1e3
            beyond = (r["wall_us"]["median"] - r["kernel_sum_us"]["median"]) / 1e3
            copy = memcpy_seconds(r["restored_bytes"]) * 1e3
            ratios.append((restore + beyond) / copy)
            print(f"| {index + 1} | {r['name']} | {r['restored_bytes'] / (1 << 20):.0f} "
                  f"| {restore:.1f} | {beyond:.2f} | {restore + beyond:.1f} | {copy:.1f} "
                  f"| {ratios[-1]:.2f} |")
    ratio = statistics.median(ratios)
    print(f"\nmedian overhead / memcpy {ratio:.2f}, target <= 1.5x: {verdict(ratio <= 1.5)}\n")
    return ratio <= 1.5


def bench_application_replay(tools, work, repeat):
    print("## (b) msprof-replay --launch-count 10 against running the program 10 times\n")
    script = SOURCE / "examples/test.py"
    trace = work / "test.fb"
    tools.record_trace([sys.executable, str(script)], trace)
    env = plain_python_env()
    app = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(10):
            run([sys.executable, str(script)], env=env)
        app.append(time.perf_counter() - start)
    rows = [("`python3 examples/test.py`, 10 runs", app, None)]
    ok = True
    for label, options in (("`msprof-replay --launch-count 10` (default: cache cleared)", []),
                           ("`msprof-replay --launch-count 10 --cache-control none`",
                            ["--cache-control", "none"])):
        times = []
        for _ in range(repeat):
            seconds, summary = tools.replay_json(trace, ["--launch-count", "10", *options],
                                                 work / "results")
            assert all(r["verification"]["status"] == "bit-exact"
                       for r in summary["ranges"] if r["status"] == "replayed")
            times.append(seconds)
        speedup = min(app) / min(times)
        ok = ok and speedup >= 20
        rows.append((label, times, speedup))
    print("| run | best s | median s | application / this (best) | target >= 20x |")
    print("|---|---:|---:|---:|---|")
    for label, times, speedup in rows:
        extra = "| |" if speedup is None else f"| {speedup:.1f}x | {verdict(speedup >= 20)} |"
        print(f"| {label} | {min(times):.3f} | {statistics.median(times):.3f} {extra}")
    print()
    return ok


def bench_long_kernels(tools, work, repeat):
    print("## (c) replayed median against the recorded run, kernels > 1 ms (long_kernels.py)\n")
    program = [sys.executable, str(SOURCE / "bench/replay/long_kernels.py")]
    modes = (("all", []), ("none", ["--cache-control", "none"]))
    # Per kernel name, one entry per recording: the median of its launches'
    # durations in that run, and the median of those launches' replayed
    # medians in each mode. The recorded launches' spread is kept to show
    # how noisy one original launch is.
    original = {}
    spread = {}
    launch_counts = {}
    replayed = {mode: {} for mode, _ in modes}
    order = []
    for i in range(repeat):
        trace = work / f"long_{i}.fb"
        tools.record_trace(program, trace)
        for mode, options in modes:
            _, summary = tools.replay_json(trace, options, work / "results")
            (rng,) = summary["ranges"]
            assert rng["verification"]["status"] == "bit-exact", rng["verification"]
            launches = {}
            for k in rng["kernels"]:
                launches.setdefault(k["name"], []).append(k)
            for name, ks in launches.items():
                if name not in order:
                    order.append(name)
                launch_counts[name] = len(ks)
                if mode == "all":
                    durations = [k["original_us"] for k in ks]
                    middle = statistics.median(durations)
                    original.setdefault(name, []).append(middle)
                    lows, highs = spread.setdefault(name, ([], []))
                    lows.append(min(durations) / middle)
                    highs.append(max(durations) / middle)
                replayed[mode].setdefault(name, []).append(
                    statistics.median(k["duration_us"]["median"] for k in ks))
        trace.unlink()
    print(f"Medians over {repeat} recordings. Per recording, a kernel's original duration is the "
          "median of its launches in the range, its replayed one the median of those launches' "
          "replayed medians; each ratio is the median of the per-recording ratios. The spread "
          "column is the fastest and slowest recorded launch against that recording's median "
          "(the widest over the recordings).\n")
    print("| kernel | launches | original us | spread of one launch | replayed median us "
          "(default: cache cleared) | ratio | within 15% | replayed median us "
          "(--cache-control none) | ratio |")
    print("|---|---:|---:|---|---:|---:|---|---:|---:|")
    ok = True
    for name in order:
        orig = statistics.median(original[name])
        ratios = [statistics.median(r / o for r, o in zip(replayed[mode][name], original[name]))
                  for mode, _ in modes]
        close = abs(ratios[0] - 1) <= 0.15
        if orig > 1000:
            ok = ok and close
            mark = verdict(close)
        else:
            mark = "(< 1 ms, not a target)"
        lows, highs = spread[name]
        print(f"| {name} | {launch_counts[name]} | {orig:.0f} | {min(lows):.2f}-{max(highs):.2f} "
              f"| {statistics.median(replayed['all'][name]):.0f} | {ratios[0]:.2f} | {mark} "
              f"| {statistics.median(replayed['none'][name]):.0f} | {ratios[1]:.2f} |")
    print()
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", type=pathlib.Path, default=SOURCE / "build/release",
                        help="build folder with the tools (default build/release)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement (3)")
    parser.add_argument("--keep", type=pathlib.Path,
                        help="write traces and results here and keep them")
    parser.add_argument("--skip-pass-bench", action="store_true", help="leave out msprof_replay_pass_bench (the synthetic trace)")
    args = parser.parse_args()
    tools = Tools(args.build.resolve())
    with tempfile.TemporaryDirectory(prefix="msprof-replay-bench-") as temp:
        work = args.keep or pathlib.Path(temp)
        work.mkdir(parents=True, exist_ok=True)
        ok = True
        ok = bench_recorded_pass_overhead(tools, work, args.repeat) and ok
        if not args.skip_pass_bench:
            ok = bench_pass_overhead(tools) and ok
        ok = bench_application_replay(tools, work, args.repeat) and ok
        ok = bench_long_kernels(tools, work, args.repeat) and ok
    print("every target met" if ok else "some target MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except subprocess.CalledProcessError as e:
        sys.exit(f"replay_vs_application: error: {' '.join(map(str, e.cmd))} failed "
                 f"({e.returncode}): {e.stderr.strip().splitlines()[-1:] or ''}")
