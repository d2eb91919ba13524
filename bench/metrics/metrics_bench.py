#!/usr/bin/env python3
"""What msprof-replay --metrics costs, side by side in one run
(bench/metrics/README.md):

(1) examples/test.py recorded once; `msprof-replay --include range1`
    natively (default options) against the same with `--metrics
    L2Cache,Memory,Instructions --metrics-backend sim`, warm (PoCL's kernel
    cache already holds the kernels built for the CPU valgrind shows),
    medians of --runs runs; target: sim at most 5x native. Beside them, once
    each, the same two on a fresh PoCL cache (cold), and the floor of any
    simulated replay: msprof-replay without metrics under callgrind with
    instrumentation off.
(2) the whole program under callgrind (`valgrind --tool=callgrind
    --cache-sim=yes PYTHON PROGRAM`, one PoCL thread, warm PoCL cache)
    against the sim metrics replay of its range: examples/test.py (range1)
    and examples/tinygrad_mlp.py (train_step); target for tinygrad: metrics
    at least 20x faster. The whole program is capped at --whole-timeout
    seconds: past it, the figure is a lower bound.
(3) a counting pass against a timed pass: this machine has no PMU, so the
    software group HostActivity (perf task-clock, page faults, ...) stands in:
    the whole replay with and without it at the same launch count, and one
    counting pass against one timed pass estimated from the differences.
(4) counts repeat: the per-kernel "metrics" objects of the summary.json of
    --count-runs sim runs of one trace (the timed ones, then untimed ones)
    compared with each other.

Markdown on stdout, ending with `every target met` or `some target MISSED`;
exit status 0 when every target is met and the counts repeat, 1 otherwise.

usage: metrics_bench.py [--msprof-record PATH] [--msprof-replay PATH] [--runs 3]
                        [--count-runs 5] [--whole-timeout 900] [--keep DIR]
"""
import argparse
import json
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = pathlib.Path(__file__).resolve().parents[2]
SIM_GROUPS = ["--metrics", "L2Cache,Memory,Instructions", "--metrics-backend", "sim"]
# What msprof-replay gives the simulated child, so that the whole program
# runs under the same conditions: one PoCL worker thread (the work-groups run
# in one order), hwloc without its CPUID probe (it fails under valgrind).
SIMULATED_ENV = {"POCL_DEVICES": "basic", "HWLOC_COMPONENTS": "-x86"}


class BenchError(Exception):
    pass


class Run:
    """One timed process: wall seconds, stdout, and stderr lines that are not
    msprof-replay's own progress (anything else there is worth a look)."""

    def __init__(self, seconds, completed, timed_out=False):
        self.seconds = seconds
        self.stdout = completed.stdout if completed else ""
        self.stderr = completed.stderr if completed else ""
        self.timed_out = timed_out
        self.returncode = completed.returncode if completed else None

    def odd_stderr(self):
        return [line for line in self.stderr.splitlines()
                if line.strip() and not line.startswith("msprof-replay: info:")]


def timed(argv, env, timeout=None, check=True):
    # The tools may be relinked by a build while the bench runs (a shared
    # tree): a missing or busy binary is waited for, not a failure.
    for attempt in range(60):
        start = time.perf_counter()
        try:
            completed = subprocess.run([str(a) for a in argv], env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            return Run(time.perf_counter() - start, None, timed_out=True)
        except OSError as e:  # ETXTBSY, EACCES or ENOENT while it is relinked
            if attempt == 59:
                raise BenchError(f"cannot start {argv[0]}: {e}")
            print(f"metrics_bench: {argv[0]} cannot start ({e.strerror}), retrying in 10 s",
                  file=sys.stderr)
            time.sleep(10)
    seconds = time.perf_counter() - start
    if check and completed.returncode != 0:
        raise BenchError(f"{' '.join(map(str, argv))} failed ({completed.returncode}): "
                         + " / ".join(completed.stderr.strip().splitlines()[-3:]))
    return Run(seconds, completed)


class Bench:
    def __init__(self, args, work):
        self.record_tool = args.msprof_record
        self.replay_tool = args.msprof_replay
        for tool in (self.record_tool, self.replay_tool):
            if not tool.exists():
                raise BenchError(f"{tool} is missing; build it or name it with an option")
        valgrind = shutil.which("valgrind")
        if valgrind is None:
            raise BenchError("valgrind is not installed (apt install valgrind)")
        self.valgrind = valgrind
        self.python = pathlib.Path(sys.executable).resolve()
        self.work = work
        self.runs = args.runs
        self.count_runs = max(args.count_runs, 2)
        self.whole_timeout = args.whole_timeout
        # One PoCL cache for every warm run, this run's own; tinygrad's
        # compile cache likewise (its key is the device name, so the CPU
        # valgrind shows has entries of its own).
        self.pocl_cache = work / "pocl-cache"
        self.env = dict(os.environ)
        self.env["POCL_CACHE_DIR"] = str(self.pocl_cache)
        self.env["CACHEDB"] = str(work / "tinygrad-cache.db")
        self.env["PYTHONPATH"] = os.pathsep.join(
            [str(SOURCE / "recorder/python")]
            + ([self.env["PYTHONPATH"]] if "PYTHONPATH" in self.env else []))
        self.outputs = 0
        self.odd = []  # (what, line) seen on stderr

    def cold_env(self, name):
        env = dict(self.env)
        env["POCL_CACHE_DIR"] = str(self.work / name)
        return env

    def simulated_env(self):
        env = dict(self.env)
        env.update(SIMULATED_ENV)
        return env

    def note_stderr(self, what, run):
        for line in run.odd_stderr():
            self.odd.append((what, line))

    def record(self, program, trace):
        timed([self.record_tool, "-q", "-f", "-o", trace, "--", self.python, program], self.env)

    def replay(self, what, trace, options, env=None, prefix=()):
        """One msprof-replay run into a folder of its own; the run and its
        summary.json."""
        self.outputs += 1
        output = self.work / f"out{self.outputs}"
        run = timed([*prefix, self.replay_tool, trace, "--output", output, *options],
                    env or self.env)
        self.note_stderr(what, run)
        (summary,) = output.glob("OPPROF_*/summary.json")
        with open(summary) as f:
            return run, json.load(f)

    def more_sim_summaries(self, what, trace, options, have):
        """Untimed sim runs, so that --count-runs summaries are compared."""
        return [self.replay(what, trace, options)[1] for _ in range(self.count_runs - have)]

    def under_callgrind(self, what, program, timeout):
        """The whole program under callgrind with cache simulation: the run
        and the instructions it simulated (None when it ran out of time)."""
        out = self.work / "callgrind.out"
        log = self.work / "callgrind.log"
        run = timed([self.valgrind, "--tool=callgrind", "--cache-sim=yes",
                     f"--callgrind-out-file={out}", f"--log-file={log}", self.python, program],
                    self.simulated_env(), timeout=timeout, check=False)
        if run.timed_out:
            return run, None
        if run.returncode != 0:
            raise BenchError(f"{program} failed under callgrind ({run.returncode}): "
                             + " / ".join(run.stderr.strip().splitlines()[-3:]))
        self.note_stderr(what, run)
        match = re.search(r"I\s+refs:\s+([\d,]+)", log.read_text())
        return run, int(match.group(1).replace(",", "")) if match else None

    def warm_for_simulator(self, what, program):
        """Runs the program once under valgrind without instrumentation, so
        that PoCL (and tinygrad) build its kernels for the CPU valgrind shows
        into the warm caches at valgrind's plain speed."""
        run = timed([self.valgrind, "--tool=none", "-q", self.python, program],
                    self.simulated_env())
        self.note_stderr(what, run)
        return run


def median(runs):
    return statistics.median(r.seconds for r in runs)


def verdict(ok):
    return "met" if ok else "MISSED"


def kernel_metrics(summary):
    return [((r["name"], k["seq"], k["name"]), k.get("metrics"))
            for r in summary["ranges"] for k in r.get("kernels", [])]


def compare_counts(label, summaries):
    """Prints whether every sim run gave the same per-kernel metrics, and
    where not each differing figure's values run by run; True when they
    agree and there were counts to compare."""
    runs = [kernel_metrics(summary) for summary in summaries]
    first = runs[0]
    if not any(m for _, m in first):
        print(f"- {label}: no kernel has metrics in summary.json: MISSED")
        return False
    if any([key for key, _ in other] != [key for key, _ in first] for other in runs[1:]):
        print(f"- {label}: the {len(runs)} sim runs list different kernel launches: DIFFER")
        return False
    differences = []
    for index, (key, metrics) in enumerate(first):
        for group in metrics or {}:
            for column in metrics[group]:
                values = [(run[index][1] or {}).get(group, {}).get(column) for run in runs]
                if len(set(map(str, values))) > 1:
                    differences.append(f"{key[0]}/{key[2]} (seq {key[1]}) {group}.{column}: "
                                       + ", ".join(map(str, values)))
    figures = sum(len(g) - 1 for _, m in first for g in (m or {}).values())
    if differences:
        print(f"- {label}: {len(runs)} sim runs DIFFER in {len(differences)} of {figures} "
              "figures (values run by run):")
        for line in differences:
            print(f"  - {line}")
        return False
    print(f"- {label}: {len(runs)} sim runs, {len(first)} kernel launches, {figures} figures: "
          "identical")
    return True


def machine_line(bench, summary):
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    valgrind = subprocess.run([bench.valgrind, "--version"], stdout=subprocess.PIPE,
                              text=True).stdout.strip()
    device = summary["device"]
    print(f"{os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.release()}; "
          f"{valgrind}; device: {device['name']} ({device['platform']}, driver "
          f"{device['driver']}); simulated device: "
          f"{summary['metrics'].get('simulated_device') or '?'}\n")


def bench_range1(bench, trace):
    """(1): the reference example's range1, native against sim metrics.
    Returns (ok, sim runs, sim summaries)."""
    print("## (1) range1 of examples/test.py: native replay against a sim metrics replay\n")
    options = ["--include", "range1"]
    cold_native, _ = bench.replay("native, cold", trace, options, bench.cold_env("pocl-cold-1"))
    cold_sim, summary = bench.replay("sim, cold", trace, options + SIM_GROUPS,
                                     bench.cold_env("pocl-cold-2"))
    machine_line(bench, summary)
    # Warm-up: the sim run builds the kernels natively and for the CPU valgrind
    # shows, into the warm cache.
    bench.replay("sim, warm-up", trace, options + SIM_GROUPS)
    bench.replay("native, warm-up", trace, options)
    floor_prefix = [bench.valgrind, "-q", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={bench.work / 'floor.out'}"]
    bench.replay("floor, warm-up", trace, options, bench.simulated_env(), prefix=floor_prefix)
    native, sim, floor, summaries = [], [], [], []
    for _ in range(bench.runs):
        native.append(bench.replay("native", trace, options)[0])
        run, summary = bench.replay("sim", trace, options + SIM_GROUPS)
        sim.append(run)
        summaries.append(summary)
        floor.append(bench.replay("floor", trace, options, bench.simulated_env(),
                                  prefix=floor_prefix)[0])
    summaries += bench.more_sim_summaries("sim, counts", trace, options + SIM_GROUPS,
                                          len(summaries))
    ratio = median(sim) / median(native)
    ok = ratio <= 5
    print(f"Medians of {bench.runs} runs, interleaved, after one untimed run of each (warm); "
          "cold: once, each on a fresh PoCL cache. Wall time of the whole msprof-replay "
          "process.\n")
    print("| run | warm s (median) | runs | cold s | against native (warm medians) | target |")
    print("|---|---:|---|---:|---:|---|")
    print(f"| native: `--include range1` | {median(native):.2f} | "
          f"{', '.join(f'{r.seconds:.2f}' for r in native)} | {cold_native.seconds:.2f} | 1.0x | |")
    print(f"| sim: `+ --metrics L2Cache,Memory,Instructions --metrics-backend sim` | "
          f"{median(sim):.2f} | {', '.join(f'{r.seconds:.2f}' for r in sim)} | "
          f"{cold_sim.seconds:.2f} | {ratio:.1f}x | <= 5x, {verdict(ok)} |")
    print(f"| floor: native replay under `callgrind --instr-atstart=no`, nothing counted | "
          f"{median(floor):.2f} | {', '.join(f'{r.seconds:.2f}' for r in floor)} | | "
          f"{median(floor) / median(native):.1f}x | |")
    print()
    return ok, sim, summaries


def bench_whole_program(bench, label, program, sim_runs, target):
    """(2): the whole program under callgrind against the sim replay of its
    range. Returns ok (True where no target)."""
    bench.warm_for_simulator(f"{label}: warm-up under valgrind --tool=none", program)
    run, instructions = bench.under_callgrind(f"{label} under callgrind", program,
                                              bench.whole_timeout)
    timed_out = run.timed_out
    seconds = run.seconds
    ratio = seconds / median(sim_runs)
    bound = "more than " if timed_out else ""
    ok = target is None or ratio >= target
    judged = "" if target is None else f"at least {target}x, {verdict(ok)}"
    simulated = f"{instructions / 1e9:.2f} G" if instructions else "?"
    return (f"| {label} | {bound}{seconds:.1f} | {simulated} | {median(sim_runs):.2f} | "
            f"{bound}{ratio:.1f}x | {judged} |"), ok


def bench_tinygrad(bench):
    trace = bench.work / "tinygrad_mlp.fb"
    bench.record(SOURCE / "examples/tinygrad_mlp.py", trace)
    options = ["--include", "train_step"] + SIM_GROUPS
    bench.replay("tinygrad sim, warm-up", trace, options)
    sim, summaries = [], []
    for _ in range(bench.runs):
        run, summary = bench.replay("tinygrad sim", trace, options)
        sim.append(run)
        summaries.append(summary)
    summaries += bench.more_sim_summaries("tinygrad sim, counts", trace, options, len(summaries))
    return sim, summaries


def bench_host_activity(bench, traces):
    """(3): HostActivity (software perf events) against no metrics."""
    print("## (3) a counting pass against a timed pass (HostActivity, software events)\n")
    print("No PMU here: perf's hardware events give ENOENT, so the software group "
          "`--metrics HostActivity` (same perf code path) stands in. Medians of "
          f"{bench.runs + 2} runs each, interleaved; a timed pass is estimated as (T(20 passes) "
          "- T(10 passes)) / 10, a counting pass as (T(10 + HostActivity) - T(10)) / counting "
          "passes.\n")
    print("| trace, range | 10 passes s | 10 + HostActivity s | ratio | 20 passes s | "
          "timed pass ms | counting pass ms | counting / timed |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, trace, name in traces:
        base = ["--include", name, "--launch-count", "10"]
        configs = {"10": base, "host": base + ["--metrics", "HostActivity"],
                   "20": ["--include", name, "--launch-count", "20"]}
        times = {key: [] for key in configs}
        passes = 1
        for key, options in configs.items():
            bench.replay(f"{label} warm-up", trace, options)
        for _ in range(bench.runs + 2):
            for key, options in configs.items():
                run, summary = bench.replay(f"{label} HostActivity", trace, options)
                times[key].append(run.seconds)
                if key == "host":
                    passes = max(1, summary["metrics"]["counting_passes"])
                if key == "10":
                    (rng,) = summary["ranges"]
                    pass_body_ms = (rng["wall_us"]["median"] + rng["restore_us"]["median"]) / 1e3
        t10, host, t20 = (statistics.median(times[k]) for k in ("10", "host", "20"))
        row = f"| {label} | {t10:.3f} | {host:.3f} | {host / t10:.2f}x | {t20:.3f} |"
        if pass_body_ms < 1:
            # A pass of microseconds is lost in the noise of a process's
            # start and exit: the differences would say nothing.
            print(row + f" {pass_body_ms:.2f} (replay's own figures) | | below the noise |")
            continue
        timed_pass = (t20 - t10) / 10
        counting_pass = (host - t10) / passes
        print(row + f" {timed_pass * 1e3:.1f} | {counting_pass * 1e3:.1f} "
              f"| {counting_pass / timed_pass:.2f}x |")
    print("\nThe hardware target (a counting pass under `perf` at most 1.05x a timed pass) "
          "cannot be measured on this machine: not judged.\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--msprof-record", type=pathlib.Path,
                        default=SOURCE / "build/release/recorder/launcher/msprof-record")
    parser.add_argument("--msprof-replay", type=pathlib.Path,
                        default=SOURCE / "build/release/replayer/cli/msprof-replay")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each replay (3)")
    parser.add_argument("--count-runs", type=int, default=5,
                        help="sim runs of each trace whose counts are compared (5; the timed "
                        "ones and untimed ones after them)")
    parser.add_argument("--whole-timeout", type=float, default=900,
                        help="seconds a whole program may run under callgrind (900)")
    parser.add_argument("--keep", type=pathlib.Path, help="keep traces and results here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="msprof-metrics-bench-") as temp:
        work = (args.keep or pathlib.Path(temp)).resolve()
        work.mkdir(parents=True, exist_ok=True)
        bench = Bench(args, work)
        print("# msprof-replay --metrics\n")
        test_py = SOURCE / "examples/test.py"
        trace = work / "test.fb"
        bench.record(test_py, trace)
        ok_range1, sim_range1, summaries_range1 = bench_range1(bench, trace)

        print("## (2) the whole program under callgrind against the sim metrics replay "
              "of its range\n")
        sim_tinygrad, summaries_tinygrad = bench_tinygrad(bench)
        rows = []
        row, _ = bench_whole_program(bench, "examples/test.py, range1", test_py, sim_range1,
                                     None)
        rows.append(row)
        row, ok_tinygrad = bench_whole_program(bench, "examples/tinygrad_mlp.py, train_step",
                                               SOURCE / "examples/tinygrad_mlp.py", sim_tinygrad,
                                               20)
        rows.append(row)
        print("Whole program: `valgrind --tool=callgrind --cache-sim=yes PYTHON PROGRAM`, "
              "POCL_DEVICES=basic, after one untimed run under `valgrind --tool=none` "
              f"(warm caches), once, capped at {bench.whole_timeout:.0f} s; metrics: the warm "
              "sim replay's median (above for range1; tinygrad's recorded once, warmed by one "
              "untimed run).\n")
        print("| program, range | whole program under callgrind s | instructions simulated "
              "| sim metrics replay s | whole / metrics | target |")
        print("|---|---:|---:|---:|---:|---|")
        for row in rows:
            print(row)
        print()

        workload = work / "workload16.fb"
        timed([bench.record_tool, "-q", "-f", "-o", workload, "--", bench.python,
               SOURCE / "bench/record/workload.py", "--mib", "16", "--ranges", "1"], bench.env)
        bench_host_activity(bench, [("examples/test.py, range1", trace, "range1"),
                                    ("bench/record/workload.py --mib 16, range0", workload,
                                     "range0")])

        print("## (4) counts repeat\n")
        same = compare_counts("examples/test.py range1", summaries_range1)
        same = compare_counts("examples/tinygrad_mlp.py train_step", summaries_tinygrad) and same
        print()
        if bench.odd:
            print("## stderr besides msprof-replay's progress\n")
            seen = set()
            for what, line in bench.odd:
                if (what, line) not in seen:
                    seen.add((what, line))
                    count = sum(1 for o in bench.odd if o == (what, line))
                    print(f"- {what}: `{line}`" + (f" (x{count})" if count > 1 else ""))
            print()
    ok = ok_range1 and ok_tinygrad and same
    print("every target met" if ok else "some target MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BenchError as e:
        sys.exit(f"metrics_bench: error: {e}")
